package compiler

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestSubagentErrorsLast(t *testing.T) {
	errs := []handoff.ErrorRecord{{ID: "s1"}, {ID: "e2"}, {ID: "s2"}, {ID: "e1"}}
	got := subagentErrorsLast(errs)
	var ids []string
	for _, e := range got {
		ids = append(ids, e.ID)
	}
	if strings.Join(ids, ",") != "e2,e1,s1,s2" {
		t.Fatalf("order %v, want main thread first, each group in order", ids)
	}
	if errs[0].ID != "s1" {
		t.Fatal("input reordered in place")
	}
}

func TestErrorLineMultilineCommand(t *testing.T) {
	e := handoff.ErrorRecord{Command: "cat > types/README.md << 'EOF'\n# Types\nlots of text\nEOF", Message: "no such file or directory: types/README.md"}
	cases := []struct {
		limit int
		want  string
	}{
		{140, "`cat > types/README.md << 'EOF' …` failed: "},
		{260, "`cat > types/README.md << 'EOF' ⏎ # Types"},
	}
	for _, tc := range cases {
		if got := errorLine(e, tc.limit); !strings.HasPrefix(got, tc.want) {
			t.Errorf("errorLine(limit %d) = %q, want prefix %q", tc.limit, got, tc.want)
		}
	}
}

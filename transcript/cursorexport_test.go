package transcript

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestFenceBodies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"none", "just prose\nand more", nil},
		{"one", "see:\n```go\nx := 1\n```\nafter", []string{"x := 1\n"}},
		{"tildes and backticks inside", "~~~\n```\nin\n~~~\n", []string{"```\nin\n"}},
		{"longer fence closes only on its own length", "````\n```\nbody\n````\n", []string{"```\nbody\n"}},
		{"unclosed runs to the end", "```\nlog line\nlast", []string{"log line\nlast"}},
		{"two", "```\na\n```\ntext\n```sh\nb\n```", []string{"a\n", "b\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, r := range fenceBodies(tc.text) {
				got = append(got, tc.text[r[0]:r[1]])
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("fenceBodies(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

// TestCursorExportCodeAges checks that a Cursor export's code blocks are
// kept as tool output is: cut to MaxToolOutputBytes when read, and to
// OlderToolOutputBytes once RecentToolResults newer long blocks follow,
// with the prose around them whole.
func TestCursorExportCodeAges(t *testing.T) {
	t.Parallel()
	code := func(i, n int) string {
		return strings.Repeat(fmt.Sprintf("line %d of block\n", i), n/18)
	}
	var doc strings.Builder
	doc.WriteString("# Long\n_Exported on 1/1/2026 at 10:00:00 GMT from Cursor (1.7.0)_\n\n---\n\n")
	for i := range 3 {
		fmt.Fprintf(&doc, "**User**\n\nstep %d\n\n---\n\n**Cursor**\n\nBuilt it:\n\n```\n%s```\n\nDone %d.\n\n---\n\n", i, code(i, 8000), i)
	}
	opts := Options{Format: FormatCursorExport, MaxToolOutputBytes: 4000, OlderToolOutputBytes: 500, RecentToolResults: 1}
	tr, err := Parse(context.Background(), strings.NewReader(doc.String()), opts)
	if err != nil {
		t.Fatal(err)
	}
	var replies []string
	for _, m := range tr.Messages {
		if m.Role == "assistant" {
			replies = append(replies, m.Text)
		}
	}
	if len(replies) != 3 {
		t.Fatalf("%d replies, want 3", len(replies))
	}
	for i, want := range []int{500, 500, 4000} {
		r := replies[i]
		if !strings.HasPrefix(r, "Built it:\n\n```\nline ") || !strings.HasSuffix(r, fmt.Sprintf("```\n\nDone %d.", i)) {
			t.Errorf("reply %d lost its prose: %.60q … %.60q", i, r, r[max(0, len(r)-60):])
		}
		if !strings.Contains(r, " bytes elided …]") {
			t.Errorf("reply %d: code block not cut", i)
		}
		if n := len(r); n > want+200 || n < want {
			t.Errorf("reply %d is %d bytes, want about %d", i, n, want)
		}
		if elided := fmt.Sprintf("[… %d bytes elided …]", len(code(i, 8000))-want); !strings.Contains(r, elided) {
			t.Errorf("reply %d: the marker does not count the block as exported: want %q in %q", i, elided, r)
		}
	}
}

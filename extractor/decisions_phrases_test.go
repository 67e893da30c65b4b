package extractor

import (
	"reflect"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestAlternativeNotCutMidClause: an alternative whose capture stopped at
// a clause word right after a verb that needs it runs on to the clause's
// punctuation; one that ends on a noun stays as captured.
func TestAlternativeNotCutMidClause(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		alts []string
	}{
		{"The best approach is to prevent trailing whitespace in my edits rather than trying to auto-stage fixes.", []string{"trying to auto-stage fixes"}},
		{"I'll keep the inline template instead of the verbatim copy it is now.", []string{"verbatim copy it is now"}},
		{"I'll use pgx instead of having to wrap database/sql, since COPY matters.", []string{"having to wrap database/sql"}},
		{"I'll use pgx instead of database/sql because it supports COPY.", []string{"database/sql"}},
		{"I'll switch from the fixed window to a sliding window.", []string{"fixed window"}},
		{"We'll refactor the handler into its own package rather than grow main.go.", []string{"grow main.go"}},
	} {
		res := extract(t, []handoff.Message{{Index: 1, Role: handoff.RoleAssistant, Text: tc.text}})
		if len(res.Decisions) != 1 {
			t.Fatalf("%q: want one decision, got %+v", tc.text, res.Decisions)
		}
		if got := res.Decisions[0].Alternatives; !reflect.DeepEqual(got, tc.alts) {
			t.Errorf("%q: alternatives = %q, want %q", tc.text, got, tc.alts)
		}
	}
}

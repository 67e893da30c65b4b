package extractor

import (
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestSentenceRationale: the why of a decision in its own sentence, after
// a clause word, before the main clause, or after a spaced dash.
func TestSentenceRationale(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text string
		user bool
		want string
	}{
		{"I'll use pgx instead of database/sql because it supports COPY.", false, "it supports COPY"},
		{"Since we have no database fixture yet, let's skip this test for now.", false, "we have no database fixture yet"},
		{"Let's go with SQLite — one file, no server.", false, "one file, no server"},
		{"Let's use SQLite - one file, no server", true, "one file, no server"},
		{"I'll go with Redis – it is already deployed.", false, "it is already deployed"},
		// The words after the dash choose again: no why.
		{"Let's go with SQLite - let's skip the migration tool.", false, ""},
		// The dash follows no choice: the choice is after it.
		{"You're right - I'll use ripgrep instead of a subagent.", false, ""},
	} {
		role := handoff.RoleAssistant
		if tc.user {
			role = handoff.RoleUser
		}
		res := extract(t, []handoff.Message{{Index: 1, Role: role, Text: tc.text}})
		if len(res.Decisions) != 1 {
			t.Fatalf("%q: want one decision, got %+v", tc.text, res.Decisions)
		}
		if got := res.Decisions[0].Rationale; got != tc.want {
			t.Errorf("%q: rationale = %q, want %q", tc.text, got, tc.want)
		}
	}
}

package conversation

import (
	"testing"

	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// TestConstraintCascade: every step names a catalogue rule, and each
// decides the case it exists for.
func TestConstraintCascade(t *testing.T) {
	t.Parallel()
	for _, step := range constraintCascade() {
		if _, ok := rulebook.ByID(step.id); !ok {
			t.Errorf("constraint step %q is not in the rulebook", step.id)
		}
	}
	cases := []struct {
		sent string
		want bool
	}{
		{"if (!force) { return errNotAllowed }", false},
		{"That was a <tdd_discipline> violation.", true},
		{"Can you run the tests and make sure they use the fixtures", false},
		{"Never push to main without a review.", true},
		{"The build is green now.", false},
	}
	for _, tc := range cases {
		if got := IsConstraint(tc.sent); got != tc.want {
			t.Errorf("IsConstraint(%q) = %v, want %v", tc.sent, got, tc.want)
		}
	}
}

package conversation

import "testing"

func TestMusingsAreNoConstraints(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		sent string
		want bool
	}{
		{"maybe I should", "Maybe I should try to create a local user without an Apple ID (this would mean they can't use the app?).", false},
		{"a typo in the modal", "Maybe I shoudl try it without the cache.", false},
		{"perhaps we could", "Perhaps we could do it without the wrapper script.", false},
		{"I wonder if we", "I wonder if we can avoid the extra build step.", false},
		{"after a conjunction", "That failed again, so maybe I should run it without sudo.", false},
		{"a rule after the musing", "Maybe I should try it locally first, but never push to main.", true},
		{"a hedge about the agent is a soft rule", "Maybe you should always run the linter first.", true},
		{"no hedge", "Build it without the wrapper script.", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsConstraint(tt.sent); got != tt.want {
				t.Errorf("isConstraint(%q) = %v, want %v (masked: %q)", tt.sent, got, tt.want, withoutDescriptions(tt.sent))
			}
		})
	}
}

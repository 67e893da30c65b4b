package conversation

import "testing"

func TestAttributiveImportantIsNoRequirement(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		sent string
		want bool
	}{
		{"of important note", "Of important note, we used to publish the builds to a different repo.", false},
		{"an important thing described", "The logs show two important warnings from the linker.", false},
		{"important to", "It's also important to default to a single Co-Authored-By line.", true},
		{"is important", "And the attribution is important because it shows up on commits.", true},
		{"importantly", "Importantly, keep the public API stable.", true},
		{"a rule beside an attributive", "These are important files, don't delete them.", true},
		{"a hortative prohibition", "NO! Let's not lose track of important tasks like the CI mocks!", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsConstraint(tt.sent); got != tt.want {
				t.Errorf("isConstraint(%q) = %v, want %v (masked: %q)", tt.sent, got, tt.want, withoutDescriptions(tt.sent))
			}
		})
	}
}

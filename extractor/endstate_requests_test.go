package extractor

import (
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

func TestPlaceholderOnlyAndCommandInvocations(t *testing.T) {
	for _, tt := range []struct {
		text              string
		placeholder, runs bool
	}{
		{"[image]", true, false},
		{"[image]\n[trimmed for fixture]", true, false},
		{"[Image #1] the header overlaps the menu, fix it", false, false},
		{"Execute /hi", false, true},
		{"run /deploy please", false, true},
		{"/review", false, true},
		{"clean up /usr/local/bin/tool and the cache", false, false},
		{"check src/a/b.go", false, false},
		{"Execute /hi, then explain the onboarding flow to me", false, false},
	} {
		if got := conversation.PlaceholderOnly(tt.text); got != tt.placeholder {
			t.Errorf("placeholderOnly(%q) = %v, want %v", tt.text, got, tt.placeholder)
		}
		if got := conversation.InvokesCommand(tt.text); got != tt.runs {
			t.Errorf("invokesCommand(%q) = %v, want %v", tt.text, got, tt.runs)
		}
	}
}

// TestLatestRequestSkipsCommandRuns: a person who quit and, in a new CLI
// session, only ran a slash command ("Execute /hi") made no new request;
// a placeholder-only message is none either.
func TestLatestRequestSkipsCommandRuns(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("Add UI screenshots to docs/apple_books.md and update the analysis")
	c.Say("Added the screenshots and updated the analysis.")
	c.User("Credit Pro as first co-author, then Flash as second")
	c.Say("Committed with Pro first, then Flash.")
	c.User("/quit")
	c.User("Execute /hi")
	c.Say("Hello! I have read the project notes and I am ready.")
	c.User("[image]\n[trimmed for fixture]")
	c.Say("I can't see any text with that image.")
	c.User("/quit")
	snap := build(t, c, handoff.SessionInfo{})
	if snap.LatestRequest != "Credit Pro as first co-author, then Flash as second" {
		t.Errorf("latest request = %q", snap.LatestRequest)
	}
	if snap.Goal != "Add UI screenshots to docs/apple_books.md and update the analysis" {
		t.Errorf("goal = %q", snap.Goal)
	}
	if snap.EndState != nil && len(snap.EndState.Unanswered) > 0 {
		t.Errorf("unanswered = %q", snap.EndState.Unanswered)
	}
}

package extractor

import (
	"slices"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

// fork builds a conversation whose first messages are a replayed parent
// history (side chain) when parent is true, else a sub-agent's side chain
// after the main thread began.
func forkedConvo(t *testing.T, parent bool) []string {
	c := sessiontest.NewConvo(t)
	side := func() { c.Msgs[len(c.Msgs)-1].Sidechain = true }
	prompt := "Raise the API coverage.\n\nConstraints:\n- Do not use the e2e suite.\n- Keep the existing test patterns.\n\nReport the delta."
	if parent {
		c.User(prompt)
		side()
		c.Say("Planning batches.")
		side()
		c.User("Implement batch 2 in your forked workspace.")
		c.Say("Working on batch 2.")
	} else {
		c.User("Implement batch 2.")
		c.Say("Launching a helper.")
		c.User(prompt)
		side()
		c.Say("Helper working.")
		side()
	}
	snap := build(t, c, handoff.SessionInfo{})
	var texts []string
	for _, k := range snap.Constraints {
		texts = append(texts, k.Text)
	}
	return texts
}

func TestForkParentRuleListBindsTheFork(t *testing.T) {
	if got := forkedConvo(t, true); !slices.Contains(got, "Do not use the e2e suite.") || !slices.Contains(got, "Keep the existing test patterns.") {
		t.Errorf("constraints = %q, want the parent task prompt's rule list", got)
	}
	if got := forkedConvo(t, false); slices.Contains(got, "Do not use the e2e suite.") {
		t.Errorf("constraints = %q, want nothing from a sub-agent's prompt written by the agent", got)
	}
}

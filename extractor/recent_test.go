package extractor

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// recentTools returns the tool lines of a conversation's recent turns.
func recentTools(t *testing.T, c *convo) []handoff.Turn {
	t.Helper()
	conv := ReadConversation(c.transcript())
	var out []handoff.Turn
	for _, turn := range conv.Recent {
		if turn.Role == handoff.RoleTool {
			out = append(out, turn)
		}
	}
	return out
}

// TestRecentSearchNoMatch: a search that found nothing is "no match" in
// the recent conversation, not a failure with "(no output)".
func TestRecentSearchNoMatch(t *testing.T) {
	t.Parallel()
	c := newConvo(t).user("check the log for undefined references")
	c.bash("", `pdflatex p.tex > temp.log 2>&1 && grep "undefined" temp.log`, "Error", 1)
	c.bash("", `rg -n "OLLAMA"`, "", 1)
	c.bash("", `make`, "make: *** No rule to make target 'all'.  Stop.", 2)
	tools := recentTools(t, c)
	if len(tools) != 3 {
		t.Fatalf("tool turns = %+v", tools)
	}
	for i, want := range []string{"→ no match", "→ no match", "→ exit 2: make: *** No rule"} {
		if !strings.Contains(tools[i].Text, want) {
			t.Errorf("turn %d = %q, want %q", i, tools[i].Text, want)
		}
	}
}

package compiler

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestNotesRanking: a notes file written after the latest request ranks
// before one written earlier, a history file after both.
func TestNotesRanking(t *testing.T) {
	s := &handoff.Snapshot{
		Requests: []handoff.Request{{Text: "update the status", Source: handoff.MessageRef{Index: 10}}},
		FileNotes: []handoff.FileNote{
			{Path: "docs/archive/previous-status.md", Text: "## Next\n- old plan", Source: handoff.MessageRef{Index: 16}},
			{Path: "STATUS.md", Text: "## Next\n- fresh plan", Source: handoff.MessageRef{Index: 15}},
			{Path: "TODO.md", Text: "## Next\n- earlier plan", Source: handoff.MessageRef{Index: 5}},
		},
	}
	ranks := map[string]int{}
	for _, p := range buildPieces(s, "handoff show") {
		for _, w := range []string{"old plan", "fresh plan", "earlier plan"} {
			if strings.Contains(p.text, w) {
				if r, ok := ranks[w]; !ok || p.rank < r {
					ranks[w] = p.rank
				}
			}
		}
	}
	if !(ranks["fresh plan"] < ranks["earlier plan"] && ranks["earlier plan"] < ranks["old plan"]) {
		t.Errorf("ranks %v: want fresh < earlier < archive", ranks)
	}
}

package compiler

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestNotesRanking: a notes file written after the latest request ranks
// before one written earlier, a history file after both; the
// conversation's own notes (a report before a short close, reasoning at
// a tool loop's end) go where the session stopped.
func TestNotesRanking(t *testing.T) {
	s := &handoff.Snapshot{
		Requests: []handoff.Request{{Text: "update the status", Source: handoff.MessageRef{Index: 10}}},
		FileNotes: []handoff.FileNote{
			{Path: noteReasoningPath, Text: "Designing stream parsing: processResponse", Source: handoff.MessageRef{Index: 20}},
			{Path: noteReportPath, Text: "### Next Priority\n- implement the GPU kernel", Source: handoff.MessageRef{Index: 18}},
			{Path: "docs/archive/previous-status.md", Text: "## Next\n- old plan", Source: handoff.MessageRef{Index: 16}},
			{Path: "STATUS.md", Text: "## Next\n- fresh plan", Source: handoff.MessageRef{Index: 15}},
			{Path: "TODO.md", Text: "## Next\n- earlier plan", Source: handoff.MessageRef{Index: 5}},
		},
	}
	ranks := map[string]int{}
	for _, p := range buildPieces(s, "handoff show") {
		for _, w := range []string{"old plan", "fresh plan", "earlier plan", "processResponse", "implement the GPU kernel"} {
			if strings.Contains(p.text, w) {
				if r, ok := ranks[w]; !ok || p.rank < r {
					ranks[w] = p.rank
				}
				if (w == "processResponse" || w == "implement the GPU kernel") && p.sec != secStop {
					t.Errorf("%q rendered in section %d, want the stop section", w, p.sec)
				}
			}
		}
	}
	if !(ranks["fresh plan"] < ranks["earlier plan"] && ranks["earlier plan"] < ranks["old plan"]) {
		t.Errorf("ranks %v: want fresh < earlier < archive", ranks)
	}
	if ranks["processResponse"] > rankLastLonger || ranks["implement the GPU kernel"] > rankLastLonger {
		t.Errorf("ranks %v: the conversation's notes should rank with the end state", ranks)
	}
	res, err := Compile(s, Options{Budget: 2000, Counter: testCounter(t)})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Current work (from the agent's reasoning", "Its last full report before that"} {
		if !strings.Contains(res.Prompt, w) {
			t.Errorf("prompt lacks %q:\n%s", w, res.Prompt)
		}
	}
	if strings.Contains(res.Prompt, "`(assistant") {
		t.Errorf("a conversation note was shown as a file:\n%s", res.Prompt)
	}
}

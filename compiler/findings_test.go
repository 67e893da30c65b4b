package compiler

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestFindingsSection: the agent's earlier findings are shown in their own section newest first; the lines
// of the last reports stay under the stop; a finding the last message,
// an open error or a decision already says is not shown again.
func TestFindingsSection(t *testing.T) {
	t.Parallel()
	s := &handoff.Snapshot{
		Goal: "port the parser",
		EndState: &handoff.EndState{
			LastAssistant: "Done. The `printer.go` golden files all match again after the rewrite.",
			KeyLines: []handoff.KeyLine{
				{Text: "`eval.go` builds", Score: 4, Source: handoff.MessageRef{Index: 40}},
			},
			Findings: []handoff.KeyLine{
				{Text: "Added `lexer.go` with 40 token kinds", Score: 5, Source: handoff.MessageRef{Index: 10}},
				{Text: "✅ `scanner.go` verified against 12 golden files", Score: 5, Source: handoff.MessageRef{Index: 20}},
				{Text: "The `printer.go` golden files all match again after the rewrite", Score: 4, Source: handoff.MessageRef{Index: 30}},
				{Text: "Chose the Pratt parser for `expr.go` over recursive descent", Score: 4, Source: handoff.MessageRef{Index: 25}},
			},
		},
		Decisions: []handoff.Decision{{ID: "d1", Description: "Chose the Pratt parser for `expr.go` over recursive descent"}},
	}
	b := &builder{}
	b.keyLines(s.EndState.KeyLines)
	b.findings(s)
	var stop, found []string
	for _, p := range b.pieces {
		switch p.sec {
		case secStop:
			stop = append(stop, p.text)
		case secFindings:
			found = append(found, p.text)
			if p.rank < rankFindings {
				t.Errorf("finding %q ranks %d, before rankFindings %d", p.text, p.rank, rankFindings)
			}
		}
	}
	if got := strings.Join(stop, "\n"); !strings.Contains(got, "eval.go") || strings.Contains(got, "lexer.go") {
		t.Errorf("key lines under the stop = %q, want the last report's line only", got)
	}
	want := []string{"scanner.go", "lexer.go"} // newest first; printer.go and expr.go are shown elsewhere
	if len(found) != len(want) {
		t.Fatalf("findings = %q, want %d lines naming %q", found, len(want), want)
	}
	for i, w := range want {
		if !strings.Contains(found[i], w) {
			t.Errorf("finding %d = %q, want it to name %q", i, found[i], w)
		}
	}
	res, err := Compile(s, Options{Budget: 2000, Counter: testCounter(t)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Prompt, "## Earlier findings (newest first)") {
		t.Errorf("prompt lacks the findings section:\n%s", res.Prompt)
	}
}

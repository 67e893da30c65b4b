package compiler

import (
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
)

// Ranks of the earlier findings: after the end state, the goal, the
// constraints, the open errors and the first five key lines of the last
// reports (fresher than any finding), with the first done tasks, and well
// before the recent conversation, whose turns carry less per token. At
// rank 22 they gained 0.005 at 1000 but pushed a last report's key line
// and, at 500, a must-have done task out.
const (
	rankFindings       = 30 // + stride findingsStride
	findingsStride     = 3
	findingText        = 170
	findingShingle     = 5 // words in a run that counts as already shown
	findingShownShares = 2 // a finding is shown when 1/2 of its runs are
)

// findings adds the agent's earlier findings — key lines of reports
// before its last few — newest first, leaving out those the prompt
// already shows in the last message, the last report, the key lines, the
// open errors or the decisions.
func (b *builder) findings(s *handoff.Snapshot) {
	e := s.EndState
	if e == nil {
		return
	}
	last, earlier := e.KeyLines, slices.Clone(e.Findings)
	if len(earlier) == 0 {
		return
	}
	shown := []string{e.LastAssistant, e.Report}
	for _, k := range last {
		shown = append(shown, k.Text)
	}
	for _, er := range s.Errors {
		shown = append(shown, er.Message)
	}
	for _, d := range s.CurrentDecisions() {
		shown = append(shown, d.Description)
	}
	runs := shingles(strings.Join(shown, "\n"))
	slices.SortStableFunc(earlier, func(x, y handoff.KeyLine) int { return y.Source.Index - x.Source.Index })
	n := 0
	for _, k := range earlier {
		if alreadyShown(k.Text, runs) {
			continue
		}
		b.add(secFindings, rankFindings+findingsStride*n, "earlier findings", "- "+quoted(k.Text, findingText))
		n++
	}
}

// shingles are the runs of findingShingle words of text, lower-cased.
func shingles(text string) map[string]bool {
	w := strings.Fields(strings.ToLower(text))
	out := map[string]bool{}
	for i := 0; i+findingShingle <= len(w); i++ {
		out[strings.Join(w[i:i+findingShingle], " ")] = true
	}
	return out
}

// alreadyShown reports whether at least 1/findingShownShares of a line's
// word runs occur in runs; a line too short to have a run is never shown.
func alreadyShown(line string, runs map[string]bool) bool {
	own := shingles(line)
	if len(own) == 0 {
		return false
	}
	hit := 0
	for r := range own {
		if runs[r] {
			hit++
		}
	}
	return hit*findingShownShares >= len(own)
}

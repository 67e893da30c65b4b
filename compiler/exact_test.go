package compiler

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/prompts"
)

// fitted runs fit on s at budget and returns the compilation, so a test
// can look at what was chosen.
func fitted(t *testing.T, s *handoff.Snapshot, counter TokenCounter, budget int) (*compilation, *Result) {
	t.Helper()
	tmpl, err := prompts.Parse("resume", prompts.ResumeTemplate())
	if err != nil {
		t.Fatal(err)
	}
	c := &compilation{snap: s, tmpl: tmpl, counter: modelNeutral{counter}, budget: budget}
	c.pieces = buildPieces(s, DefaultShowCommand)
	if budget <= shortHeadBudget {
		shortenHead(c.pieces, s)
	}
	res, err := c.fit()
	if err != nil {
		t.Fatal(err)
	}
	return c, res
}

// TestNoSmallPieceLeftOut checks the exact pass: after fit, the most
// important piece still left out whose estimated cost fits in the tokens
// left does not fit when rendered (else the pass would have taken it).
// The top-up alone left such pieces out (its room halves on an overshoot).
func TestNoSmallPieceLeftOut(t *testing.T) {
	t.Parallel()
	counters := map[string]TokenCounter{"o200k": testCounter(t), "bytes": byteCounter{}}
	for cname, counter := range counters {
		for budget := 300; budget <= 1300; budget += 41 {
			t.Run(fmt.Sprintf("%s/%d", cname, budget), func(t *testing.T) {
				c, res := fitted(t, crowdedSnapshot(), counter, budget)
				if res.Truncated || c.chosen == nil {
					return
				}
				n := c.counter.Count(res.Prompt)
				for _, i := range c.importance() {
					cost, replaced, ok := c.addCost(c.chosen, i)
					if !ok || cost > budget-n {
						continue
					}
					trial := slices.Clone(c.chosen)
					if replaced >= 0 {
						trial[replaced] = false
					}
					trial[i] = true
					_, n2, err := c.render2(trial)
					if err != nil {
						t.Fatal(err)
					}
					if n2 <= budget {
						t.Errorf("piece %q (rank %d) fits (%d of %d tokens) but was left out at %d", firstWords(c.pieces[i].text, 8), c.pieces[i].rank, n2, budget, n)
					}
					return // only the first candidate is certain to have been tried
				}
			})
		}
	}
}

// crowdedSnapshot is rateLimitSnapshot with more of the person's
// constraints and messages, of varied lengths, than any budget tried
// shows: small pieces compete with big ones for the last tokens.
func crowdedSnapshot() *handoff.Snapshot {
	s := rateLimitSnapshot()
	for i := range 30 {
		s.Constraints = append(s.Constraints, handoff.Constraint{Text: fmt.Sprintf("rule %d: keep module %d %s", i, i, strings.Repeat("as it is ", i%7))})
		s.Requests = append(s.Requests, handoff.Request{Text: fmt.Sprintf("message %d about part %d: %s", i, i, strings.Repeat("check the limiter again ", 1+i%11)),
			Source: handoff.MessageRef{Index: 100 + 2*i}})
	}
	return s
}

// TestAddCost covers the estimate the exact pass filters on: a heading
// for a section not yet shown, a longer variant replacing its shorter
// one, and no cost for what is chosen or already shown longer.
func TestAddCost(t *testing.T) {
	t.Parallel()
	c := &compilation{pieces: []piece{
		{sec: secNext, tokens: 10},                       // 0
		{sec: secConstraints, tokens: 7},                 // 1
		{sec: secConstraints, tokens: 9},                 // 2
		{sec: secStop, tokens: 20, group: 1, level: 0},   // 3
		{sec: secStop, tokens: 50, group: 1, level: 1},   // 4
		{sec: secStop, tokens: 90, group: 1, level: 2},   // 5
		{sec: secRecent, tokens: 30, group: 2, level: 0}, // 6
	}}
	c.heads[secConstraints], c.heads[secRecent] = 8, 11
	tests := []struct {
		name      string
		chosen    []int
		i         int
		cost, rep int
		ok        bool
	}{
		{"new section pays its heading", []int{0}, 1, 7 + 8, -1, true},
		{"open section does not", []int{0, 1}, 2, 9, -1, true},
		{"chosen piece", []int{0, 1}, 1, 0, -1, false},
		{"longer variant replaces the shorter", []int{0, 3}, 4, 30, 3, true},
		{"shorter variant of a longer one shown", []int{0, 4}, 3, 0, -1, false},
		{"variant with nothing of its group shown", []int{0}, 6, 30 + 11, -1, true},
	}
	for _, tt := range tests {
		chosen := make([]bool, len(c.pieces))
		for _, j := range tt.chosen {
			chosen[j] = true
		}
		cost, rep, ok := c.addCost(chosen, tt.i)
		if cost != tt.cost || rep != tt.rep || ok != tt.ok {
			t.Errorf("%s: addCost = %d, %d, %v; want %d, %d, %v", tt.name, cost, rep, ok, tt.cost, tt.rep, tt.ok)
		}
	}
}

// TestCountHeadings checks that opening a section is priced at what its
// heading really adds: a longer title costs more, and every section that
// can hold pieces has a price.
func TestCountHeadings(t *testing.T) {
	t.Parallel()
	c := &compilation{counter: byteCounter{}}
	c.countHeadings()
	for sec := secStop; sec < numSections; sec++ {
		want := len("\n## " + sectionInfo[sec].title + "\n\n")
		if c.heads[sec] != want {
			t.Errorf("heading of %s costs %d, want %d", sectionInfo[sec].key, c.heads[sec], want)
		}
	}
	if c.heads[secRecent] <= c.heads[secGit] {
		t.Errorf("the Recent conversation heading (%d) should cost more than Git's (%d)", c.heads[secRecent], c.heads[secGit])
	}
}

package compiler

import (
	"slices"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestLatestRequestAtSmallBudget: at or below smallBudget a long latest
// request comes first at smallRequestText runes, its usual short form
// ranked rankLatestSmall; above it, and for a short request or a pasted
// log, the variants are as before.
func TestLatestRequestAtSmallBudget(t *testing.T) {
	long := "/create-checkpoint — the command's prompt: Create a git checkpoint with the session status for crash recovery. " +
		strings.Repeat("Write the current timestamp, a summary of the work in hand and a list of the open tasks. ", 4)
	tests := []struct {
		name      string
		latest    string
		budget    int
		wantRanks []int
	}{
		{"long, small budget", long, 500, []int{rankLatestShort, rankLatestSmall, rankLatestFull}},
		{"long, at smallBudget", long, smallBudget, []int{rankLatestShort, rankLatestSmall, rankLatestFull}},
		{"long, larger budget", long, 1000, []int{rankLatestShort, rankLatestFull}},
		{"short request, small budget", "Record the plan in the doc.", 500, []int{rankLatestShort}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &handoff.Snapshot{Goal: "Plan the work.", LatestRequest: tc.latest}
			var ranks []int
			var first string
			for _, p := range buildPiecesFor(s, DefaultShowCommand, tc.budget) {
				if p.kind == "latest request" {
					ranks = append(ranks, p.rank)
					if first == "" {
						first = p.text
					}
				}
			}
			if !slices.Equal(ranks, tc.wantRanks) {
				t.Fatalf("ranks %v, want %v", ranks, tc.wantRanks)
			}
			if want := "Latest request:\n" + blockQuote(tc.latest, smallRequestText); len(tc.wantRanks) == 3 && first != want {
				t.Errorf("first variant %q, want %q", first, want)
			}
		})
	}
}

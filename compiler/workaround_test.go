package compiler

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestWorkaroundRanksAboveFixed checks that an error worked around keeps
// its note and ranks between the open errors and the fixed ones, however
// old it is.
func TestWorkaroundRanksAboveFixed(t *testing.T) {
	t.Parallel()
	s := &handoff.Snapshot{Errors: []handoff.ErrorRecord{
		{Command: "pip install pytest", Message: "No matching distribution found for pytest", Resolution: handoff.ResolutionWorkaround,
			ResolutionNotes: "used unittest instead", Source: handoff.MessageRef{Index: 3}},
		{Command: "go build", Message: "undefined: x", Resolution: handoff.ResolutionFixed, Source: handoff.MessageRef{Index: 9}},
		{Command: "make", Message: "missing target", Resolution: handoff.ResolutionUnresolved, Source: handoff.MessageRef{Index: 7}},
	}}
	b := &builder{}
	b.errors(s)
	rank := map[string]int{}
	for _, p := range b.pieces {
		if p.level != 0 {
			continue
		}
		switch {
		case strings.Contains(p.text, "pip install"):
			rank["workaround"] = p.rank
			if !strings.Contains(p.text, "(workaround)") || !strings.Contains(p.text, "used unittest instead") {
				t.Errorf("workaround line lacks its label or note: %q", p.text)
			}
		case strings.Contains(p.text, "go build"):
			rank["fixed"] = p.rank
		case strings.Contains(p.text, "make"):
			rank["open"] = p.rank
		}
	}
	if len(rank) != 3 {
		t.Fatalf("want an open, a worked-around and a fixed error line, got ranks %v", rank)
	}
	if !(rank["open"] < rank["workaround"] && rank["workaround"] < rank["fixed"]) {
		t.Errorf("ranks open %d, workaround %d, fixed %d: want open < workaround < fixed", rank["open"], rank["workaround"], rank["fixed"])
	}
}

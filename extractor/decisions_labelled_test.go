package extractor

import (
	"slices"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/decisions"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

// TestLabelledDecisions: a line of the assistant's that opens with a
// decision label is a decision in whatever words follow, and a line that
// only talks about a label, or sits in a fence, is not.
func TestLabelledDecisions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"bold label and a dash",
			"Recorded.\n\n- **D1** — `SessionData` is the canonical cloud representation.\n- **D2** — CLI pushes it on sync.",
			[]string{"D1: `SessionData` is the canonical cloud representation.", "D2: CLI pushes it on sync."}},
		{"bold label with no separator",
			"- **D6** back-catalog heals by re-sync, no backfill",
			[]string{"D6: back-catalog heals by re-sync, no backfill"}},
		{"a bold title running on",
			"**D10 — Cloud search is gated on the Pro plan.** Eligibility is checked async.",
			[]string{"D10: Cloud search is gated on the Pro plan. Eligibility is checked async."}},
		{"ADR and a bare Decision label",
			"ADR-3: store blobs in object storage\n**Decision:** keep SQLite for the local index",
			[]string{"ADR-3: store blobs in object storage", "keep SQLite for the local index"}},
		{"prose about a label", "- **D9** is now purely machine identity\n- **D5** and D7 stay as they are", nil},
		{"a lower-case d is a name", "d3: the third derivative term", nil},
		{"too short to decide anything", "D2: yes", nil},
		{"in a fence", "```\nD1: drop the table\n```", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := extract(t, sessiontest.NewConvo(t).Say(tc.text).Msgs)
			var got []string
			for _, d := range res.Decisions {
				got = append(got, d.Description)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("decisions = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestLabelledDecisionNewestWording: a register repeated as it grows keeps
// one decision per label, in its newest words, even when the entry was
// changed beyond any near-duplicate test; different labels stay apart.
func TestLabelledDecisionNewestWording(t *testing.T) {
	t.Parallel()
	c := sessiontest.NewConvo(t)
	c.Say("- **D4** — `rawData` is dropped; its write is repurposed.\n- **D5** — a size column marks presence.").
		User("No, rawData has its own consumer now.").
		Say("Updated:\n- **D4** — `rawData` untouched; `SessionData` is additive.")
	res := extract(t, c.Msgs)
	cur := (&handoff.Snapshot{Decisions: res.Decisions}).CurrentDecisions()
	var got []string
	for _, d := range cur {
		got = append(got, d.Description)
	}
	want := []string{"D5: a size column marks presence.", "D4: `rawData` untouched; `SessionData` is additive."}
	if !slices.Equal(got, want) {
		t.Errorf("current decisions = %q, want %q", got, want)
	}
}

// TestDecisionLabelKey: spellings of one label compare equal; a bare
// "Decision" is no label.
func TestDecisionLabelKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"D4": "D4", "ADR-3": "ADR3", "adr 3": "ADR3", "Decision": "", "decision": ""} {
		if got := decisions.Label(in); got != want {
			t.Errorf("decisionLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

package extractor

import (
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

// TestRestatedDecisionListedOnce: a choice said again (near-duplicate
// text, the same opening code span, the same concrete chosen thing) is
// one current decision in its newest words, keeping the older why and
// rejected options; different subjects stay two decisions.
func TestRestatedDecisionListedOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, first, second string
		want                int // current decisions
		why                 string
	}{
		{"near duplicate", "I'll use SQLite instead of Postgres because it needs no server.",
			"I'll use SQLite instead of Postgres because it needs no server!", 1, "it needs no server!"},
		{"same opening span", "`ZSTATE = 3` turns out to be the correct value for synced books.",
			"`ZSTATE = 3`: we decided on it for the cloud filter.", 1, ""},
		{"same chosen code", "I'll use `pgx` instead of `lib/pq` since it supports COPY.",
			"Let's go with `pgx` for the pool.", 1, "it supports COPY"},
		{"different opening spans", "`ZSTATE = 3` turns out to be the correct value for synced books.",
			"`ZSTATE = 5` turns out to be the correct value for series.", 2, ""},
		{"same plain chosen words", "I'll use a map instead of a slice for the index.",
			"I'll use a map instead of a switch for the dispatch table.", 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t)
			c.Say(tc.first).User("ok").Say(tc.second)
			res := extract(t, c.Msgs)
			cur := (&handoff.Snapshot{Decisions: res.Decisions}).CurrentDecisions()
			if len(cur) != tc.want {
				t.Fatalf("current decisions = %+v, want %d", cur, tc.want)
			}
			if tc.want != 1 {
				return
			}
			d := cur[0]
			if d.Description != tc.second || d.Source.Index != 2 {
				t.Errorf("kept %q from message %d, want the newest wording (message 2)", d.Description, d.Source.Index)
			}
			if tc.why != "" && d.Rationale != tc.why {
				t.Errorf("rationale = %q, want %q", d.Rationale, tc.why)
			}
			if d.ID != "d1" {
				t.Errorf("restated decision id = %q, want the first wording's d1", d.ID)
			}
		})
	}
}

// TestRestatedKeepsSupersededLinks: a decision that replaced an older one
// and is then restated still stands for the choice that replaced it, and
// a new decision after it gets a fresh id.
func TestRestatedKeepsSupersededLinks(t *testing.T) {
	t.Parallel()
	c := sessiontest.NewConvo(t)
	c.Say("I decided to use logrus for logging.")
	c.Say("Let's use `slog` instead of logrus, it is in the standard library.")
	c.Say("Let's go with `slog` for the request logger too.")
	c.Say("I've decided to use testify for assertions.")
	ds := extract(t, c.Msgs).Decisions
	ids := map[string]handoff.Decision{}
	for _, d := range ds {
		if _, dup := ids[d.ID]; dup {
			t.Fatalf("duplicate id %s in %+v", d.ID, ds)
		}
		ids[d.ID] = d
	}
	if len(ds) != 3 || ds[0].SupersededBy != "d2" {
		t.Fatalf("decisions = %+v, want logrus superseded by d2 and 3 in all", ds)
	}
	if got := ids["d2"]; got.Source.Index != 2 || len(got.Alternatives) == 0 {
		t.Errorf("d2 = %+v, want the restatement (message 2) keeping 'logrus' as rejected", got)
	}
}

package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	handoff "github.com/handoff-cli/handoff"
)

// TestSessionNumberOfAgreesWithSessionNumbers saves snapshots of a few
// agent sessions and some without one, in a shuffled order with equal
// times among them, and checks that every number a save returned was
// the one SessionNumbers gave the rows stored then, and that a snapshot
// read alone (SessionNumberOf in SQL) has the number its listing (SessionNumbers
// in Go) shows.
func TestSessionNumberOfAgreesWithSessionNumbers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	base := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	type save struct {
		agent string
		at    time.Time
	}
	var saves []save
	for i := range 40 {
		agent := ""
		if i%3 != 0 {
			agent = fmt.Sprintf("id:s%d", i%5)
		}
		saves = append(saves, save{agent, base.Add(time.Duration(i%13) * time.Second)})
	}
	rng := rand.New(rand.NewPCG(9, 9))
	rng.Shuffle(len(saves), func(i, j int) { saves[i], saves[j] = saves[j], saves[i] })
	var rows []SessionRow
	for i, sv := range saves {
		snap := &handoff.Snapshot{WorkflowID: "wf", Trigger: handoff.TriggerManual, CreatedAt: sv.at, Goal: fmt.Sprintf("goal %d", i)}
		if err := s.SaveSnapshot(ctx, snap, WorkflowInfo{Session: sv.agent}); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, SessionRow{ID: snap.ID, WorkflowID: "wf", AgentSession: sv.agent, CreatedAt: sv.at})
		if want := SessionNumbers(rows)[snap.ID]; snap.SessionNumber != want {
			t.Errorf("save %d (%q at %s): session %d, SessionNumbers says %d", i, sv.agent, sv.at.Format(time.TimeOnly), snap.SessionNumber, want)
		}
	}
	list, damaged, err := s.ListSnapshots(ctx, ListFilter{WorkflowID: "wf"})
	if err != nil || len(damaged) != 0 || len(list) != len(saves) {
		t.Fatalf("listed %d of %d: %v %v", len(list), len(saves), err, damaged)
	}
	want := SessionNumbers(rows)
	for _, x := range list {
		snap, err := s.Snapshot(ctx, x.ID)
		if err != nil {
			t.Fatal(err)
		}
		if x.SessionNumber != want[x.ID] || snap.SessionNumber != want[x.ID] {
			t.Errorf("%s: listed as session %d, read alone as %d, SessionNumbers says %d", x.ID, x.SessionNumber, snap.SessionNumber, want[x.ID])
		}
	}
}

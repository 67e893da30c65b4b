package storetest

import (
	"context"
	"testing"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// OldRow is a snapshot as the schema before sessions-mean-sessions stored
// it (every snapshot its own session, numbered in order of storing), with
// the agent session id in its JSON.
type OldRow struct{ Workflow, ID, Session string }

// OldRows and OldSessionCounts are what Options.OpenOld must write: two
// workflows, agent sessions interleaved, rows without an agent session
// id, and a session a resume started beyond the last snapshot (wf_b's
// count 3 over 2 snapshots).
var (
	OldRows = []OldRow{
		{"wf_a", "snap_a1", "A"}, // old session 1
		{"wf_a", "snap_a2", "A"}, // 2: same agent session
		{"wf_b", "snap_b1", ""},  // no agent session id
		{"wf_a", "snap_a3", "B"}, // 3: a new agent session
		{"wf_a", "snap_a4", "A"}, // 4: A again, after B
		{"wf_b", "snap_b2", ""},
		{"wf_a", "snap_a5", ""}, // 5: no id, its own session
	}
	OldSessionCounts = map[string]int{"wf_b": 3}
)

// testMigrated checks a store opened on data written with the old schema
// (OldRows): rows of one workflow sharing an agent session id are one
// session, rows without one a session each, sessions renumbered gap-free
// in order of their first snapshot (the loaded snapshot says so too),
// every snapshot kept, the newest snapshot the last stored, and the agent
// session continuing after the migration.
func testMigrated(t *testing.T, s Store) {
	ctx := context.Background()
	want := map[string]int{"snap_a1": 1, "snap_a2": 1, "snap_a3": 2, "snap_a4": 1, "snap_a5": 3, "snap_b1": 1, "snap_b2": 2}
	for id, n := range want {
		snap, err := s.Snapshot(ctx, id)
		if err != nil {
			t.Fatalf("snapshot %s after migration: %v", id, err)
		}
		if snap.SessionNumber != n {
			t.Errorf("%s: session %d, want %d", id, snap.SessionNumber, n)
		}
	}
	list, _, err := s.ListSnapshots(ctx, store.ListFilter{})
	must(t, err)
	if len(list) != len(OldRows) {
		t.Fatalf("%d snapshots after migration, want %d", len(list), len(OldRows))
	}
	for _, x := range list {
		if x.SessionNumber != want[x.ID] {
			t.Errorf("listed %s: session %d, want %d", x.ID, x.SessionNumber, want[x.ID])
		}
	}
	for wf, n := range map[string]int{"wf_a": 3, "wf_b": 3} {
		w, err := s.Workflow(ctx, wf)
		must(t, err)
		if w.SessionCount != n {
			t.Errorf("%s: session count %d, want %d", wf, w.SessionCount, n)
		}
	}
	latest, err := s.LatestSnapshot(ctx, "wf_a")
	must(t, err)
	if latest.ID != "snap_a5" {
		t.Fatalf("latest of wf_a %s, want snap_a5", latest.ID)
	}
	grown := Snap("wf_a", 99)
	grown.SessionID = "B"
	must(t, s.SaveSnapshot(ctx, grown, store.WorkflowInfo{}))
	if grown.SessionNumber != 2 {
		t.Fatalf("agent session B after migration: session %d, want 2", grown.SessionNumber)
	}
	fresh := Snap("wf_a", 100)
	fresh.SessionID = "C"
	must(t, s.SaveSnapshot(ctx, fresh, store.WorkflowInfo{}))
	if fresh.SessionNumber != 4 {
		t.Fatalf("a new agent session after migration: session %d, want 4", fresh.SessionNumber)
	}
	evs, _, err := s.ListEvents(ctx, "wf_a")
	must(t, err)
	refs := map[string]bool{}
	for _, e := range evs {
		if e.Type == handoff.EventSnapshotCreated {
			refs[e.SnapshotID] = true
		}
	}
	for _, id := range []string{"snap_a1", "snap_a2", "snap_a3", "snap_a4", "snap_a5"} {
		if !refs[id] {
			t.Errorf("the SNAPSHOT_CREATED event of %s was lost", id)
		}
	}
}

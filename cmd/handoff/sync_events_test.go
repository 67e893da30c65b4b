package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/storetest"
)

// testSyncEvents: sync copies a workflow's events (created, snapshots,
// pause, resume) with its snapshots, once: a second sync copies none, and
// a new pause (its snapshot and pause events) is copied by the next one.
func testSyncEvents(t *testing.T, remote string) {
	ctx := context.Background()
	local := filepath.Join(t.TempDir(), "local.db")
	s, err := store.Open(ctx, local, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	noErr(t, s.SaveSnapshot(ctx, storetest.Snap("wf_ev", 1), store.WorkflowInfo{Name: "wf_ev"}))
	paused := storetest.Snap("wf_ev", 2)
	noErr(t, s.PauseSnapshot(ctx, paused, store.WorkflowInfo{}, "end of day"))
	_, err = s.Resume(ctx, "wf_ev", paused.ID, false)
	noErr(t, err)

	for i, want := range []string{"5 events copied", "0 events copied"} {
		r := runCLI(t, local, "", "sync", "--to", remote)
		if r.err != nil || !strings.Contains(r.stderr, want) {
			t.Fatalf("sync %d: %v, stderr %q; want %q", i+1, r.err, r.stderr, want)
		}
	}
	noErr(t, s.PauseSnapshot(ctx, storetest.Snap("wf_ev", 3), store.WorkflowInfo{}, "again"))
	if r := runCLI(t, local, "", "sync", "--to", remote); r.err != nil || !strings.Contains(r.stderr, "2 events copied") {
		t.Fatalf("sync after a new pause: %v, stderr %q", r.err, r.stderr)
	}

	a := &app{getenv: func(string) string { return "" }}
	dst, err := a.openTarget(ctx, remote)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	evs, _, err := dst.ListEvents(ctx, "wf_ev")
	if err != nil {
		t.Fatal(err)
	}
	count := map[handoff.EventType]int{}
	for _, e := range evs {
		count[e.Type]++
		if e.Type == handoff.EventWorkflowResumed && e.SnapshotID != paused.ID {
			t.Errorf("the copied resume refers to %q, want %s", e.SnapshotID, paused.ID)
		}
	}
	if count[handoff.EventWorkflowPaused] != 2 || count[handoff.EventWorkflowResumed] != 1 {
		t.Fatalf("destination events %v, want 2 pauses and 1 resume", count)
	}
}

func TestSyncEventsSQLite(t *testing.T) {
	testSyncEvents(t, filepath.Join(t.TempDir(), "team.db"))
}

func TestSyncEventsPostgres(t *testing.T) {
	testSyncEvents(t, storetest.FreshPostgres(t))
}

package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// SyncStore is what handoff sync needs of a store beside Store.
type SyncStore interface {
	WorkflowStates(ctx context.Context) ([]store.WorkflowState, error)
	MergeWorkflow(ctx context.Context, remote store.WorkflowState, role store.MergeRole) (bool, error)
	MarkSynced(ctx context.Context, states []store.WorkflowState) error
	SnapshotMetas(ctx context.Context) ([]store.SnapshotMeta, error)
	ImportSnapshot(ctx context.Context, snap *handoff.Snapshot, meta store.SnapshotMeta) (bool, error)
}

// testConcurrentClaims: of several resumes of one paused workflow at
// once, exactly one wins; the others are ECLAIMED and change nothing.
func testConcurrentClaims(t *testing.T, s Store) {
	ctx := context.Background()
	snap := Snap("wf_claim", 1)
	must(t, s.PauseSnapshot(ctx, snap, store.WorkflowInfo{}, "handing over"))
	const claimants = 6
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	start := make(chan struct{})
	for range claimants {
		wg.Go(func() {
			<-start
			_, err := s.Resume(ctx, "wf_claim", snap.ID, false)
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch handoff.ErrorCode(err) {
		case "":
			won++
		case handoff.ECLAIMED:
		default:
			t.Fatalf("a concurrent resume failed with %v, want success or ECLAIMED", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d of %d concurrent resumes won, want exactly 1", won, claimants)
	}
	evs, _, err := s.ListEvents(ctx, "wf_claim")
	must(t, err)
	resumed := 0
	for _, e := range evs {
		if e.Type == handoff.EventWorkflowResumed {
			resumed++
		}
	}
	if resumed != 1 {
		t.Fatalf("%d WORKFLOW_RESUMED events, want 1", resumed)
	}
	// Forced, a second claim takes over.
	r, err := s.Resume(ctx, "wf_claim", snap.ID, true)
	must(t, err)
	if r.From != handoff.WorkflowInProgress {
		t.Fatalf("forced resume from %s, want in_progress", r.From)
	}
}

// testSyncPrimitives: what sync builds on. An imported snapshot keeps
// its id, time, agent session and maker, lands in its session by time
// (renumbering the store's own), and is imported once; a merged workflow
// takes a final status over an open one and records why.
func testSyncPrimitives(t *testing.T, s Store) {
	ss, ok := s.(SyncStore)
	if !ok {
		t.Fatal("the store lacks the sync methods")
	}
	ctx := context.Background()
	own := Snap("wf_sync", 10)
	must(t, s.SaveSnapshot(ctx, own, store.WorkflowInfo{Session: "id:late"}))
	states, err := ss.WorkflowStates(ctx)
	must(t, err)
	if len(states) != 1 || states[0].ID != "wf_sync" || states[0].StatusChangedAt != nil {
		t.Fatalf("states = %+v", states)
	}

	early := Snap("wf_sync", 5)
	early.ID = "snap_fromelsewhere"
	early.SessionNumber = 7
	meta := store.SnapshotMeta{ID: early.ID, WorkflowID: "wf_sync", AgentSession: "id:early", Machine: "box", Author: "eve", CreatedAt: early.CreatedAt}
	for round := range 2 {
		stored, err := ss.ImportSnapshot(ctx, early, meta)
		must(t, err)
		if stored != (round == 0) {
			t.Fatalf("import round %d stored=%v", round, stored)
		}
	}
	_, err = ss.ImportSnapshot(ctx, &handoff.Snapshot{ID: "snap_x", WorkflowID: "wf_gone", Trigger: handoff.TriggerManual}, store.SnapshotMeta{ID: "snap_x"})
	code(t, err, handoff.ENOTFOUND)
	got, err := s.Snapshot(ctx, early.ID)
	must(t, err)
	if got.SessionNumber != 1 || !got.CreatedAt.Equal(early.CreatedAt) {
		t.Fatalf("imported snapshot: session %d at %v, want session 1 at %v", got.SessionNumber, got.CreatedAt, early.CreatedAt)
	}
	mine, err := s.Snapshot(ctx, own.ID)
	must(t, err)
	if mine.SessionNumber != 2 {
		t.Fatalf("the store's own session is %d after an earlier one arrived, want 2", mine.SessionNumber)
	}
	metas, err := ss.SnapshotMetas(ctx)
	must(t, err)
	var found bool
	for _, m := range metas {
		if m.ID == early.ID {
			found = m.AgentSession == "id:early" && m.Machine == "box" && m.Author == "eve"
		}
	}
	if !found {
		t.Fatalf("the imported snapshot's meta was not kept: %+v", metas)
	}
	latest, err := s.LatestSnapshot(ctx, "wf_sync")
	must(t, err)
	if latest.ID != own.ID {
		t.Fatalf("latest = %s, want the newest by time %s", latest.ID, own.ID)
	}

	// Paused here at a later time, completed there earlier: final wins.
	must(t, s.SetWorkflowStatus(ctx, "wf_sync", handoff.WorkflowPaused, "here"))
	remote := states[0]
	remote.Status, remote.PauseReason = handoff.WorkflowCompleted, ""
	earlier := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	remote.StatusChangedAt = &earlier
	changed, err := ss.MergeWorkflow(ctx, remote, store.Receiving)
	must(t, err)
	wf, err := s.Workflow(ctx, "wf_sync")
	must(t, err)
	if !changed || wf.Status != handoff.WorkflowCompleted {
		t.Fatalf("after merging a completed copy: changed=%v status %s", changed, wf.Status)
	}
	changed, err = ss.MergeWorkflow(ctx, remote, store.Receiving)
	must(t, err)
	if changed {
		t.Fatal("merging the same state again changed something")
	}
	evs, _, err := s.ListEvents(ctx, "wf_sync")
	must(t, err)
	if last := evs[len(evs)-1]; last.Type != store.EventSyncResolved {
		t.Fatalf("last event %s %q, want %s", last.Type, last.Detail, store.EventSyncResolved)
	}
	// Pulled, a status this store already synced gives way without an
	// event (it was overtaken, with its event, where it was pushed); one
	// that moved here since records the resolution.
	for _, tc := range []struct {
		id     string
		synced bool
		events int
	}{{"wf_pull_synced", true, 0}, {"wf_pull_moved", false, 1}} {
		must(t, s.SaveSnapshot(ctx, Snap(tc.id, 1), store.WorkflowInfo{}))
		must(t, s.SetWorkflowStatus(ctx, tc.id, handoff.WorkflowPaused, "here"))
		if tc.synced {
			states, err := ss.WorkflowStates(ctx)
			must(t, err)
			must(t, ss.MarkSynced(ctx, states))
		}
		later := time.Now().Add(time.Hour)
		pulled := store.WorkflowState{Workflow: handoff.Workflow{ID: tc.id, Status: handoff.WorkflowCompleted, CreatedAt: later, UpdatedAt: later}, StatusChangedAt: &later}
		changed, err := ss.MergeWorkflow(ctx, pulled, store.Pulling)
		must(t, err)
		evs, _, err := s.ListEvents(ctx, tc.id)
		must(t, err)
		n := 0
		for _, e := range evs {
			if e.Type == store.EventSyncResolved {
				n++
			}
		}
		if !changed || n != tc.events {
			t.Errorf("%s: pulled completed over a paused status (synced %v): changed=%v, %d resolution events, want %d", tc.id, tc.synced, changed, n, tc.events)
		}
	}

	// A workflow missing here arrives whole.
	remote.ID, remote.Status = "wf_new", handoff.WorkflowPaused
	changed, err = ss.MergeWorkflow(ctx, remote, store.Receiving)
	must(t, err)
	wf, err = s.Workflow(ctx, "wf_new")
	must(t, err)
	if !changed || wf.Status != handoff.WorkflowPaused {
		t.Fatalf("merged new workflow: %+v", wf)
	}
}

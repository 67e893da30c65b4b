package storetest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// A session of a workflow is one agent session holding one or more
// snapshots (store.WorkflowInfo.Session); a save of unchanged content
// (same Digest as the session's newest snapshot) stores nothing.

// inSession is the save information of agent session key at content digest.
func inSession(key, digest string) store.WorkflowInfo {
	return store.WorkflowInfo{Name: "sessions", Session: key, Digest: digest}
}

// snapshotsOf lists a workflow's snapshots, oldest first.
func snapshotsOf(t *testing.T, s Store, wf string) []store.SnapshotSummary {
	t.Helper()
	list, _, err := s.ListSnapshots(context.Background(), store.ListFilter{WorkflowID: wf})
	must(t, err)
	slices.Reverse(list)
	return list
}

func testSameContentTwice(t *testing.T, s Store) {
	ctx := context.Background()
	first := Snap("wf_s", 1)
	must(t, s.SaveSnapshot(ctx, first, inSession("id:A", "d1")))
	again := Snap("wf_s", 2) // built again: another time, same content
	again.ID = "snap_again"
	must(t, s.SaveSnapshot(ctx, again, inSession("id:A", "d1")))
	if again.ID != first.ID || again.SessionNumber != 1 || !again.CreatedAt.Equal(first.CreatedAt) {
		t.Fatalf("unchanged save returned %s session %d, want the stored %s", again.ID, again.SessionNumber, first.ID)
	}
	if list := snapshotsOf(t, s, "wf_s"); len(list) != 1 {
		t.Fatalf("same content twice stored %d snapshots, want 1", len(list))
	}
	if _, err := s.Snapshot(ctx, "snap_again"); handoff.ErrorCode(err) != handoff.ENOTFOUND {
		t.Fatalf("the unchanged snapshot was stored: %v", err)
	}
	evs, _, err := s.ListEvents(ctx, "wf_s")
	must(t, err)
	if got := eventTypes(evs); !slices.Equal(got, []handoff.EventType{handoff.EventWorkflowCreated, handoff.EventSnapshotCreated}) {
		t.Fatalf("events %v", got)
	}
	// An empty digest never matches: such saves are always stored.
	must(t, s.SaveSnapshot(ctx, Snap("wf_s", 3), inSession("id:A", "")))
	must(t, s.SaveSnapshot(ctx, Snap("wf_s", 4), inSession("id:A", "")))
	if list := snapshotsOf(t, s, "wf_s"); len(list) != 3 {
		t.Fatalf("saves without a digest: %d snapshots, want 3", len(list))
	}
}

func testGrownSession(t *testing.T, s Store) {
	ctx := context.Background()
	a, b := Snap("wf_g", 1), Snap("wf_g", 2)
	must(t, s.SaveSnapshot(ctx, a, inSession("id:A", "d1")))
	must(t, s.SaveSnapshot(ctx, b, inSession("id:A", "d2")))
	if a.ID == b.ID || a.SessionNumber != 1 || b.SessionNumber != 1 {
		t.Fatalf("grown transcript: %s session %d, %s session %d; want two snapshots of session 1", a.ID, a.SessionNumber, b.ID, b.SessionNumber)
	}
	list := snapshotsOf(t, s, "wf_g")
	if len(list) != 2 || list[0].SessionNumber != 1 || list[1].SessionNumber != 1 {
		t.Fatalf("stored %+v", list)
	}
	wf, err := s.Workflow(ctx, "wf_g")
	must(t, err)
	if wf.SessionCount != 1 {
		t.Fatalf("session count %d, want 1", wf.SessionCount)
	}
	// Back to the first content: it is not the session's newest, so it is
	// stored (the transcript was rewritten, e.g. a rewind).
	c := Snap("wf_g", 3)
	must(t, s.SaveSnapshot(ctx, c, inSession("id:A", "d1")))
	if c.ID == a.ID || c.SessionNumber != 1 {
		t.Fatalf("rewound content: %s session %d", c.ID, c.SessionNumber)
	}
	latest, err := s.LatestSnapshot(ctx, "wf_g")
	must(t, err)
	if latest.ID != c.ID {
		t.Fatalf("latest %s, want the newest %s", latest.ID, c.ID)
	}
}

func testAgentSessions(t *testing.T, s Store) {
	ctx := context.Background()
	a := Snap("wf_two", 1)
	must(t, s.SaveSnapshot(ctx, a, inSession("id:A", "a1")))
	b := Snap("wf_two", 2)
	must(t, s.SaveSnapshot(ctx, b, inSession("id:B", "b1")))
	if a.SessionNumber != 1 || b.SessionNumber != 2 {
		t.Fatalf("two agent sessions: %d and %d, want 1 and 2", a.SessionNumber, b.SessionNumber)
	}
	// A grows after B started: still session 1, and the newest snapshot.
	a2 := Snap("wf_two", 3)
	must(t, s.SaveSnapshot(ctx, a2, inSession("id:A", "a2")))
	if a2.SessionNumber != 1 {
		t.Fatalf("agent session A again: session %d, want 1", a2.SessionNumber)
	}
	latest, err := s.LatestSnapshot(ctx, "wf_two")
	must(t, err)
	if latest.ID != a2.ID {
		t.Fatalf("latest %s (session %d), want the newest %s", latest.ID, latest.SessionNumber, a2.ID)
	}
	// The same agent session in another workflow is that workflow's own.
	other := Snap("wf_other", 4)
	must(t, s.SaveSnapshot(ctx, other, inSession("id:B", "b1")))
	if other.SessionNumber != 1 || other.ID == b.ID {
		t.Fatalf("agent session B in another workflow: %s session %d", other.ID, other.SessionNumber)
	}
	// Without a Session, the snapshot's agent session id is the key.
	c1, c2 := Snap("wf_two", 5), Snap("wf_two", 6)
	c1.SessionID, c2.SessionID = "C", "C"
	must(t, s.SaveSnapshot(ctx, c1, store.WorkflowInfo{}))
	must(t, s.SaveSnapshot(ctx, c2, store.WorkflowInfo{}))
	if c1.SessionNumber != 3 || c2.SessionNumber != 3 {
		t.Fatalf("agent session id C: sessions %d, %d, want 3, 3", c1.SessionNumber, c2.SessionNumber)
	}
	wf, err := s.Workflow(ctx, "wf_two")
	must(t, err)
	if wf.SessionCount != 3 {
		t.Fatalf("session count %d, want 3", wf.SessionCount)
	}
	// Overview and records read the newest snapshot.
	ov, _, err := s.Overview(ctx)
	must(t, err)
	for _, o := range ov {
		if o.ID == "wf_two" && (o.Latest == nil || o.Latest.ID != c2.ID) {
			t.Fatalf("overview's latest of wf_two: %+v, want %s", o.Latest, c2.ID)
		}
	}
	decs, _, err := s.Decisions(ctx, store.DecisionFilter{RecordFilter: store.RecordFilter{WorkflowID: "wf_two"}})
	must(t, err)
	if len(decs) != 1 || decs[0].SnapshotID != c2.ID {
		t.Fatalf("decisions in force: %+v, want the one of %s", decs, c2.ID)
	}
}

func testPauseUnchanged(t *testing.T, s Store) {
	ctx := context.Background()
	first := Snap("wf_p", 1)
	must(t, s.SaveSnapshot(ctx, first, inSession("id:A", "d1")))
	for range 2 { // PreCompact, then Stop, Stop on unchanged content
		snap := Snap("wf_p", 2)
		snap.Trigger = handoff.TriggerPause
		must(t, s.PauseSnapshot(ctx, snap, inSession("id:A", "d1"), "stop"))
		if snap.ID != first.ID {
			t.Fatalf("pause of unchanged content stored %s", snap.ID)
		}
	}
	wf, err := s.Workflow(ctx, "wf_p")
	must(t, err)
	if wf.Status != handoff.WorkflowPaused || len(snapshotsOf(t, s, "wf_p")) != 1 {
		t.Fatalf("status %s, %d snapshots; want paused with 1", wf.Status, len(snapshotsOf(t, s, "wf_p")))
	}
	evs, _, err := s.ListEvents(ctx, "wf_p")
	must(t, err)
	paused := 0
	for _, e := range evs {
		if e.Type == handoff.EventWorkflowPaused {
			paused++
			if e.SnapshotID != first.ID {
				t.Fatalf("pause event refers to %q, want %s", e.SnapshotID, first.ID)
			}
		}
	}
	if paused != 1 {
		t.Fatalf("%d WORKFLOW_PAUSED events, want 1 (the second pause of a paused workflow is a no-op)", paused)
	}
}

// testConcurrentSessions: writers save distinct agent sessions into one
// workflow, each session twice grown and once unchanged. Every session is
// one session number, the numbers are 1..n with no gap, and every grown
// snapshot is stored.
func testConcurrentSessions(t *testing.T, s Store, writers, each int) {
	ctx := context.Background()
	each = max(1, each/5)
	var wg sync.WaitGroup
	errs := make(chan error, writers*each*3)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				key := fmt.Sprintf("id:w%d-%d", w, i)
				for _, d := range []string{"d1", "d2", "d2"} {
					snap := Snap("wf_sessions", w*each+i)
					snap.Goal += " at " + d // grown content is other content
					errs <- s.SaveSnapshot(ctx, snap, inSession(key, d))
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		must(t, err)
	}
	list := snapshotsOf(t, s, "wf_sessions")
	n := writers * each
	if len(list) != 2*n {
		t.Fatalf("stored %d snapshots, want %d (two per session)", len(list), 2*n)
	}
	count := map[int]int{}
	for _, x := range list {
		count[x.SessionNumber]++
	}
	for i := 1; i <= n; i++ {
		if count[i] != 2 {
			t.Fatalf("session %d holds %d snapshots, want 2 (sessions %v)", i, count[i], count)
		}
	}
	if len(count) != n {
		t.Fatalf("%d session numbers, want %d", len(count), n)
	}
	wf, err := s.Workflow(ctx, "wf_sessions")
	must(t, err)
	if wf.SessionCount != n {
		t.Fatalf("session count %d, want %d", wf.SessionCount, n)
	}
}

// testCopyEvent: an event copied from another store (sync) is recorded
// once however often it is copied, keeps its time, refers to its snapshot
// only when this store holds it, and needs its workflow.
func testCopyEvent(t *testing.T, s Store) {
	ctx := context.Background()
	snap := Snap("wf_ev", 1)
	must(t, s.SaveSnapshot(ctx, snap, store.WorkflowInfo{}))
	at := base.Add(time.Hour).Add(123456 * time.Nanosecond)
	paused := handoff.Event{WorkflowID: "wf_ev", Type: handoff.EventWorkflowPaused, SnapshotID: snap.ID, Detail: "in_progress -> paused: stop", CreatedAt: at}
	resumed := handoff.Event{WorkflowID: "wf_ev", Type: handoff.EventWorkflowResumed, SnapshotID: "snap_elsewhere", Detail: "paused -> in_progress", CreatedAt: at.Add(time.Minute)}
	for round := range 2 {
		for _, ev := range []handoff.Event{paused, resumed} {
			ok, err := s.CopyEvent(ctx, ev)
			must(t, err)
			if ok != (round == 0) {
				t.Fatalf("round %d: copy %s recorded=%v", round, ev.Type, ok)
			}
		}
	}
	evs, _, err := s.ListEvents(ctx, "wf_ev")
	must(t, err)
	got := map[handoff.EventType][]handoff.Event{}
	for _, e := range evs {
		got[e.Type] = append(got[e.Type], e)
	}
	p, r := got[handoff.EventWorkflowPaused], got[handoff.EventWorkflowResumed]
	if len(p) != 1 || len(r) != 1 {
		t.Fatalf("copied twice: %d paused, %d resumed events; want 1 each", len(p), len(r))
	}
	if p[0].SnapshotID != snap.ID || r[0].SnapshotID != "" || !p[0].CreatedAt.Round(time.Microsecond).Equal(at.Round(time.Microsecond)) {
		t.Fatalf("copied events %+v, %+v", p[0], r[0])
	}
	_, err = s.CopyEvent(ctx, handoff.Event{WorkflowID: "wf_nowhere", Type: handoff.EventWorkflowPaused, CreatedAt: at})
	code(t, err, handoff.ENOTFOUND)
}

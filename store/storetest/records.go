package storetest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// recordsFixture stores two sessions of wf_a and one of wf_b with
// decisions and errors the queries below select from.
func recordsFixture(t *testing.T, s Store) {
	ctx := context.Background()
	a1 := Snap("wf_a", 1)
	a1.Decisions = []handoff.Decision{
		{ID: "d1", Type: handoff.DecisionLibrary, Description: "Use Redis for the limiter", Rationale: "shared state"},
		{ID: "d2", Type: handoff.DecisionApproach, Description: "Token bucket", SupersededBy: "d3"},
		{ID: "d3", Type: handoff.DecisionApproach, Description: "Sliding window", Timestamp: base.Add(-time.Hour)},
	}
	a1.Errors = []handoff.ErrorRecord{
		{ID: "e1", Type: "test_failure", Message: "TestBurst failed", Resolution: handoff.ResolutionUnresolved},
		{ID: "e2", Type: "build_error", Message: "undefined: rate", Resolution: handoff.ResolutionFixed},
	}
	must(t, s.SaveSnapshot(ctx, a1, store.WorkflowInfo{Name: "alpha"}))
	a2 := Snap("wf_a", 2)
	a2.Decisions = append(slices.Clone(a1.Decisions), handoff.Decision{ID: "d4", Type: handoff.DecisionSkip, Description: "Skip the flaky e2e test"})
	a2.Errors = []handoff.ErrorRecord{{ID: "e3", Type: "test_failure", Message: "TestBurst still failing", Resolution: handoff.ResolutionDeferred}}
	must(t, s.SaveSnapshot(ctx, a2, store.WorkflowInfo{}))
	b1 := Snap("wf_b", 3)
	b1.Decisions = []handoff.Decision{{ID: "d1", Type: handoff.DecisionArchitecture, Description: "One binary, REDIS optional"}}
	b1.Errors = nil
	must(t, s.SaveSnapshot(ctx, b1, store.WorkflowInfo{}))
}

func decisionIDs(list []store.StoredDecision) []string {
	var out []string
	for _, d := range list {
		out = append(out, d.WorkflowID+"/"+d.ID)
	}
	return out
}

func testDecisions(t *testing.T, s Store) {
	ctx := context.Background()
	recordsFixture(t, s)
	cases := []struct {
		name string
		f    store.DecisionFilter
		want []string
	}{
		{"in force now", store.DecisionFilter{}, []string{"wf_b/d1", "wf_a/d1", "wf_a/d3", "wf_a/d4"}},
		{"with superseded", store.DecisionFilter{Superseded: true}, []string{"wf_b/d1", "wf_a/d1", "wf_a/d2", "wf_a/d3", "wf_a/d4"}},
		{"history", store.DecisionFilter{RecordFilter: store.RecordFilter{All: true}},
			[]string{"wf_b/d1", "wf_a/d1", "wf_a/d3", "wf_a/d4", "wf_a/d1", "wf_a/d3"}},
		{"one workflow", store.DecisionFilter{RecordFilter: store.RecordFilter{WorkflowID: "wf_b"}}, []string{"wf_b/d1"}},
		{"type", store.DecisionFilter{Type: handoff.DecisionApproach}, []string{"wf_a/d3"}},
		{"grep ignores case", store.DecisionFilter{RecordFilter: store.RecordFilter{Grep: "redis"}}, []string{"wf_b/d1", "wf_a/d1"}},
		{"grep rationale", store.DecisionFilter{RecordFilter: store.RecordFilter{Grep: "SHARED"}}, []string{"wf_a/d1"}},
		// d3's own timestamp is an hour before base: older than base+1s,
		// though its snapshot is newer.
		{"since", store.DecisionFilter{RecordFilter: store.RecordFilter{Since: base.Add(time.Second)}}, []string{"wf_b/d1", "wf_a/d1", "wf_a/d4"}},
		{"limit", store.DecisionFilter{RecordFilter: store.RecordFilter{Limit: 2}}, []string{"wf_b/d1", "wf_a/d1"}},
	}
	for _, tc := range cases {
		list, damaged, err := s.Decisions(ctx, tc.f)
		must(t, err)
		if len(damaged) != 0 {
			t.Errorf("%s: damaged %v", tc.name, damaged)
		}
		if got := decisionIDs(list); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	list, _, err := s.Decisions(ctx, store.DecisionFilter{RecordFilter: store.RecordFilter{WorkflowID: "wf_a"}})
	must(t, err)
	if o := list[0].Origin; o.WorkflowName != "alpha" || o.SessionNumber != 2 || !o.SnapshotTime.Equal(base.Add(2*time.Second)) {
		t.Errorf("origin = %+v", o)
	}
	_, _, err = s.Decisions(ctx, store.DecisionFilter{Type: "vibes"})
	code(t, err, handoff.EINVALID)
	_, _, err = s.Decisions(ctx, store.DecisionFilter{RecordFilter: store.RecordFilter{Limit: -1}})
	code(t, err, handoff.EINVALID)
}

func testErrors(t *testing.T, s Store) {
	ctx := context.Background()
	recordsFixture(t, s)
	cases := []struct {
		name string
		f    store.ErrorFilter
		want []string
	}{
		{"latest", store.ErrorFilter{}, []string{"e3"}},
		{"history", store.ErrorFilter{RecordFilter: store.RecordFilter{All: true}}, []string{"e3", "e1", "e2"}},
		{"unresolved history", store.ErrorFilter{RecordFilter: store.RecordFilter{All: true}, Unresolved: true}, []string{"e3", "e1"}},
		{"type", store.ErrorFilter{RecordFilter: store.RecordFilter{All: true}, Type: "build_error"}, []string{"e2"}},
		{"grep", store.ErrorFilter{RecordFilter: store.RecordFilter{All: true, Grep: "still"}}, []string{"e3"}},
	}
	for _, tc := range cases {
		list, damaged, err := s.Errors(ctx, tc.f)
		must(t, err)
		if len(damaged) != 0 {
			t.Errorf("%s: damaged %v", tc.name, damaged)
		}
		var got []string
		for _, e := range list {
			got = append(got, e.ID)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func testFork(t *testing.T, s Store) {
	ctx := context.Background()
	src := Snap("wf_a", 1)
	must(t, s.SaveSnapshot(ctx, src, store.WorkflowInfo{Name: "demo", Dir: "/src/demo"}))
	cp := *src
	cp.ID, cp.WorkflowID, cp.Goal = "", "wf_fork", "the other approach"
	must(t, s.Fork(ctx, &cp, store.WorkflowInfo{Name: "fork of demo"}, src.ID, "try it"))
	if cp.SessionNumber != 1 || cp.ID == "" || cp.ID == src.ID {
		t.Fatalf("fork = session %d id %q", cp.SessionNumber, cp.ID)
	}
	wf, err := s.Workflow(ctx, "wf_fork")
	must(t, err)
	if wf.Status != handoff.WorkflowPaused || wf.SessionCount != 1 || !strings.Contains(wf.PauseReason, src.ID) {
		t.Fatalf("forked workflow = %+v", wf)
	}
	evs, _, err := s.ListEvents(ctx, "wf_fork")
	must(t, err)
	want := []handoff.EventType{handoff.EventWorkflowCreated, handoff.EventSnapshotCreated, handoff.EventWorkflowForked, handoff.EventWorkflowPaused}
	if got := eventTypes(evs); !slices.Equal(got, want) {
		t.Fatalf("fork events = %v, want %v", got, want)
	}
	again, err := s.Snapshot(ctx, src.ID)
	must(t, err)
	if again.WorkflowID != "wf_a" || again.Goal != src.Goal {
		t.Fatalf("the source changed: %+v", again)
	}
	cp2 := *src
	cp2.ID, cp2.WorkflowID, cp2.Goal = "", "wf_fork", "again"
	code(t, s.Fork(ctx, &cp2, store.WorkflowInfo{}, src.ID, ""), handoff.ECONFLICT)
	list, _, err := s.ListSnapshots(ctx, store.ListFilter{WorkflowID: "wf_fork"})
	must(t, err)
	if len(list) != 1 {
		t.Fatalf("%d snapshots in the fork, want 1", len(list))
	}
}

func testGC(t *testing.T, s Store) {
	ctx := context.Background()
	for _, wf := range []string{"done", "dropped", "failed", "open"} {
		for i := range 2 {
			must(t, s.SaveSnapshot(ctx, Snap(wf, i), store.WorkflowInfo{}))
		}
	}
	must(t, s.SetWorkflowStatus(ctx, "done", handoff.WorkflowCompleted, ""))
	must(t, s.SetWorkflowStatus(ctx, "dropped", handoff.WorkflowCancelled, ""))
	must(t, s.SetWorkflowStatus(ctx, "failed", handoff.WorkflowFailed, ""))
	past, future := time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	none, err := s.GC(ctx, past, false)
	must(t, err)
	if len(none) != 0 {
		t.Fatalf("a cutoff before every update removed %v", none)
	}
	dry, err := s.GC(ctx, future, true)
	must(t, err)
	var ids []string
	for _, c := range dry {
		ids = append(ids, c.ID)
		if c.Snapshots != 2 {
			t.Errorf("%s: %d snapshots, want 2", c.ID, c.Snapshots)
		}
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []string{"done", "dropped"}) {
		t.Fatalf("dry run picks %v, want [done dropped]", ids)
	}
	if _, err := s.LatestSnapshot(ctx, "done"); err != nil {
		t.Fatalf("the dry run removed something: %v", err)
	}
	removed, err := s.GC(ctx, future, false)
	must(t, err)
	if len(removed) != 2 {
		t.Fatalf("removed %v", removed)
	}
	for _, wf := range []string{"done", "dropped"} {
		_, err := s.Workflow(ctx, wf)
		code(t, err, handoff.ENOTFOUND)
		list, _, err := s.ListSnapshots(ctx, store.ListFilter{WorkflowID: wf})
		must(t, err)
		if len(list) != 0 {
			t.Fatalf("%s: %d snapshots left", wf, len(list))
		}
	}
	for _, wf := range []string{"failed", "open"} {
		if _, err := s.LatestSnapshot(ctx, wf); err != nil {
			t.Fatalf("%s lost its latest snapshot: %v", wf, err)
		}
	}
	all, _, err := s.ListEvents(ctx, "")
	must(t, err)
	for _, e := range all {
		if e.WorkflowID == "done" || e.WorkflowID == "dropped" {
			t.Fatalf("event of a removed workflow left: %v", e)
		}
	}
}

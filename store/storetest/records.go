package storetest

import (
	"context"
	"slices"
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

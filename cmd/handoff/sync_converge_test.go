package main

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/storetest"
)

// machine is one laptop of the convergence test: its SQLite file and who
// works on it.
type machine struct {
	name string
	db   string
	who  store.Maker
}

// laptopsAndTeam returns two laptops' fresh SQLite stores, A (ann's) and
// B (bob's), and the URL of a fresh team PostgreSQL store.
func laptopsAndTeam(t *testing.T) (a, b machine, team string) {
	t.Helper()
	dir := t.TempDir()
	team = storetest.FreshPostgres(t)
	a = machine{"A", filepath.Join(dir, "a.db"), store.Maker{Machine: "laptop-a", User: "ann"}}
	b = machine{"B", filepath.Join(dir, "b.db"), store.Maker{Machine: "laptop-b", User: "bob"}}
	return a, b, team
}

// sync runs `handoff sync team` (both ways) on m's store.
func (m machine) sync(t *testing.T, team string) {
	t.Helper()
	if r := runCLI(t, m.db, "", "sync", team); r.err != nil {
		t.Fatalf("%s sync: %v\n%s", m.name, r.err, r.stderr)
	}
}

// noErr fails the test at once on err.
func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// work opens m's store as m's user and runs fn on it.
func (m machine) work(t *testing.T, fn func(s *store.Store)) {
	t.Helper()
	s, err := store.Open(context.Background(), m.db, store.Options{Maker: m.who})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fn(s)
}

// at is a snapshot of workflow wf in agent session key, dated minute
// min of the test's day.
func at(wf, key string, min int) (*handoff.Snapshot, store.WorkflowInfo) {
	snap := storetest.Snap(wf, min)
	snap.CreatedAt = time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC).Add(time.Duration(min) * time.Minute)
	snap.Goal = fmt.Sprintf("%s: %s at minute %d", wf, key, min)
	return snap, store.WorkflowInfo{Name: wf, Dir: "/src/" + wf, Session: "id:" + key, Digest: fmt.Sprint(min)}
}

// storeView is what must agree across stores after sync.
type storeView struct {
	Workflows map[string]string   // id -> status: reason
	Snapshots map[string]string   // id -> workflow/session/agent session/maker
	Latest    map[string]string   // workflow -> latest snapshot id
	Events    map[string][]string // workflow -> sorted "type detail"
}

// view reads target's state as a storeView.
func view(t *testing.T, target string) storeView {
	t.Helper()
	ctx := context.Background()
	a := &app{getenv: func(string) string { return "" }}
	s, err := a.openTarget(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v := storeView{Workflows: map[string]string{}, Snapshots: map[string]string{}, Latest: map[string]string{}, Events: map[string][]string{}}
	wfs, err := s.WorkflowStates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	type latester interface {
		LatestSnapshot(ctx context.Context, workflowID string) (*handoff.Snapshot, error)
	}
	for _, wf := range wfs {
		v.Workflows[wf.ID] = string(wf.Status) + ": " + wf.PauseReason
		latest, err := s.(latester).LatestSnapshot(ctx, wf.ID)
		if err != nil {
			t.Fatal(err)
		}
		v.Latest[wf.ID] = fmt.Sprintf("%s (session %d)", latest.ID, latest.SessionNumber)
	}
	metas, err := s.SnapshotMetas(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range metas {
		snap, err := s.Snapshot(ctx, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		v.Snapshots[m.ID] = fmt.Sprintf("%s/%d/%s/%s@%s", m.WorkflowID, snap.SessionNumber, m.AgentSession, m.Author, m.Machine)
	}
	list, _, err := s.ListSnapshots(ctx, store.ListFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sum := range list {
		if !strings.Contains(v.Snapshots[sum.ID], fmt.Sprintf("/%d/", sum.SessionNumber)) {
			t.Fatalf("%s: snapshot %s listed as session %d, stored as %s", target, sum.ID, sum.SessionNumber, v.Snapshots[sum.ID])
		}
	}
	evs, _, err := s.ListEvents(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		v.Events[e.WorkflowID] = append(v.Events[e.WorkflowID], string(e.Type)+" "+e.Detail)
	}
	for _, l := range v.Events {
		slices.Sort(l)
	}
	return v
}

// testConverge: two laptops and a team store. Each laptop pauses,
// resumes, grows sessions and completes workflows while offline, then
// they sync in the given order (each sync both ways); afterwards every
// store holds the same workflows, statuses, snapshots, session numbers,
// latest snapshot and event log, which records how the conflict was
// resolved.
func testConverge(t *testing.T, order string) {
	ctx := context.Background()
	a, b, team := laptopsAndTeam(t)

	// Shared start: A pauses wf_1 ("leaving office, continue on laptop").
	a.work(t, func(s *store.Store) {
		snap, info := at("wf_1", "s1", 1)
		noErr(t, s.SaveSnapshot(ctx, snap, info))
		snap, info = at("wf_1", "s1", 2)
		noErr(t, s.PauseSnapshot(ctx, snap, info, "leaving office"))
	})
	a.sync(t, team)
	b.sync(t, team)

	// Offline.
	a.work(t, func(s *store.Store) {
		latest, err := s.LatestSnapshot(ctx, "wf_1")
		noErr(t, err)
		_, err = s.Resume(ctx, "wf_1", latest.ID, false)
		noErr(t, err)
		snap, info := at("wf_1", "a2", 10)
		noErr(t, s.SaveSnapshot(ctx, snap, info))
		snap, info = at("wf_1", "a2", 11)
		noErr(t, s.PauseSnapshot(ctx, snap, info, "train arrives"))
		for _, m := range []int{20, 21} {
			snap, info = at("wf_2", "x", m)
			noErr(t, s.SaveSnapshot(ctx, snap, info))
		}
		noErr(t, s.SetWorkflowStatus(ctx, "wf_2", handoff.WorkflowCompleted, "shipped"))
		snap, info = at("wf_4", "p", 30)
		noErr(t, s.PauseSnapshot(ctx, snap, info, "A stops"))
	})
	b.work(t, func(s *store.Store) {
		latest, err := s.LatestSnapshot(ctx, "wf_1")
		noErr(t, err)
		_, err = s.Resume(ctx, "wf_1", latest.ID, false)
		noErr(t, err)
		snap, info := at("wf_1", "b2", 8)
		noErr(t, s.SaveSnapshot(ctx, snap, info))
		noErr(t, s.SetWorkflowStatus(ctx, "wf_1", handoff.WorkflowCompleted, "merged"))
		snap, info = at("wf_3", "y", 15)
		noErr(t, s.PauseSnapshot(ctx, snap, info, "lunch"))
		latest, err = s.LatestSnapshot(ctx, "wf_3")
		noErr(t, err)
		_, err = s.Resume(ctx, "wf_3", latest.ID, false)
		noErr(t, err)
		snap, info = at("wf_3", "y", 16)
		noErr(t, s.SaveSnapshot(ctx, snap, info))
		snap, info = at("wf_4", "q", 25) // before A's session of wf_4
		noErr(t, s.SaveSnapshot(ctx, snap, info))
	})

	machines := map[byte]machine{'A': a, 'B': b}
	for i := range len(order) {
		machines[order[i]].sync(t, team)
	}
	targets := []string{a.db, b.db, team}
	want := view(t, team)
	for _, target := range targets[:2] {
		got := view(t, target)
		for _, part := range []struct {
			name      string
			got, want any
		}{{"workflows", got.Workflows, want.Workflows}, {"snapshots", got.Snapshots, want.Snapshots}, {"latest", got.Latest, want.Latest}} {
			if !reflect.DeepEqual(part.got, part.want) {
				t.Errorf("after %s, %s's %s differ from the team store's:\n got %v\nwant %v", order, target, part.name, part.got, part.want)
			}
		}
	}
	// The rule: a final status beats an open one (wf_1 completed on B,
	// paused later on A); the later move wins otherwise.
	wantStatus := map[string]string{
		"wf_1": "completed: ", "wf_2": "completed: ", "wf_3": "in_progress: ", "wf_4": "paused: A stops", // B only saved into it: no move
	}
	if !reflect.DeepEqual(want.Workflows, wantStatus) {
		t.Errorf("statuses %v, want %v", want.Workflows, wantStatus)
	}
	// Sessions follow their first snapshot's time everywhere: B's b2
	// (minute 8) is session 2 of wf_1, A's a2 (minute 10) session 3; B's
	// q (minute 25) session 1 of wf_4.
	wantSession := map[string]string{
		"wf_1/id:s1": "1 ann@laptop-a", "wf_1/id:b2": "2 bob@laptop-b", "wf_1/id:a2": "3 ann@laptop-a",
		"wf_2/id:x": "1 ann@laptop-a", "wf_3/id:y": "1 bob@laptop-b", "wf_4/id:q": "1 bob@laptop-b", "wf_4/id:p": "2 ann@laptop-a",
	}
	for id, desc := range want.Snapshots {
		f := strings.Split(desc, "/") // workflow, session, agent session, maker
		if got, w := f[1]+" "+f[3], wantSession[f[0]+"/"+f[2]]; got != w {
			t.Errorf("snapshot %s: session and maker %q, want %q", id, got, w)
		}
	}
	if len(want.Snapshots) != 11 {
		t.Errorf("%d snapshots in the team store, want 11: %v", len(want.Snapshots), want.Snapshots)
	}
	// The same syncs leave every store with every event, the resolution
	// too: no further round is needed.
	evs := want.Events
	for _, target := range targets[:2] {
		if got := view(t, target).Events; !reflect.DeepEqual(got, evs) {
			t.Errorf("after %s, %s's events differ from the team store's:\n got %v\nwant %v", order, target, got, evs)
		}
	}
	resolved := false
	for _, e := range evs["wf_1"] {
		resolved = resolved || (strings.HasPrefix(e, string(store.EventSyncResolved)) && strings.Contains(e, "completed is final"))
	}
	if !resolved {
		t.Errorf("wf_1's event log does not say how the conflict was resolved: %v", evs["wf_1"])
	}
}

// convergingOrders are the orders of syncs, of length 3 and 4 (and one
// of 5), after which every store can hold everything: each machine's
// offline work reaches the other one, that is A then B then A, or B then
// A then B, as a subsequence. Every such order is tested.
func convergingOrders() []string {
	var out []string
	reaches := func(o, pattern string) bool {
		i := 0
		for j := 0; j < len(o) && i < len(pattern); j++ {
			if o[j] == pattern[i] {
				i++
			}
		}
		return i == len(pattern)
	}
	for n := 3; n <= 4; n++ {
		for bits := range 1 << n {
			o := make([]byte, n)
			for i := range o {
				o[i] = "AB"[bits>>i&1]
			}
			if reaches(string(o), "ABA") || reaches(string(o), "BAB") {
				out = append(out, string(o))
			}
		}
	}
	return append(out, "AABBA")
}

func TestSyncConverges(t *testing.T) {
	orders := convergingOrders()
	if testing.Short() {
		orders = []string{"ABA", "BAB"}
	}
	for _, order := range orders {
		t.Run(order, func(t *testing.T) { testConverge(t, order) })
	}
}

// TestSyncConvergesAfterMissedMoves: a laptop that left a workflow in
// progress and synced catches up, in one sync, on two status moves made
// and synced on the other laptop (paused, then completed): every store
// then holds the same event log, since the catching-up store records no
// resolution of its own (its status was already on the team store, and
// was overtaken, with an event, there).
func TestSyncConvergesAfterMissedMoves(t *testing.T) {
	ctx := context.Background()
	a, b, team := laptopsAndTeam(t)
	a.work(t, func(s *store.Store) {
		snap, info := at("wf_1", "s1", 1)
		noErr(t, s.PauseSnapshot(ctx, snap, info, "lunch"))
		_, err := s.Resume(ctx, "wf_1", snap.ID, false)
		noErr(t, err)
	})
	a.sync(t, team)
	b.sync(t, team)
	b.work(t, func(s *store.Store) { noErr(t, s.SetWorkflowStatus(ctx, "wf_1", handoff.WorkflowPaused, "review")) })
	b.sync(t, team)
	b.work(t, func(s *store.Store) { noErr(t, s.SetWorkflowStatus(ctx, "wf_1", handoff.WorkflowCompleted, "merged")) })
	b.sync(t, team)
	a.sync(t, team)
	want := view(t, team)
	if want.Workflows["wf_1"] != "completed: " {
		t.Fatalf("team store: wf_1 %q, want completed", want.Workflows["wf_1"])
	}
	for _, target := range []string{a.db, b.db} {
		got := view(t, target)
		if !reflect.DeepEqual(got.Workflows, want.Workflows) || !reflect.DeepEqual(got.Events, want.Events) {
			t.Errorf("%s differs from the team store:\n got %v\n     %v\nwant %v\n     %v", target, got.Workflows, got.Events, want.Workflows, want.Events)
		}
	}
}

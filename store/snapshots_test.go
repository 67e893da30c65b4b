package store

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	handoff "github.com/handoff-cli/handoff"
)

// tickingClock returns a clock that advances by step on every reading,
// starting at start, so rows get distinct, predictable timestamps.
func tickingClock(start time.Time, step time.Duration) func() time.Time {
	var mu sync.Mutex
	next := start
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t := next
		next = next.Add(step)
		return t
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	// A non-UTC clock: stored and read back as the same instant in UTC,
	// to the microsecond (what the PostgreSQL store keeps too, so times
	// copied by sync stay equal).
	clock := time.Date(2025, 6, 1, 12, 0, 0, 123456000, time.FixedZone("CEST", 2*3600))
	s.now = func() time.Time { return clock }

	tests := []struct {
		name string
		snap *handoff.Snapshot
	}{
		{"fully populated", fullSnapshot("wf-full")},
		{"minimal, store fills id, time, version", minimalSnapshot("wf-min")},
		{"created in another zone, stored as UTC", func() *handoff.Snapshot {
			snap := minimalSnapshot("wf-zone")
			snap.CreatedAt = time.Date(2025, 2, 3, 4, 5, 6, 7, time.FixedZone("X", -5*3600))
			return snap
		}()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := *tc.snap
			if err := s.SaveSnapshot(ctx, tc.snap, WorkflowInfo{Name: "name " + tc.snap.WorkflowID, Dir: "/src/x"}); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(tc.snap.ID, "snap_") || tc.snap.SessionNumber != 1 {
				t.Errorf("assigned id %q, session %d; want snap_…, 1", tc.snap.ID, tc.snap.SessionNumber)
			}
			if before.CreatedAt.IsZero() && !tc.snap.CreatedAt.Equal(clock) {
				t.Errorf("CreatedAt = %v, want the clock %v", tc.snap.CreatedAt, clock)
			}
			if !before.CreatedAt.IsZero() && !tc.snap.CreatedAt.Equal(before.CreatedAt) {
				t.Errorf("CreatedAt changed from %v to %v", before.CreatedAt, tc.snap.CreatedAt)
			}
			if tc.snap.CreatedAt.Location() != time.UTC {
				t.Errorf("CreatedAt location = %v, want UTC", tc.snap.CreatedAt.Location())
			}
			if tc.snap.SchemaVersion != handoff.SnapshotSchemaVersion {
				t.Errorf("SchemaVersion = %d", tc.snap.SchemaVersion)
			}

			for _, load := range []struct {
				name string
				get  func() (*handoff.Snapshot, error)
			}{
				{"by id", func() (*handoff.Snapshot, error) { return s.Snapshot(ctx, tc.snap.ID) }},
				{"by prefix", func() (*handoff.Snapshot, error) { return s.Snapshot(ctx, tc.snap.ID[:len(tc.snap.ID)-3]) }},
				{"latest", func() (*handoff.Snapshot, error) { return s.LatestSnapshot(ctx, tc.snap.WorkflowID) }},
			} {
				got, err := load.get()
				if err != nil {
					t.Fatalf("%s: %v", load.name, err)
				}
				if !reflect.DeepEqual(got, tc.snap) {
					t.Errorf("%s: loaded snapshot differs:\n got %+v\nwant %+v", load.name, got, tc.snap)
				}
			}

			wf, err := s.Workflow(ctx, tc.snap.WorkflowID)
			if err != nil {
				t.Fatal(err)
			}
			want := handoff.Workflow{ID: tc.snap.WorkflowID, Name: "name " + tc.snap.WorkflowID, Status: handoff.WorkflowInProgress,
				Dir: "/src/x", SessionCount: 1, CreatedAt: clock.UTC(), UpdatedAt: clock.UTC()}
			if g := tc.snap.GitState; g != nil && g.Available {
				want.StartCommit = g.StartCommit // the first snapshot's start commit starts the workflow
			}
			if !reflect.DeepEqual(*wf, want) {
				t.Errorf("workflow row:\n got %+v\nwant %+v", *wf, want)
			}
		})
	}
}

func TestSaveSnapshotRejects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	taken := minimalSnapshot("wf")
	if err := s.SaveSnapshot(ctx, taken, WorkflowInfo{}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		snap *handoff.Snapshot
		code string
	}{
		{"nil", nil, handoff.EINVALID},
		{"no workflow", &handoff.Snapshot{Trigger: handoff.TriggerPause}, handoff.EINVALID},
		{"bad trigger", &handoff.Snapshot{WorkflowID: "wf", Trigger: "sneeze"}, handoff.EINVALID},
		{"duplicate id", &handoff.Snapshot{ID: taken.ID, WorkflowID: "wf", Trigger: handoff.TriggerPause}, handoff.ECONFLICT},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var before handoff.Snapshot
			if tc.snap != nil {
				before = *tc.snap
			}
			wantCode(t, s.SaveSnapshot(ctx, tc.snap, WorkflowInfo{}), tc.code)
			if tc.snap != nil && !reflect.DeepEqual(*tc.snap, before) {
				t.Errorf("a failed save changed the snapshot: %+v", *tc.snap)
			}
		})
	}
	// Nothing half-written: still one snapshot, one session.
	list, _, err := s.ListSnapshots(ctx, ListFilter{})
	if err != nil || len(list) != 1 {
		t.Fatalf("%d snapshots (%v) after failed saves, want 1", len(list), err)
	}
	wf, err := s.Workflow(ctx, "wf")
	if err != nil || wf.SessionCount != 1 {
		t.Fatalf("session_count after failed saves = %+v (%v), want 1", wf, err)
	}
}

func TestSessionNumbersPerWorkflow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	order := []string{"a", "b", "a", "a", "c", "b", "a"}
	want := []int{1, 1, 2, 3, 1, 2, 4}
	for i, wf := range order {
		snap := minimalSnapshot(wf)
		snap.SessionNumber = 99 // ignored: the store numbers sessions
		if err := s.SaveSnapshot(ctx, snap, WorkflowInfo{}); err != nil {
			t.Fatal(err)
		}
		if snap.SessionNumber != want[i] {
			t.Errorf("save %d on %s: session %d, want %d", i, wf, snap.SessionNumber, want[i])
		}
	}
	wfs, err := s.Workflows(ctx)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, w := range wfs {
		counts[w.ID] = w.SessionCount
	}
	if !reflect.DeepEqual(counts, map[string]int{"a": 4, "b": 2, "c": 1}) {
		t.Errorf("session counts = %v", counts)
	}
}

func TestSnapshotLookup(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	for _, id := range []string{"snap_aaa1", "snap_aaa10", "snap_aab", "snap_b%c", "snap_b_d"} {
		snap := minimalSnapshot("wf")
		snap.ID = id
		if err := s.SaveSnapshot(ctx, snap, WorkflowInfo{}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		query, wantID, code, text string
	}{
		{query: "snap_aab", wantID: "snap_aab"},
		{query: "snap_aaa1", wantID: "snap_aaa1"}, // exact match wins over being a prefix of snap_aaa10
		{query: "snap_aaa10", wantID: "snap_aaa10"},
		{query: "snap_b%", wantID: "snap_b%c"}, // no LIKE wildcards
		{query: "snap_b_", wantID: "snap_b_d"},
		{query: "snap_aa", code: handoff.EINVALID, text: "snap_aaa1, snap_aaa10, snap_aab"},
		{query: "snap_", code: handoff.EINVALID, text: "ambiguous"},
		{query: "snap_z", code: handoff.ENOTFOUND},
		{query: "SNAP_AAB", code: handoff.ENOTFOUND},
		{query: "", code: handoff.EINVALID},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			got, err := s.Snapshot(ctx, tc.query)
			if tc.code != "" {
				wantCode(t, err, tc.code)
				if !strings.Contains(err.Error(), tc.text) {
					t.Errorf("error %q does not say %q", err, tc.text)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.ID != tc.wantID {
				t.Errorf("Snapshot(%q) = %s, want %s", tc.query, got.ID, tc.wantID)
			}
		})
	}
	_, err := s.LatestSnapshot(ctx, "nope")
	wantCode(t, err, handoff.ENOTFOUND)
}

func TestListSnapshots(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	s.now = tickingClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Second)
	var ids []string // in save order
	for i, wf := range []string{"a", "b", "a", "b", "a"} {
		snap := fullSnapshot(wf)
		snap.CreatedAt = time.Time{} // stamped by the clock
		snap.Goal = fmt.Sprintf("goal %d", i)
		if err := s.SaveSnapshot(ctx, snap, WorkflowInfo{}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, snap.ID)
	}
	rev := slices.Clone(ids)
	slices.Reverse(rev)

	tests := []struct {
		name   string
		filter ListFilter
		want   []string
	}{
		{"all", ListFilter{}, rev},
		{"limit", ListFilter{Limit: 2}, rev[:2]},
		{"workflow a", ListFilter{WorkflowID: "a"}, []string{ids[4], ids[2], ids[0]}},
		{"workflow b, limit 1", ListFilter{WorkflowID: "b", Limit: 1}, []string{ids[3]}},
		{"unknown workflow", ListFilter{WorkflowID: "zzz"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			list, damaged, err := s.ListSnapshots(ctx, tc.filter)
			if err != nil || len(damaged) != 0 {
				t.Fatalf("err %v, damaged %v", err, damaged)
			}
			var got []string
			for _, sum := range list {
				got = append(got, sum.ID)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("ids = %v, want %v", got, tc.want)
			}
		})
	}

	list, _, _ := s.ListSnapshots(ctx, ListFilter{Limit: 1})
	want := SnapshotSummary{ID: ids[4], WorkflowID: "a", SessionNumber: 3, Trigger: handoff.TriggerExhaustion,
		CreatedAt: list[0].CreatedAt, Goal: "goal 4", Utilization: 0.85, Decisions: 1, OpenErrors: 2, Machine: s.origin.Machine, User: s.origin.User}
	if !reflect.DeepEqual(list[0], want) {
		t.Errorf("summary:\n got %+v\nwant %+v", list[0], want)
	}
	if snap, _ := s.Snapshot(ctx, ids[4]); !list[0].CreatedAt.Equal(snap.CreatedAt) {
		t.Errorf("summary time %v, snapshot time %v", list[0].CreatedAt, snap.CreatedAt)
	}
	_, _, err := s.ListSnapshots(ctx, ListFilter{Limit: -1})
	wantCode(t, err, handoff.EINVALID)
}

func TestDamagedSnapshotRow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	var ids []string
	for range 4 {
		snap := minimalSnapshot("wf")
		if err := s.SaveSnapshot(ctx, snap, WorkflowInfo{}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, snap.ID)
	}
	// Damage comes from outside handoff: drop the immutability trigger the
	// way another program writing to the file could.
	mustExec(t, s, "DROP TRIGGER session_snapshots_immutable")
	mustExec(t, s, "UPDATE session_snapshots SET snapshot_json = ? WHERE id = ?", `{"id": "`+ids[2]+`", "goal": tru`, ids[2])
	mustExec(t, s, "UPDATE session_snapshots SET snapshot_json = ? WHERE id = ?", `{"id": "snap_other"}`, ids[0])

	list, damaged, err := s.ListSnapshots(ctx, ListFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sum := range list {
		got = append(got, sum.ID)
	}
	if want := []string{ids[3], ids[1]}; !slices.Equal(got, want) {
		t.Errorf("listed %v, want the undamaged %v", got, want)
	}
	if len(damaged) != 2 {
		t.Fatalf("damaged = %v, want 2 reports", damaged)
	}
	for i, id := range []string{ids[2], ids[0]} {
		wantCode(t, damaged[i], handoff.ECORRUPT)
		if !strings.Contains(damaged[i].Error(), id) {
			t.Errorf("report %q does not name %s", damaged[i], id)
		}
	}
	// Limit counts good rows only.
	list, damaged, err = s.ListSnapshots(ctx, ListFilter{Limit: 2})
	if err != nil || len(list) != 2 || len(damaged) != 1 {
		t.Errorf("limit 2: %d listed, %d damaged (%v); want 2, 1", len(list), len(damaged), err)
	}

	_, err = s.Snapshot(ctx, ids[2])
	wantCode(t, err, handoff.ECORRUPT)
	_, err = s.Snapshot(ctx, ids[0])
	wantCode(t, err, handoff.ECORRUPT)
	if _, err := s.LatestSnapshot(ctx, "wf"); err != nil {
		t.Errorf("latest (undamaged) snapshot: %v", err)
	}
}

func TestSetWorkflowStatus(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	if err := s.SaveSnapshot(ctx, minimalSnapshot("wf"), WorkflowInfo{Name: "demo", Dir: "/src/demo"}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		to        handoff.WorkflowStatus
		reason    string
		code      string
		wantEvent handoff.EventType // "" when nothing is recorded
	}{
		{to: handoff.WorkflowPaused, reason: "context at 85%", wantEvent: handoff.EventWorkflowPaused},
		{to: handoff.WorkflowPaused, reason: "again"}, // same state: allowed, no event
		{to: handoff.WorkflowBlocked, code: handoff.ECONFLICT},
		{to: handoff.WorkflowInProgress, wantEvent: handoff.EventWorkflowResumed},
		{to: handoff.WorkflowBlocked, reason: "waiting on review", wantEvent: handoff.EventStatusChanged},
		{to: "sleeping", code: handoff.EINVALID},
		{to: handoff.WorkflowCompleted, code: handoff.ECONFLICT},
		{to: handoff.WorkflowPaused, reason: "weekend", wantEvent: handoff.EventWorkflowPaused},
		{to: handoff.WorkflowCancelled, reason: "dropped", wantEvent: handoff.EventStatusChanged},
		{to: handoff.WorkflowInProgress, code: handoff.ECONFLICT}, // cancelled is terminal
	}
	wantEvents := []handoff.EventType{handoff.EventWorkflowCreated, handoff.EventSnapshotCreated}
	for i, st := range steps {
		before, err := s.Workflow(ctx, "wf")
		if err != nil {
			t.Fatal(err)
		}
		err = s.SetWorkflowStatus(ctx, "wf", st.to, st.reason)
		if st.code != "" {
			wantCode(t, err, st.code)
		} else if err != nil {
			t.Fatalf("step %d -> %s: %v", i, st.to, err)
		}
		after, err := s.Workflow(ctx, "wf")
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case st.code != "" || st.wantEvent == "":
			if !reflect.DeepEqual(after, before) {
				t.Errorf("step %d -> %s changed the workflow: %+v", i, st.to, after)
			}
		case st.to == handoff.WorkflowPaused:
			if after.Status != st.to || after.PausedAt == nil || after.PauseReason != st.reason {
				t.Errorf("step %d: paused workflow = %+v", i, after)
			}
		default:
			if after.Status != st.to || after.PausedAt != nil || after.PauseReason != "" {
				t.Errorf("step %d: workflow = %+v, want %s with no pause", i, after, st.to)
			}
		}
		if st.wantEvent != "" {
			wantEvents = append(wantEvents, st.wantEvent)
		}
	}

	events, err := s.Events(ctx, "wf")
	if err != nil {
		t.Fatal(err)
	}
	var got []handoff.EventType
	for _, e := range events {
		got = append(got, e.Type)
		if e.WorkflowID != "wf" || e.CreatedAt.IsZero() {
			t.Errorf("event %+v", e)
		}
	}
	if !slices.Equal(got, wantEvents) {
		t.Errorf("events = %v, want %v", got, wantEvents)
	}
	if events[1].SnapshotID == "" || events[0].SnapshotID != "" {
		t.Errorf("snapshot ids on events: %q, %q", events[0].SnapshotID, events[1].SnapshotID)
	}
	if !strings.Contains(events[2].Detail, "context at 85%") {
		t.Errorf("pause event detail %q lacks the reason", events[2].Detail)
	}

	wantCode(t, s.SetWorkflowStatus(ctx, "missing", handoff.WorkflowPaused, ""), handoff.ENOTFOUND)
	_, err = s.Workflow(ctx, "missing")
	wantCode(t, err, handoff.ENOTFOUND)
	_, err = s.Events(ctx, "missing")
	wantCode(t, err, handoff.ENOTFOUND)
	all, err := s.Events(ctx, "")
	if err != nil || len(all) != len(events) {
		t.Errorf("all events: %d (%v), want %d", len(all), err, len(events))
	}
}

// checkSessions fails unless workflow wf holds exactly sessions 1..n, its
// session_count is n and it has n SNAPSHOT_CREATED events.
func checkSessions(t *testing.T, s *Store, wf string, n int) {
	t.Helper()
	ctx := context.Background()
	list, damaged, err := s.ListSnapshots(ctx, ListFilter{WorkflowID: wf})
	if err != nil || len(damaged) != 0 {
		t.Fatal(err, damaged)
	}
	nums := make([]int, 0, len(list))
	for _, x := range list {
		nums = append(nums, x.SessionNumber)
	}
	slices.Sort(nums)
	if len(nums) != n {
		t.Fatalf("%d sessions stored, want %d", len(nums), n)
	}
	for i, v := range nums {
		if v != i+1 {
			t.Fatalf("session numbers not contiguous: position %d holds %d", i, v)
		}
	}
	w, err := s.Workflow(ctx, wf)
	if err != nil {
		t.Fatal(err)
	}
	if w.SessionCount != n {
		t.Errorf("session_count = %d, want %d", w.SessionCount, n)
	}
	events, err := s.Events(ctx, wf)
	if err != nil {
		t.Fatal(err)
	}
	saved := 0
	for _, e := range events {
		if e.Type == handoff.EventSnapshotCreated {
			saved++
		}
	}
	if saved != n {
		t.Errorf("%d SNAPSHOT_CREATED events, want %d", saved, n)
	}
}

func TestConcurrentSavers(t *testing.T) {
	t.Parallel()
	const goroutines, each = 8, 25
	ctx := context.Background()
	tests := []struct {
		name     string
		separate bool // one Open per goroutine, as separate hook processes would
	}{
		{"separate handles", true},
		{"one shared handle", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := tempDB(t)
			shared := openTest(t, path)
			var wg sync.WaitGroup
			errs := make(chan error, goroutines*each)
			for g := range goroutines {
				wg.Add(1)
				go func() {
					defer wg.Done()
					s := shared
					if tc.separate {
						var err error
						if s, err = Open(ctx, path, Options{}); err != nil {
							errs <- fmt.Errorf("goroutine %d open: %w", g, err)
							return
						}
						defer s.Close()
					}
					for range each {
						if err := s.SaveSnapshot(ctx, fullSnapshot("shared"), WorkflowInfo{Name: "shared"}); err != nil {
							errs <- fmt.Errorf("goroutine %d save: %w", g, err)
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			checkSessions(t, shared, "shared", goroutines*each)
		})
	}
}

// childEnv names the database a re-executed test binary writes to.
const childEnv = "HANDOFF_STORE_TEST_CHILD_DB"

// childSaves is how many snapshots each child process saves.
const childSaves = 20

// TestMultiProcessChild is the body of one child process of
// TestMultiProcessSavers; run directly it does nothing.
func TestMultiProcessChild(t *testing.T) {
	t.Parallel()
	path := os.Getenv(childEnv)
	if path == "" {
		t.Skip("only runs as a child of TestMultiProcessSavers")
	}
	ctx := context.Background()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("child open: %v", err)
	}
	defer s.Close()
	for i := range childSaves {
		if err := s.SaveSnapshot(ctx, fullSnapshot("multi"), WorkflowInfo{Name: "multi"}); err != nil {
			t.Fatalf("child save %d: %v", i, err)
		}
	}
}

func TestMultiProcessSavers(t *testing.T) {
	t.Parallel()
	if os.Getenv(childEnv) != "" {
		t.Skip("already a child")
	}
	if testing.Short() {
		t.Skip("starts child processes")
	}
	const children = 4
	// The file does not exist yet: the children also race to create it and
	// apply the migrations.
	path := tempDB(t)
	cmds := make([]*exec.Cmd, children)
	outs := make([]*strings.Builder, children)
	for i := range cmds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMultiProcessChild$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), childEnv+"="+path)
		outs[i] = &strings.Builder{}
		cmd.Stdout, cmd.Stderr = outs[i], outs[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i] = cmd
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("child %d: %v\n%s", i, err, outs[i])
		} else if !strings.Contains(outs[i].String(), "--- PASS: TestMultiProcessChild") {
			t.Errorf("child %d did not run its saves:\n%s", i, outs[i])
		}
	}
	checkSessions(t, openTest(t, path), "multi", children*childSaves)
}

// BenchmarkSaveSnapshot measures a full save (workflow upsert, numbering,
// insert, count, event, one commit) against the floor it is built on: one
// bare INSERT of the same JSON in its own BEGIN IMMEDIATE transaction.
func BenchmarkSaveSnapshot(b *testing.B) {
	ctx := context.Background()
	template := fullSnapshot("bench")
	b.Run("baseline=bare-insert", func(b *testing.B) {
		s := openTest(b, tempDB(b))
		if err := s.SaveSnapshot(ctx, minimalSnapshot("bench"), WorkflowInfo{}); err != nil {
			b.Fatal(err)
		}
		body, err := json.Marshal(template)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		n := 1
		for b.Loop() {
			n++
			tx, err := s.db.BeginTxx(ctx, nil)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO session_snapshots (id, workflow_id, session_number, "trigger", schema_version, snapshot_json, created_at)
				VALUES (?, 'bench', ?, 'pause', 1, ?, ?)`, NewID("snap_"), n, string(body), formatTime(time.Now())); err != nil {
				b.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("SaveSnapshot", func(b *testing.B) {
		s := openTest(b, tempDB(b))
		b.ReportAllocs()
		for b.Loop() {
			snap := *template
			if err := s.SaveSnapshot(ctx, &snap, WorkflowInfo{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkListSnapshots(b *testing.B) {
	ctx := context.Background()
	s := openTest(b, tempDB(b))
	for range 200 {
		if err := s.SaveSnapshot(ctx, fullSnapshot("bench"), WorkflowInfo{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		list, _, err := s.ListSnapshots(ctx, ListFilter{Limit: 20})
		if err != nil || len(list) != 20 {
			b.Fatal(len(list), err)
		}
	}
}

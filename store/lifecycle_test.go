package store

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	handoff "github.com/handoff-cli/handoff"
)

// eventTypes returns the types of a workflow's events in order.
func eventTypes(t *testing.T, s *Store, wf string) []handoff.EventType {
	t.Helper()
	events, err := s.Events(context.Background(), wf)
	if err != nil {
		t.Fatal(err)
	}
	var out []handoff.EventType
	for _, e := range events {
		out = append(out, e.Type)
	}
	return out
}

func snapshotCount(t *testing.T, s *Store, wf string) int {
	t.Helper()
	var n int
	if err := s.db.Get(&n, "SELECT count(*) FROM session_snapshots WHERE workflow_id = ?", wf); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestPauseResumeCycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	info := WorkflowInfo{Name: "demo", Dir: "/src/demo"}

	p1 := minimalSnapshot("wf")
	p1.Trigger = handoff.TriggerPause
	p1.GitState = &handoff.GitState{Available: true, Branch: "main", Commit: "c1"}
	if err := s.PauseSnapshot(ctx, p1, info, "end of day"); err != nil {
		t.Fatal(err)
	}
	if p1.SessionNumber != 1 || p1.ID == "" || p1.GitState.StartCommit != "c1" {
		t.Errorf("paused snapshot = session %d id %q start %q", p1.SessionNumber, p1.ID, p1.GitState.StartCommit)
	}
	wf, err := s.Workflow(ctx, "wf")
	if err != nil {
		t.Fatal(err)
	}
	if wf.Status != handoff.WorkflowPaused || wf.PauseReason != "end of day" || wf.SessionCount != 1 || wf.StartCommit != "c1" {
		t.Errorf("after pause: %+v", wf)
	}

	r, err := s.Resume(ctx, "wf", p1.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	if r.From != handoff.WorkflowPaused || r.Session != 2 || r.Workflow.Status != handoff.WorkflowInProgress || r.Workflow.SessionCount != 2 {
		t.Errorf("resume = %+v", r)
	}
	// A second resume is a second claim: refused, unless forced; forced
	// without a snapshot in between it starts no extra session.
	_, err = s.Resume(ctx, "wf", p1.ID, false)
	wantCode(t, err, handoff.ECLAIMED)
	r2, err := s.Resume(ctx, "wf", p1.ID, true)
	if err != nil || r2.Session != 2 || r2.Workflow.SessionCount != 2 || r2.From != handoff.WorkflowInProgress {
		t.Errorf("second resume = %+v, %v", r2, err)
	}

	// The resumed session's pause is session 2 and keeps the start commit.
	p2 := minimalSnapshot("wf")
	p2.Trigger = handoff.TriggerPause
	p2.GitState = &handoff.GitState{Available: true, Branch: "main", Commit: "c2"}
	if err := s.PauseSnapshot(ctx, p2, info, ""); err != nil {
		t.Fatal(err)
	}
	if p2.SessionNumber != 2 || p2.GitState.StartCommit != "c1" {
		t.Errorf("second pause = session %d start %q", p2.SessionNumber, p2.GitState.StartCommit)
	}
	checkSessions(t, s, "wf", 2)

	want := []handoff.EventType{
		handoff.EventWorkflowCreated, handoff.EventSnapshotCreated, handoff.EventWorkflowPaused,
		handoff.EventWorkflowResumed, handoff.EventWorkflowResumed,
		handoff.EventSnapshotCreated, handoff.EventWorkflowPaused,
	}
	if got := eventTypes(t, s, "wf"); !slices.Equal(got, want) {
		t.Errorf("events = %v, want %v", got, want)
	}
	events, _ := s.Events(ctx, "wf")
	if events[2].SnapshotID != p1.ID || events[3].SnapshotID != p1.ID {
		t.Errorf("pause/resume events refer to %q, %q; want %q", events[2].SnapshotID, events[3].SnapshotID, p1.ID)
	}

	// Finished workflows refuse both, atomically: no snapshot is left behind.
	if err := s.SetWorkflowStatus(ctx, "wf", handoff.WorkflowCompleted, "done"); err != nil {
		t.Fatal(err)
	}
	p3 := minimalSnapshot("wf")
	err = s.PauseSnapshot(ctx, p3, info, "")
	wantCode(t, err, handoff.ECONFLICT)
	if p3.ID != "" || p3.SessionNumber != 0 {
		t.Errorf("failed pause changed the snapshot: %+v", p3)
	}
	if n := snapshotCount(t, s, "wf"); n != 2 {
		t.Errorf("%d snapshots after a refused pause, want 2", n)
	}
	_, err = s.Resume(ctx, "wf", p2.ID, true)
	wantCode(t, err, handoff.ECONFLICT)
	_, err = s.Resume(ctx, "missing", p2.ID, false)
	wantCode(t, err, handoff.ENOTFOUND)
}

func TestSnapshotsAreImmutable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	snap := fullSnapshot("wf")
	if err := s.SaveSnapshot(ctx, snap, WorkflowInfo{}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"UPDATE session_snapshots SET snapshot_json = '{}' WHERE id = ?",
		`UPDATE session_snapshots SET "trigger" = 'manual' WHERE id = ?`,
	} {
		_, err := s.db.Exec(q, snap.ID)
		if err == nil || !strings.Contains(err.Error(), "immutable") {
			t.Errorf("%s: err = %v, want the immutability error", q, err)
		}
	}
	got, err := s.Snapshot(ctx, snap.ID)
	if err != nil || got.Goal != snap.Goal || got.Trigger != snap.Trigger {
		t.Errorf("snapshot changed: %+v, %v", got, err)
	}
}

func TestOlderSchemaVersionUpgradedOnRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	if err := s.SaveSnapshot(ctx, minimalSnapshot("wf"), WorkflowInfo{}); err != nil {
		t.Fatal(err)
	}
	// A row as a build before schema_version wrote it: no version, no trigger.
	mustExec(t, s, `INSERT INTO session_snapshots (id, workflow_id, session_number, "trigger", schema_version, snapshot_json, created_at)
		VALUES ('snap_old', 'wf', 2, 'manual', 0, '{"id":"snap_old","workflow_id":"wf","session_number":2,"goal":"legacy"}', '2024-01-01T00:00:00.000000000Z')`)
	// And one from a newer build.
	mustExec(t, s, `INSERT INTO session_snapshots (id, workflow_id, session_number, "trigger", schema_version, snapshot_json, created_at)
		VALUES ('snap_new', 'wf', 3, 'manual', 99, '{"id":"snap_new","schema_version":99}', '2024-01-02T00:00:00.000000000Z')`)
	old, err := s.Snapshot(ctx, "snap_old")
	if err != nil {
		t.Fatal(err)
	}
	if old.SchemaVersion != handoff.SnapshotSchemaVersion || old.Trigger != handoff.TriggerManual || old.Goal != "legacy" {
		t.Errorf("upgraded snapshot = %+v", old)
	}
	_, err = s.Snapshot(ctx, "snap_new")
	wantCode(t, err, handoff.ECONFLICT)
	list, damaged, err := s.ListSnapshots(ctx, ListFilter{})
	if err != nil || len(list) != 2 || len(damaged) != 1 {
		t.Errorf("listing: %d good, %v damaged, %v; want 2 good, 1 reported", len(list), damaged, err)
	}
}

func TestFork(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	src := fullSnapshot("wf")
	if err := s.SaveSnapshot(ctx, src, WorkflowInfo{Name: "demo", Dir: "/src/demo"}); err != nil {
		t.Fatal(err)
	}
	cp := *src
	cp.ID, cp.WorkflowID, cp.NextTaskID = "", "wf_fork", "1"
	if err := s.Fork(ctx, &cp, WorkflowInfo{Name: "fork of demo", Dir: "/src/demo"}, src.ID, "try the other approach"); err != nil {
		t.Fatal(err)
	}
	if cp.SessionNumber != 1 || cp.ID == src.ID || cp.ID == "" {
		t.Errorf("fork = session %d id %q", cp.SessionNumber, cp.ID)
	}
	wf, err := s.Workflow(ctx, "wf_fork")
	if err != nil {
		t.Fatal(err)
	}
	if wf.Status != handoff.WorkflowPaused || wf.SessionCount != 1 || !strings.Contains(wf.PauseReason, src.ID) {
		t.Errorf("forked workflow = %+v", wf)
	}
	events, _ := s.Events(ctx, "wf_fork")
	var forked *handoff.Event
	for i := range events {
		if events[i].Type == handoff.EventWorkflowForked {
			forked = &events[i]
		}
	}
	if forked == nil || !strings.Contains(forked.Detail, src.ID) || !strings.Contains(forked.Detail, "other approach") || forked.SnapshotID != cp.ID {
		t.Errorf("fork event = %+v", forked)
	}
	// The source is untouched.
	again, err := s.Snapshot(ctx, src.ID)
	if err != nil || again.NextTaskID != src.NextTaskID || again.WorkflowID != "wf" {
		t.Errorf("source changed: %+v %v", again, err)
	}
	// Forking into an existing workflow is a conflict.
	cp2 := *src
	cp2.ID, cp2.WorkflowID = "", "wf_fork"
	wantCode(t, s.Fork(ctx, &cp2, WorkflowInfo{}, src.ID, ""), handoff.ECONFLICT)
	if n := snapshotCount(t, s, "wf_fork"); n != 1 {
		t.Errorf("%d snapshots in the fork, want 1", n)
	}
}

func TestGC(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	s.now = tickingClock(base, time.Second)
	// done and dropped are old and finished; failed and open are old but
	// not finished; recent is finished but new.
	for _, wf := range []string{"done", "dropped", "failed", "open", "recent"} {
		for range 2 {
			if err := s.SaveSnapshot(ctx, minimalSnapshot(wf), WorkflowInfo{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for wf, st := range map[string]handoff.WorkflowStatus{"done": handoff.WorkflowCompleted, "dropped": handoff.WorkflowCancelled, "failed": handoff.WorkflowFailed} {
		if err := s.SetWorkflowStatus(ctx, wf, st, ""); err != nil {
			t.Fatal(err)
		}
	}
	s.now = func() time.Time { return base.Add(30 * 24 * time.Hour) }
	if err := s.SetWorkflowStatus(ctx, "recent", handoff.WorkflowCompleted, ""); err != nil {
		t.Fatal(err)
	}
	cutoff := base.Add(7 * 24 * time.Hour)

	dry, err := s.GC(ctx, cutoff, true)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range dry {
		ids = append(ids, c.ID)
		if c.Snapshots != 2 {
			t.Errorf("%s: %d snapshots, want 2", c.ID, c.Snapshots)
		}
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []string{"done", "dropped"}) {
		t.Errorf("dry run picks %v, want [done dropped]", ids)
	}
	if n := snapshotCount(t, s, "done"); n != 2 {
		t.Errorf("dry run removed snapshots: %d left", n)
	}

	removed, err := s.GC(ctx, cutoff, false)
	if err != nil || len(removed) != 2 {
		t.Fatalf("GC removed %v, %v", removed, err)
	}
	for _, wf := range []string{"done", "dropped"} {
		if _, err := s.Workflow(ctx, wf); handoff.ErrorCode(err) != handoff.ENOTFOUND {
			t.Errorf("%s still there: %v", wf, err)
		}
		if n := snapshotCount(t, s, wf); n != 0 {
			t.Errorf("%s: %d snapshots left", wf, n)
		}
	}
	for _, wf := range []string{"failed", "open", "recent"} {
		if _, err := s.LatestSnapshot(ctx, wf); err != nil {
			t.Errorf("%s lost its latest snapshot: %v", wf, err)
		}
	}
	var orphans int
	if err := s.db.Get(&orphans, "SELECT count(*) FROM workflow_events WHERE workflow_id IN ('done', 'dropped')"); err != nil || orphans != 0 {
		t.Errorf("%d events left for removed workflows (%v)", orphans, err)
	}
}

func TestOverviewAndResolve(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	sub := filepath.Join(repo, "pkg", "deep")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(repo, link); err != nil {
		t.Fatal(err)
	}
	s.now = tickingClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Second)
	save := func(wf, dir string, util float64) {
		snap := minimalSnapshot(wf)
		snap.Usage.ContextUtilization = util
		if err := s.SaveSnapshot(ctx, snap, WorkflowInfo{Dir: dir}); err != nil {
			t.Fatal(err)
		}
	}
	save("old-done", repo, 0.1)
	if err := s.SetWorkflowStatus(ctx, "old-done", handoff.WorkflowCompleted, ""); err != nil {
		t.Fatal(err)
	}
	save("repo-open", repo, 0.2)
	save("repo-open", repo, 0.7)
	save("pkg", filepath.Join(repo, "pkg"), 0.3)
	save("newer-done", repo, 0.4)
	if err := s.SetWorkflowStatus(ctx, "newer-done", handoff.WorkflowCompleted, ""); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		dir, want, code string
	}{
		{repo, "repo-open", ""}, // open beats a more recent finished one
		{sub, "pkg", ""},        // nearest directory wins
		{filepath.Join(repo, "pkg"), "pkg", ""},
		{filepath.Join(link, "pkg", "deep"), "pkg", ""}, // through a symlink
		{root, "", handoff.ENOTFOUND},
		{"", "", handoff.EINVALID},
	}
	for _, tt := range tests {
		wf, err := s.ResolveWorkflow(ctx, tt.dir)
		if tt.code != "" {
			wantCode(t, err, tt.code)
			continue
		}
		if err != nil || wf.ID != tt.want {
			t.Errorf("ResolveWorkflow(%s) = %v, %v; want %s", tt.dir, wf, err, tt.want)
		}
	}

	// Overview: every workflow with its latest snapshot; a damaged latest
	// snapshot is reported, not fatal.
	mustExec(t, s, "DROP TRIGGER session_snapshots_immutable")
	mustExec(t, s, "UPDATE session_snapshots SET snapshot_json = 'garbage' WHERE workflow_id = 'pkg'")
	mustExec(t, s, "UPDATE workflows SET session_count = 'many' WHERE id = 'old-done'")
	ov, damaged, err := s.Overview(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(damaged) != 2 {
		t.Errorf("damaged = %v, want 2 reports", damaged)
	}
	got := map[string]WorkflowOverview{}
	for _, o := range ov {
		got[o.ID] = o
	}
	if len(got) != 3 {
		t.Errorf("overview lists %d workflows, want 3 (one unreadable)", len(got))
	}
	if o := got["repo-open"]; o.Latest == nil || o.Latest.SessionNumber != 2 || o.Latest.Utilization != 0.7 || o.SessionCount != 2 {
		t.Errorf("repo-open overview = %+v latest %+v", o, o.Latest)
	}
	if o, ok := got["pkg"]; !ok || o.Latest != nil {
		t.Errorf("pkg overview = %+v, want listed with no latest snapshot", o)
	}
}

// TestBusyRetried holds the write lock for longer than the busy timeout
// but shorter than the retries' backoff: the write must get through on a
// later attempt instead of failing.
func TestBusyRetried(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := tempDB(t)
	holder := openTest(t, path)
	tx, err := holder.db.BeginTxx(ctx, nil) // BEGIN IMMEDIATE: holds the write lock
	if err != nil {
		t.Fatal(err)
	}
	waiter, err := open(ctx, path, Options{}, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer waiter.Close()
	released := make(chan struct{})
	go func() {
		time.Sleep(60 * time.Millisecond)
		tx.Rollback()
		close(released)
	}()
	start := time.Now()
	if err := waiter.SaveSnapshot(ctx, minimalSnapshot("wf"), WorkflowInfo{}); err != nil {
		t.Fatalf("save while the lock is held briefly: %v", err)
	}
	<-released
	if time.Since(start) < 60*time.Millisecond {
		t.Error("the save did not wait for the lock")
	}
	checkSessions(t, waiter, "wf", 1)
}

func TestBackoffBounds(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 20; n++ {
		want := min(retryBaseDelay<<min(n-1, 16), retryMaxDelay)
		for range 50 {
			if d := backoff(n); d < want/2 || d >= want {
				t.Fatalf("backoff(%d) = %v, want in [%v, %v)", n, d, want/2, want)
			}
		}
	}
}

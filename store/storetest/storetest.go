// Package storetest is the conformance suite of handoff's stores: every
// behaviour the CLI and the use cases (package session) rely on, written
// once and run against each backend (SQLite in store, PostgreSQL in
// store/postgres), so the backends cannot drift apart.
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/store"
)

// Store is what the suite exercises: the use cases' interface plus the
// listings the CLI reads.
type Store interface {
	session.Store
	ListSnapshots(ctx context.Context, f store.ListFilter) ([]store.SnapshotSummary, []error, error)
	ListWorkflows(ctx context.Context) ([]handoff.Workflow, []error, error)
	ListEvents(ctx context.Context, workflowID string) ([]handoff.Event, []error, error)
	Overview(ctx context.Context) ([]store.WorkflowOverview, []error, error)
	Decisions(ctx context.Context, f store.DecisionFilter) ([]store.StoredDecision, []error, error)
	Errors(ctx context.Context, f store.ErrorFilter) ([]store.StoredError, []error, error)
	Fork(ctx context.Context, snap *handoff.Snapshot, wf store.WorkflowInfo, sourceID, note string) error
	GC(ctx context.Context, cutoff time.Time, dryRun bool) ([]store.GCCandidate, error)
	CopyEvent(ctx context.Context, ev handoff.Event) (bool, error)
	Close() error
}

// Options tunes Run.
type Options struct {
	// Writers and SavesPerWriter size the concurrency test; zero means
	// 8 writers × 50 saves.
	Writers, SavesPerWriter int
	// OpenOld, when set, returns a store opened on data the backend wrote
	// with its schema from before sessions were agent sessions, holding
	// OldRows (and OldSessionCounts): the migration is checked on it.
	OpenOld func(t *testing.T) Store
}

// Run runs the suite; open must return a new, empty store for each call
// (the suite closes it).
func Run(t *testing.T, open func(t *testing.T) Store, opts Options) {
	if opts.Writers == 0 {
		opts.Writers = 8
	}
	if opts.SavesPerWriter == 0 {
		opts.SavesPerWriter = 50
	}
	fresh := func(t *testing.T) Store {
		s := open(t)
		t.Cleanup(func() { s.Close() })
		return s
	}
	tests := []struct {
		name string
		fn   func(t *testing.T, s Store)
	}{
		{"SaveLoadRoundTrip", testRoundTrip},
		{"SaveRejects", testSaveRejects},
		{"SessionNumbersPerWorkflow", testSessionNumbers},
		{"SnapshotLookup", testLookup},
		{"ListSnapshots", testList},
		{"PauseResumeCycle", testPauseResume},
		{"PauseRefusedStoresNothing", testPauseRefused},
		{"SetWorkflowStatus", testSetStatus},
		{"WorkflowsAndResolve", testWorkflowsResolve},
		{"StartCommit", testStartCommit},
		{"Cache", testCache},
		{"Decisions", testDecisions},
		{"Errors", testErrors},
		{"Fork", testFork},
		{"GC", testGC},
		{"ConcurrentSavers", func(t *testing.T, s Store) { testConcurrent(t, s, opts.Writers, opts.SavesPerWriter) }},
		{"SameContentTwice", testSameContentTwice},
		{"GrownSession", testGrownSession},
		{"AgentSessions", testAgentSessions},
		{"PauseUnchanged", testPauseUnchanged},
		{"CopyEvent", testCopyEvent},
		{"ConcurrentClaims", testConcurrentClaims},
		{"SyncPrimitives", testSyncPrimitives},
		{"OverviewPage", testOverviewPage},
		{"Search", testSearch},
		{"ConcurrentSessions", func(t *testing.T, s Store) { testConcurrentSessions(t, s, opts.Writers, opts.SavesPerWriter) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, fresh(t)) })
	}
	t.Run("MigratedSessions", func(t *testing.T) {
		if opts.OpenOld == nil {
			t.Skip("this backend gives no store with the old schema")
		}
		s := opts.OpenOld(t)
		t.Cleanup(func() { s.Close() })
		testMigrated(t, s)
	})
}

// base is the instant the suite's snapshots are dated from.
var base = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// Snap returns a small valid snapshot of workflow wf, dated base+i s.
func Snap(wf string, i int) *handoff.Snapshot {
	return &handoff.Snapshot{
		WorkflowID: wf,
		Trigger:    handoff.TriggerManual,
		CreatedAt:  base.Add(time.Duration(i) * time.Second),
		Goal:       fmt.Sprintf("goal %s #%d", wf, i),
		Decisions: []handoff.Decision{
			{ID: "d1", Type: handoff.DecisionType("architecture"), Description: fmt.Sprintf("use postgres (%d)", i)},
		},
		Errors: []handoff.ErrorRecord{
			{ID: "e1", Message: "connection refused", Resolution: handoff.Resolution("unresolved")},
		},
	}
}

// code fails t unless err carries want.
func code(t *testing.T, err error, want string) {
	t.Helper()
	if got := handoff.ErrorCode(err); got != want {
		t.Fatalf("error code = %q (%v), want %q", got, err, want)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func testRoundTrip(t *testing.T, s Store) {
	ctx := context.Background()
	snap := Snap("wf_a", 1)
	must(t, s.SaveSnapshot(ctx, snap, store.WorkflowInfo{Name: "alpha", Dir: "/work/a"}))
	if snap.ID == "" || snap.SessionNumber != 1 || snap.SchemaVersion != handoff.SnapshotSchemaVersion {
		t.Fatalf("assigned fields: id %q session %d schema %d", snap.ID, snap.SessionNumber, snap.SchemaVersion)
	}
	got, err := s.Snapshot(ctx, snap.ID)
	must(t, err)
	if !snapshotsEqual(got, snap) {
		t.Fatalf("loaded snapshot differs:\n got %+v\nwant %+v", got, snap)
	}
	latest, err := s.LatestSnapshot(ctx, "wf_a")
	must(t, err)
	if latest.ID != snap.ID {
		t.Fatalf("latest = %s, want %s", latest.ID, snap.ID)
	}
	wf, err := s.Workflow(ctx, "wf_a")
	must(t, err)
	if wf.Name != "alpha" || wf.Dir != "/work/a" || wf.Status != handoff.WorkflowInProgress || wf.SessionCount != 1 {
		t.Fatalf("workflow = %+v", wf)
	}
	evs, _, err := s.ListEvents(ctx, "wf_a")
	must(t, err)
	if got := eventTypes(evs); !slices.Equal(got, []handoff.EventType{handoff.EventWorkflowCreated, handoff.EventSnapshotCreated}) {
		t.Fatalf("events = %v", got)
	}
	if evs[1].SnapshotID != snap.ID {
		t.Fatalf("SNAPSHOT_CREATED refers to %q, want %q", evs[1].SnapshotID, snap.ID)
	}
	// A store-assigned CreatedAt comes back equal too.
	bare := &handoff.Snapshot{WorkflowID: "wf_a", Trigger: handoff.TriggerPause}
	must(t, s.SaveSnapshot(ctx, bare, store.WorkflowInfo{}))
	if bare.CreatedAt.IsZero() || bare.CreatedAt.Location() != time.UTC {
		t.Fatalf("assigned CreatedAt = %v", bare.CreatedAt)
	}
	got, err = s.Snapshot(ctx, bare.ID)
	must(t, err)
	if !got.CreatedAt.Equal(bare.CreatedAt) || got.SessionNumber != 2 {
		t.Fatalf("loaded %v session %d, saved %v session 2", got.CreatedAt, got.SessionNumber, bare.CreatedAt)
	}
}

// snapshotsEqual compares snapshots by their JSON, the stored form.
func snapshotsEqual(a, b *handoff.Snapshot) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

func eventTypes(evs []handoff.Event) []handoff.EventType {
	var out []handoff.EventType
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out
}

func testSaveRejects(t *testing.T, s Store) {
	ctx := context.Background()
	code(t, s.SaveSnapshot(ctx, nil, store.WorkflowInfo{}), handoff.EINVALID)
	code(t, s.SaveSnapshot(ctx, &handoff.Snapshot{Trigger: handoff.TriggerManual}, store.WorkflowInfo{}), handoff.EINVALID)
	bad := Snap("wf_a", 1)
	bad.Trigger = "sideways"
	code(t, s.SaveSnapshot(ctx, bad, store.WorkflowInfo{}), handoff.EINVALID)
	if bad.ID != "" || bad.SessionNumber != 0 {
		t.Fatalf("a refused save changed the snapshot: %+v", bad)
	}
	list, _, err := s.ListSnapshots(ctx, store.ListFilter{})
	must(t, err)
	if len(list) != 0 {
		t.Fatalf("refused saves stored %d snapshots", len(list))
	}
}

func testSessionNumbers(t *testing.T, s Store) {
	ctx := context.Background()
	var a, b []int
	for i := range 5 {
		wf := "wf_a"
		if i%2 == 1 {
			wf = "wf_b"
		}
		snap := Snap(wf, i)
		must(t, s.SaveSnapshot(ctx, snap, store.WorkflowInfo{}))
		if wf == "wf_a" {
			a = append(a, snap.SessionNumber)
		} else {
			b = append(b, snap.SessionNumber)
		}
	}
	if !slices.Equal(a, []int{1, 2, 3}) || !slices.Equal(b, []int{1, 2}) {
		t.Fatalf("session numbers a=%v b=%v", a, b)
	}
}

func testLookup(t *testing.T, s Store) {
	ctx := context.Background()
	for i, id := range []string{"snap_aaa1", "snap_aaa2", "snap_bbb1"} {
		snap := Snap("wf_a", i)
		snap.ID = id
		must(t, s.SaveSnapshot(ctx, snap, store.WorkflowInfo{}))
	}
	got, err := s.Snapshot(ctx, "snap_b")
	must(t, err)
	if got.ID != "snap_bbb1" {
		t.Fatalf("prefix snap_b found %s", got.ID)
	}
	_, err = s.Snapshot(ctx, "snap_aaa")
	code(t, err, handoff.EINVALID)
	_, err = s.Snapshot(ctx, "snap_zzz")
	code(t, err, handoff.ENOTFOUND)
	_, err = s.Snapshot(ctx, "")
	code(t, err, handoff.EINVALID)
	_, err = s.LatestSnapshot(ctx, "wf_none")
	code(t, err, handoff.ENOTFOUND)
	// Snapshot ids are unique across workflows.
	dup := Snap("wf_b", 9)
	dup.ID = "snap_aaa1"
	if err := s.SaveSnapshot(ctx, dup, store.WorkflowInfo{}); err == nil {
		t.Fatal("a second snapshot with a stored id was accepted")
	}
}

func testList(t *testing.T, s Store) {
	ctx := context.Background()
	var ids []string
	for i := range 4 {
		wf := "wf_a"
		if i == 2 {
			wf = "wf_b"
		}
		snap := Snap(wf, i)
		must(t, s.SaveSnapshot(ctx, snap, store.WorkflowInfo{}))
		ids = append(ids, snap.ID)
	}
	list, damaged, err := s.ListSnapshots(ctx, store.ListFilter{})
	must(t, err)
	if len(damaged) != 0 {
		t.Fatalf("damaged: %v", damaged)
	}
	var got []string
	for _, x := range list {
		got = append(got, x.ID)
	}
	if want := []string{ids[3], ids[2], ids[1], ids[0]}; !slices.Equal(got, want) {
		t.Fatalf("order = %v, want newest first %v", got, want)
	}
	first := list[0]
	if first.Goal != "goal wf_a #3" || first.Decisions != 1 || first.OpenErrors != 1 || first.SessionNumber != 3 ||
		first.Trigger != handoff.TriggerManual || !first.CreatedAt.Equal(base.Add(3*time.Second)) {
		t.Fatalf("summary = %+v", first)
	}
	only, _, err := s.ListSnapshots(ctx, store.ListFilter{WorkflowID: "wf_b"})
	must(t, err)
	if len(only) != 1 || only[0].ID != ids[2] {
		t.Fatalf("filtered list = %+v", only)
	}
	two, _, err := s.ListSnapshots(ctx, store.ListFilter{Limit: 2})
	must(t, err)
	if len(two) != 2 {
		t.Fatalf("limit 2 gave %d", len(two))
	}
	_, _, err = s.ListSnapshots(ctx, store.ListFilter{Limit: -1})
	code(t, err, handoff.EINVALID)
	ov, _, err := s.Overview(ctx)
	must(t, err)
	if len(ov) != 2 {
		t.Fatalf("overview has %d workflows, want 2", len(ov))
	}
	for _, o := range ov {
		want := map[string]string{"wf_a": ids[3], "wf_b": ids[2]}[o.ID]
		if o.Latest == nil || o.Latest.ID != want {
			t.Fatalf("overview of %s: latest %+v, want %s", o.ID, o.Latest, want)
		}
	}
}

func testPauseResume(t *testing.T, s Store) {
	ctx := context.Background()
	snap := Snap("wf_a", 1)
	must(t, s.PauseSnapshot(ctx, snap, store.WorkflowInfo{Name: "alpha"}, "lunch"))
	wf, err := s.Workflow(ctx, "wf_a")
	must(t, err)
	if wf.Status != handoff.WorkflowPaused || wf.PauseReason != "lunch" || wf.PausedAt == nil {
		t.Fatalf("after pause: %+v", wf)
	}
	r, err := s.Resume(ctx, "wf_a", snap.ID, false)
	must(t, err)
	if r.From != handoff.WorkflowPaused || r.Session != 2 || r.Workflow.Status != handoff.WorkflowInProgress || r.Workflow.SessionCount != 2 {
		t.Fatalf("resume = %+v", r)
	}
	next := Snap("wf_a", 2)
	must(t, s.SaveSnapshot(ctx, next, store.WorkflowInfo{}))
	if next.SessionNumber != 2 {
		t.Fatalf("the resumed session was numbered %d, want 2", next.SessionNumber)
	}
	wf, err = s.Workflow(ctx, "wf_a")
	must(t, err)
	if wf.SessionCount != 2 {
		t.Fatalf("session count %d after the resumed session's snapshot, want 2", wf.SessionCount)
	}
	evs, _, err := s.ListEvents(ctx, "wf_a")
	must(t, err)
	want := []handoff.EventType{handoff.EventWorkflowCreated, handoff.EventSnapshotCreated, handoff.EventWorkflowPaused,
		handoff.EventWorkflowResumed, handoff.EventSnapshotCreated}
	if got := eventTypes(evs); !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	_, err = s.Resume(ctx, "wf_none", snap.ID, false)
	code(t, err, handoff.ENOTFOUND)
}

func testPauseRefused(t *testing.T, s Store) {
	ctx := context.Background()
	must(t, s.SaveSnapshot(ctx, Snap("wf_a", 1), store.WorkflowInfo{}))
	must(t, s.SetWorkflowStatus(ctx, "wf_a", handoff.WorkflowCompleted, "done"))
	before, _, err := s.ListEvents(ctx, "wf_a")
	must(t, err)
	late := Snap("wf_a", 2)
	code(t, s.PauseSnapshot(ctx, late, store.WorkflowInfo{}, "again"), handoff.ECONFLICT)
	if late.ID != "" {
		t.Fatalf("a refused pause changed the snapshot: id %q", late.ID)
	}
	list, _, err := s.ListSnapshots(ctx, store.ListFilter{WorkflowID: "wf_a"})
	must(t, err)
	if len(list) != 1 {
		t.Fatalf("a refused pause stored a snapshot: %d stored", len(list))
	}
	after, _, err := s.ListEvents(ctx, "wf_a")
	must(t, err)
	if len(after) != len(before) {
		t.Fatalf("a refused pause recorded events: %v", eventTypes(after[len(before):]))
	}
	_, err = s.Resume(ctx, "wf_a", list[0].ID, false)
	code(t, err, handoff.ECONFLICT)
}

func testSetStatus(t *testing.T, s Store) {
	ctx := context.Background()
	code(t, s.SetWorkflowStatus(ctx, "wf_none", handoff.WorkflowPaused, ""), handoff.ENOTFOUND)
	must(t, s.SaveSnapshot(ctx, Snap("wf_a", 1), store.WorkflowInfo{}))
	must(t, s.SetWorkflowStatus(ctx, "wf_a", handoff.WorkflowInProgress, "")) // same status: nothing recorded
	must(t, s.SetWorkflowStatus(ctx, "wf_a", handoff.WorkflowBlocked, "waiting"))
	must(t, s.SetWorkflowStatus(ctx, "wf_a", handoff.WorkflowCancelled, ""))
	code(t, s.SetWorkflowStatus(ctx, "wf_a", handoff.WorkflowInProgress, ""), handoff.ECONFLICT)
	evs, _, err := s.ListEvents(ctx, "wf_a")
	must(t, err)
	want := []handoff.EventType{handoff.EventWorkflowCreated, handoff.EventSnapshotCreated, handoff.EventStatusChanged, handoff.EventStatusChanged}
	if got := eventTypes(evs); !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	_, _, err = s.ListEvents(ctx, "wf_none")
	code(t, err, handoff.ENOTFOUND)
	all, _, err := s.ListEvents(ctx, "")
	must(t, err)
	if len(all) != len(evs) {
		t.Fatalf("all events %d, workflow's %d", len(all), len(evs))
	}
}

func testWorkflowsResolve(t *testing.T, s Store) {
	ctx := context.Background()
	_, err := s.Workflow(ctx, "wf_none")
	code(t, err, handoff.ENOTFOUND)
	root := t.TempDir()
	sub := filepath.Join(root, "pkg", "deep")
	must(t, os.MkdirAll(sub, 0o755))
	must(t, s.SaveSnapshot(ctx, Snap("wf_old", 1), store.WorkflowInfo{Name: "old", Dir: root}))
	must(t, s.SetWorkflowStatus(ctx, "wf_old", handoff.WorkflowCompleted, ""))
	must(t, s.SaveSnapshot(ctx, Snap("wf_root", 2), store.WorkflowInfo{Name: "root", Dir: root}))
	must(t, s.SaveSnapshot(ctx, Snap("wf_pkg", 3), store.WorkflowInfo{Name: "pkg", Dir: filepath.Join(root, "pkg")}))
	wfs, err := s.Workflows(ctx)
	must(t, err)
	if len(wfs) != 3 || wfs[0].ID != "wf_pkg" {
		t.Fatalf("workflows = %v, want 3 with wf_pkg (most recent) first", wfs)
	}
	for dir, want := range map[string]string{sub: "wf_pkg", root: "wf_root", filepath.Join(root, "pkg"): "wf_pkg"} {
		wf, err := s.ResolveWorkflow(ctx, dir)
		must(t, err)
		if wf.ID != want {
			t.Errorf("resolve %s = %s, want %s", dir, wf.ID, want)
		}
	}
	_, err = s.ResolveWorkflow(ctx, t.TempDir())
	code(t, err, handoff.ENOTFOUND)
	_, err = s.ResolveWorkflow(ctx, "")
	code(t, err, handoff.EINVALID)
}

func testStartCommit(t *testing.T, s Store) {
	ctx := context.Background()
	first := Snap("wf_a", 1)
	first.GitState = &handoff.GitState{Available: true, Commit: "c1"}
	must(t, s.SaveSnapshot(ctx, first, store.WorkflowInfo{}))
	second := Snap("wf_a", 2)
	second.GitState = &handoff.GitState{Available: true, Commit: "c2"}
	must(t, s.SaveSnapshot(ctx, second, store.WorkflowInfo{}))
	if first.GitState.StartCommit != "c1" || second.GitState.StartCommit != "c1" {
		t.Fatalf("start commits %q %q, want c1 c1", first.GitState.StartCommit, second.GitState.StartCommit)
	}
	wf, err := s.Workflow(ctx, "wf_a")
	must(t, err)
	if wf.StartCommit != "c1" {
		t.Fatalf("workflow start commit %q", wf.StartCommit)
	}
}

func testCache(t *testing.T, s Store) {
	ctx := context.Background()
	if _, ok, err := s.CacheGet(ctx, "k"); err != nil || ok {
		t.Fatalf("missing key: ok=%v err=%v", ok, err)
	}
	must(t, s.CachePut(ctx, "k", []byte("v1")))
	must(t, s.CachePut(ctx, "k", []byte("v2")))
	v, ok, err := s.CacheGet(ctx, "k")
	if err != nil || !ok || string(v) != "v2" {
		t.Fatalf("get = %q %v %v", v, ok, err)
	}
	must(t, s.CachePut(ctx, "empty", nil))
	if v, ok, err := s.CacheGet(ctx, "empty"); err != nil || !ok || v == nil || len(v) != 0 {
		t.Fatalf("empty value = %v %v %v", v, ok, err)
	}
	// Concurrent read-modify-writes of one key lose no update.
	const workers, each = 4, 10
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for range workers {
		wg.Go(func() {
			for range each {
				errs <- s.CacheUpdate(ctx, "counter", func(old []byte, found bool) ([]byte, error) {
					n := 0
					if found {
						fmt.Sscan(string(old), &n)
					}
					return []byte(fmt.Sprint(n + 1)), nil
				})
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		must(t, err)
	}
	v, _, err = s.CacheGet(ctx, "counter")
	must(t, err)
	if string(v) != fmt.Sprint(workers*each) {
		t.Fatalf("counter = %s, want %d", v, workers*each)
	}
	boom := errors.New("boom")
	if err := s.CacheUpdate(ctx, "counter", func([]byte, bool) ([]byte, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Fatalf("fn's error = %v, want boom", err)
	}
}

// testConcurrent saves from many goroutines into one workflow: every save
// must be stored with session numbers 1..n and no gap or duplicate.
func testConcurrent(t *testing.T, s Store, writers, each int) {
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				errs <- s.SaveSnapshot(ctx, Snap("wf_busy", w*each+i), store.WorkflowInfo{})
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		must(t, err)
	}
	list, _, err := s.ListSnapshots(ctx, store.ListFilter{WorkflowID: "wf_busy"})
	must(t, err)
	n := writers * each
	if len(list) != n {
		t.Fatalf("stored %d snapshots, want %d", len(list), n)
	}
	var nums []int
	for _, x := range list {
		nums = append(nums, x.SessionNumber)
	}
	slices.Sort(nums)
	for i, got := range nums {
		if got != i+1 {
			t.Fatalf("session numbers are not 1..%d: position %d holds %d", n, i, got)
		}
	}
	wf, err := s.Workflow(ctx, "wf_busy")
	must(t, err)
	if wf.SessionCount != n {
		t.Fatalf("session count %d, want %d", wf.SessionCount, n)
	}
}

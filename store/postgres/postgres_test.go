package postgres_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/postgres"
	"github.com/handoff-cli/handoff/store/storetest"
)

// open returns a store on a fresh schema and its URL.
func open(t *testing.T) (*postgres.Store, string) {
	t.Helper()
	u := storetest.FreshPostgres(t)
	s, err := postgres.Open(context.Background(), u, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, u
}

func TestIsURL(t *testing.T) {
	for in, want := range map[string]bool{
		"postgres://h/db": true, "postgresql://u:p@h:5432/db": true,
		"/home/me/handoff.db": false, "postgres.db": false, "": false, "mysql://h/db": false,
	} {
		if got := postgres.IsURL(in); got != want {
			t.Errorf("IsURL(%q) = %v, want %v", in, got, want)
		}
	}
}

// A save retried with the same snapshot (a lost acknowledgement) stores
// it once and answers with the stored one.
func TestRetriedSaveIsIdempotent(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	first := storetest.Snap("wf_a", 1)
	retry := storetest.Snap("wf_a", 1)
	if err := s.SaveSnapshot(ctx, first, store.WorkflowInfo{}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveSnapshot(ctx, retry, store.WorkflowInfo{}); err != nil {
		t.Fatal(err)
	}
	if retry.ID != first.ID || retry.SessionNumber != 1 {
		t.Fatalf("retry stored as %s session %d, want %s session 1", retry.ID, retry.SessionNumber, first.ID)
	}
	other := storetest.Snap("wf_a", 2)
	if err := s.SaveSnapshot(ctx, other, store.WorkflowInfo{}); err != nil {
		t.Fatal(err)
	}
	list, _, err := s.ListSnapshots(ctx, store.ListFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || other.SessionNumber != 2 {
		t.Fatalf("stored %d snapshots (want 2), next session %d (want 2)", len(list), other.SessionNumber)
	}
	evs, err := s.Events(ctx, "wf_a")
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 3 { // created + two snapshots, nothing for the retry
		t.Fatalf("events = %v", evs)
	}
	h1, _ := postgres.ContentHash(first)
	h2, _ := postgres.ContentHash(other)
	if h1 == h2 || len(h1) != 64 {
		t.Fatalf("hashes %q %q", h1, h2)
	}
}

func TestSnapshotsAreImmutable(t *testing.T) {
	s, u := open(t)
	ctx := context.Background()
	snap := storetest.Snap("wf_a", 1)
	if err := s.SaveSnapshot(ctx, snap, store.WorkflowInfo{}); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("pgx", u)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, `UPDATE session_snapshots SET "trigger" = 'pause' WHERE id = $1`, snap.ID)
	if err == nil || !strings.Contains(err.Error(), "immutable") {
		t.Fatalf("update of a stored snapshot: %v, want refused as immutable", err)
	}
}

// Reopening applies nothing twice: every step is recorded once.
func TestMigrationsRecorded(t *testing.T) {
	_, u := open(t)
	s2, err := postgres.Open(context.Background(), u, postgres.Options{})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	s2.Close()
	db, err := sql.Open("pgx", u)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n, max int
	if err := db.QueryRow("SELECT count(*), max(version) FROM handoff_schema_migrations").Scan(&n, &max); err != nil {
		t.Fatal(err)
	}
	if n != max || n < 1 {
		t.Fatalf("%d migration rows up to version %d", n, max)
	}
}

// An unreachable server is one EUNAVAILABLE line naming it, with the
// password redacted; no test server is needed.
func TestUnreachableServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := postgres.Open(ctx, "postgres://me:secret@127.0.0.1:1/handoff?connect_timeout=2", postgres.Options{})
	if handoff.ErrorCode(err) != handoff.EUNAVAILABLE {
		t.Fatalf("code %q: %v", handoff.ErrorCode(err), err)
	}
	msg := err.Error()
	if strings.Contains(msg, "secret") || strings.Contains(msg, "\n") || !strings.Contains(msg, "127.0.0.1") {
		t.Fatalf("message should be one line naming the host without the password: %q", msg)
	}
	_, err = postgres.Open(ctx, "/not/a/url.db", postgres.Options{})
	if handoff.ErrorCode(err) != handoff.EINVALID {
		t.Fatalf("a path: %v", err)
	}
}

// A damaged row does not count against a listing's limit: the next page
// is read to fill it.
func TestListSkipsDamagedAcrossPages(t *testing.T) {
	s, u := open(t)
	ctx := context.Background()
	for i := range 5 {
		if err := s.SaveSnapshot(ctx, storetest.Snap("wf_a", i), store.WorkflowInfo{}); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("pgx", u)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Two newest rows whose JSON is another snapshot's.
	for i, id := range []string{"snap_bad1", "snap_bad2"} {
		if _, err := db.ExecContext(ctx, `INSERT INTO session_snapshots (id, workflow_id, session_number, "trigger", schema_version, snapshot_json, content_hash, created_at)
			VALUES ($1, 'wf_a', $2, 'manual', 1, '{"id": "snap_other"}', $1, now())`, id, 10+i); err != nil {
			t.Fatal(err)
		}
	}
	list, damaged, err := s.ListSnapshots(ctx, store.ListFilter{Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 || len(damaged) != 2 || list[0].Goal != "goal wf_a #4" {
		t.Fatalf("got %d summaries (first %+v) and %d damaged, want 3 from #4 down and 2", len(list), list, len(damaged))
	}
	all, damaged, err := s.ListSnapshots(ctx, store.ListFilter{})
	if err != nil || len(all) != 5 || len(damaged) != 2 {
		t.Fatalf("unlimited: %d, %d damaged, %v", len(all), len(damaged), err)
	}
}

// The stored hash column is the hash of the snapshot as it loads, so sync
// may compare either.
func TestStoredHashMatchesLoaded(t *testing.T) {
	s, _ := open(t)
	ctx := context.Background()
	snaps := []*handoff.Snapshot{storetest.Snap("wf_a", 1), storetest.Snap("wf_a", 2), {WorkflowID: "wf_b", Trigger: handoff.TriggerPause}}
	snaps[1].GitState = &handoff.GitState{Available: true, Commit: "abc"}
	for _, snap := range snaps {
		if err := s.SaveSnapshot(ctx, snap, store.WorkflowInfo{}); err != nil {
			t.Fatal(err)
		}
	}
	hashes, err := s.ContentHashes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(hashes) != len(snaps) {
		t.Fatalf("%d hashes for %d snapshots", len(hashes), len(snaps))
	}
	for _, snap := range snaps {
		loaded, err := s.Snapshot(ctx, snap.ID)
		if err != nil {
			t.Fatal(err)
		}
		want, err := postgres.ContentHash(loaded)
		if err != nil {
			t.Fatal(err)
		}
		if hashes[snap.ID] != want {
			t.Errorf("snapshot %s: stored hash %s, loaded snapshot hashes to %s", snap.ID, hashes[snap.ID], want)
		}
	}
}

package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"testing"
	"time"
)

// storedRecord is one snapshot_records row, every column.
type storedRecord struct {
	SnapshotID string         `db:"snapshot_id"`
	List       string         `db:"list"`
	Index      int            `db:"idx"`
	Type       string         `db:"type"`
	Kind       sql.NullString `db:"kind"`
	State      sql.NullString `db:"state"`
	At         sql.NullString `db:"at"`
	Text       string         `db:"text"`
	Value      string         `db:"value"`
}

const allRecords = `SELECT snapshot_id, list, idx, type, kind, state, at, text, value FROM snapshot_records ORDER BY snapshot_id, list, idx`

// TestMigrateRecordsKeepsEveryRecord opens a file written with schema 6,
// where snapshot_records was a WITHOUT ROWID table: step 0007 rebuilds it
// with every row as it was, and the triggers that fill it still do on a
// save and a delete.
func TestMigrateRecordsKeepsEveryRecord(t *testing.T) {
	ctx := context.Background()
	path, db, exec := schemaAt(t, "v6.db", 6)
	exec(`INSERT INTO workflows (id, name, status, session_count, created_at, updated_at)
		VALUES ('wf', 'wf', 'in_progress', 3, '2025-01-01T00:00:00.000000000Z', '2025-01-01T00:00:00.000000000Z')`)
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, id := range []string{"snap_c", "snap_a", "snap_b"} {
		snap := fullSnapshot("wf")
		snap.ID, snap.SessionNumber, snap.CreatedAt = id, i+1, at.Add(time.Duration(i)*time.Minute)
		snap.Decisions = snap.Decisions[:1+i%2]
		body, err := json.Marshal(snap)
		if err != nil {
			t.Fatal(err)
		}
		exec(`INSERT INTO session_snapshots (id, workflow_id, session_number, "trigger", schema_version, snapshot_json, created_at)
			VALUES (?, 'wf', ?, 'pause', 1, ?, ?)`, id, i+1, string(body), formatTime(snap.CreatedAt))
	}
	exec(`INSERT INTO session_snapshots (id, workflow_id, session_number, "trigger", schema_version, snapshot_json, created_at)
		VALUES ('snap_bad', 'wf', 4, 'pause', 1, '{"id": "snap_bad", "errors": [1, "two"]}', ?)`, formatTime(at.Add(time.Hour)))
	var before []storedRecord
	if err := db.SelectContext(ctx, &before, allRecords); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	s := openTest(t, path)
	var after []storedRecord
	if err := s.db.SelectContext(ctx, &after, allRecords); err != nil {
		t.Fatal(err)
	}
	if len(before) != 15 || !slices.Equal(after, before) {
		t.Fatalf("records after step 0007 (%d) differ from before (%d):\n%+v\n%+v", len(after), len(before), after, before)
	}

	count := func(id string) int {
		t.Helper()
		var n int
		if err := s.db.GetContext(ctx, &n, "SELECT COUNT(*) FROM snapshot_records WHERE snapshot_id = ?", id); err != nil {
			t.Fatal(err)
		}
		return n
	}
	snap := fullSnapshot("wf")
	if err := s.SaveSnapshot(ctx, snap, WorkflowInfo{}); err != nil {
		t.Fatal(err)
	}
	if n := count(snap.ID); n != len(snap.Decisions)+len(snap.Errors) {
		t.Errorf("a save after step 0007 stored %d records, want %d", n, len(snap.Decisions)+len(snap.Errors))
	}
	mustExec(t, s, "DELETE FROM session_snapshots WHERE id = 'snap_c'")
	if n := count("snap_c"); n != 0 {
		t.Errorf("a deleted snapshot left %d records", n)
	}
	ds, _, err := s.Decisions(ctx, DecisionFilter{RecordFilter: RecordFilter{All: true}, Superseded: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		got = append(got, d.SnapshotID+"/"+d.ID)
	}
	want := []string{snap.ID + "/d1", snap.ID + "/d2", "snap_b/d1", "snap_a/d1", "snap_a/d2"}
	if !slices.Equal(got, want) {
		t.Errorf("decisions after step 0007 = %v, want %v", got, want)
	}
}

// TestListNumbersLikeRenumber lists a store whose sessions arrived out of
// order, share times, differ below a microsecond, have no agent session
// or hold a damaged snapshot: the listing of everything, which numbers
// sessions from the rows it reads, agrees with a limited listing, which
// reads them again (Renumber).
func TestListNumbersLikeRenumber(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	at := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		wf, session string
		at          time.Time
	}{
		{"wf_a", "s2", at.Add(time.Minute)},
		{"wf_a", "s1", at},
		{"wf_a", "s1", at.Add(2 * time.Minute)},
		{"wf_a", "", at},
		{"wf_a", "s3", at.Add(400 * time.Nanosecond)},
		{"wf_a", "s0", at.Add(600 * time.Nanosecond)},
		{"wf_b", "", at.Add(time.Second)},
		{"wf_b", "", at.Add(time.Second)},
		{"wf_b", "x", at.Add(time.Second)},
	} {
		snap := minimalSnapshot(c.wf)
		snap.CreatedAt = c.at
		if err := s.SaveSnapshot(ctx, snap, WorkflowInfo{Session: c.session}); err != nil {
			t.Fatal(err)
		}
	}
	mustExec(t, s, `INSERT INTO session_snapshots (id, workflow_id, session_number, "trigger", schema_version, snapshot_json, created_at, agent_session)
		VALUES ('snap_bad', 'wf_a', 9, 'manual', 1, 'not json', ?, 'early')`, formatTime(at.Add(-time.Hour)))

	for _, wf := range []string{"", "wf_a", "wf_b"} {
		all, damagedAll, err := s.ListSnapshots(ctx, ListFilter{WorkflowID: wf})
		if err != nil {
			t.Fatal(err)
		}
		limited, damagedLimited, err := s.ListSnapshots(ctx, ListFilter{WorkflowID: wf, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		if len(all) == 0 || !slices.Equal(all, limited) || len(damagedAll) != len(damagedLimited) {
			t.Errorf("workflow %q: the listing of everything\n%+v\ndiffers from the limited one\n%+v", wf, all, limited)
		}
	}
}

// TestScanConnRestoresTheCache checks that a scan's small page cache
// does not stay on the connection it hands back to the pool.
func TestScanConnRestoresTheCache(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	s.db.SetMaxOpenConns(1) // the scan's connection is the one read after
	cache := func(q interface {
		GetContext(context.Context, any, string, ...any) error
	}) int {
		t.Helper()
		var kib int
		if err := q.GetContext(ctx, &kib, "PRAGMA cache_size"); err != nil {
			t.Fatal(err)
		}
		return kib
	}
	before := cache(s.db)
	c, err := s.scanConn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := cache(c); got != -scanCacheKiB {
		t.Errorf("scan connection's cache_size = %d, want %d", got, -scanCacheKiB)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if got := cache(s.db); got != before {
		t.Errorf("cache_size after the scan = %d, want %d", got, before)
	}
}

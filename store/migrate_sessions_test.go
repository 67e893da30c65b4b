package store

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	handoff "github.com/handoff-cli/handoff"
)

// oldSchemaDB writes a real SQLite file with the schema as it was before
// migration 0003 (steps 0001 and 0002 only) and rows as that schema's
// SaveSnapshot wrote them: every snapshot its own session.
func oldSchemaDB(t *testing.T, rows []OldRow, sessionCount map[string]int) string {
	t.Helper()
	ctx := context.Background()
	path, db, _ := schemaAt(t, "old.db", 2)
	defer db.Close()
	numbers := map[string]int{}
	for i, r := range rows {
		numbers[r.Workflow]++
		n := numbers[r.Workflow]
		if numbers[r.Workflow] == 1 {
			if _, err := db.ExecContext(ctx, `INSERT INTO workflows (id, name, status, session_count, created_at, updated_at)
				VALUES (?, ?, 'in_progress', ?, '2025-01-01T00:00:00.000000000Z', '2025-01-01T00:00:00.000000000Z')`,
				r.Workflow, r.Workflow, sessionCount[r.Workflow]); err != nil {
				t.Fatal(err)
			}
		}
		snap := handoff.Snapshot{
			SchemaVersion: handoff.SnapshotSchemaVersion, ID: r.ID, WorkflowID: r.Workflow, SessionNumber: n,
			SessionID: r.Session, Trigger: handoff.TriggerManual, Goal: r.ID,
			CreatedAt: time.Date(2025, 1, 1, 0, i, 0, 0, time.UTC),
		}
		body, err := json.Marshal(&snap)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO session_snapshots (id, workflow_id, session_number, "trigger", schema_version, snapshot_json, created_at)
			VALUES (?, ?, ?, 'manual', ?, ?, ?)`, r.ID, r.Workflow, n, snap.SchemaVersion, string(body), formatTime(snap.CreatedAt)); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO workflow_events (workflow_id, type, snapshot_id, detail, created_at)
			VALUES (?, 'SNAPSHOT_CREATED', ?, ?, ?)`, r.Workflow, r.ID, fmt.Sprintf("session %d", n), formatTime(snap.CreatedAt)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.ExecContext(ctx, `UPDATE workflows SET session_count = MAX(session_count, (SELECT COUNT(*) FROM session_snapshots s WHERE s.workflow_id = workflows.id))`); err != nil {
		t.Fatal(err)
	}
	return path
}

// OldRow is one snapshot row as the old schema stored it; OldSchemaDB
// writes them for the conformance suite (package store_test).
type OldRow struct{ Workflow, ID, Session string }

// OldSchemaDB is oldSchemaDB for the conformance suite.
func OldSchemaDB(t *testing.T, rows []OldRow, sessionCount map[string]int) string {
	return oldSchemaDB(t, rows, sessionCount)
}

// TestMigrateSessionsCarriesDataOver opens a file made with the old schema:
// rows of one workflow sharing an agent session id collapse into one
// session, rows without one stay a session each, sessions are renumbered
// gap-free in order of their first snapshot (inside the stored JSON too),
// every snapshot and event is kept with its reference, and a session a
// resume started beyond the last snapshot is still counted.
func TestMigrateSessionsCarriesDataOver(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rows := []OldRow{
		{"wf_a", "snap_a1", "A"}, // old session 1
		{"wf_a", "snap_a2", "A"}, // 2: same agent session
		{"wf_b", "snap_b1", ""},  // no agent session id
		{"wf_a", "snap_a3", "B"}, // 3: a new agent session
		{"wf_a", "snap_a4", "A"}, // 4: A again, after B
		{"wf_b", "snap_b2", ""},
		{"wf_a", "snap_a5", ""}, // 5: no id, its own session
	}
	path := oldSchemaDB(t, rows, map[string]int{"wf_b": 3}) // wf_b: a resume started session 3
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("open the old file: %v", err)
	}
	defer s.Close()
	steps, err := LoadMigrations(migrationFiles)
	if err != nil {
		t.Fatal(err)
	}
	var version int
	if err := s.db.GetContext(ctx, &version, "PRAGMA user_version"); err != nil || version != len(steps) {
		t.Fatalf("schema version %d (%v), want %d", version, err, len(steps))
	}
	want := map[string]int{"snap_a1": 1, "snap_a2": 1, "snap_a3": 2, "snap_a4": 1, "snap_a5": 3, "snap_b1": 1, "snap_b2": 2}
	for id, n := range want {
		snap, err := s.Snapshot(ctx, id)
		if err != nil {
			t.Fatalf("snapshot %s after migration: %v", id, err)
		}
		if snap.SessionNumber != n {
			t.Errorf("%s: session %d, want %d", id, snap.SessionNumber, n)
		}
		var col int
		if err := s.db.GetContext(ctx, &col, "SELECT session_number FROM session_snapshots WHERE id = ?", id); err != nil || col != n {
			t.Errorf("%s: column session_number %d (%v), want %d", id, col, err, n)
		}
	}
	for wf, n := range map[string]int{"wf_a": 3, "wf_b": 3} {
		w, err := s.Workflow(ctx, wf)
		if err != nil {
			t.Fatal(err)
		}
		if w.SessionCount != n {
			t.Errorf("%s: session count %d, want %d", wf, w.SessionCount, n)
		}
	}
	evs, _, err := s.ListEvents(ctx, "wf_a")
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 5 || evs[0].SnapshotID != "snap_a1" || evs[4].SnapshotID != "snap_a5" {
		t.Fatalf("events after migration: %+v", evs)
	}
	// The newest snapshot is the last stored, not the highest session.
	latest, err := s.LatestSnapshot(ctx, "wf_a")
	if err != nil || latest.ID != "snap_a5" {
		t.Fatalf("latest = %v (%v), want snap_a5", latest, err)
	}
	// A grown agent session A joins session 1; immutability still holds.
	grown := minimalSnapshot("wf_a")
	grown.SessionID = "A"
	if err := s.SaveSnapshot(ctx, grown, WorkflowInfo{}); err != nil {
		t.Fatal(err)
	}
	if grown.SessionNumber != 1 {
		t.Fatalf("agent session A after migration: session %d, want 1", grown.SessionNumber)
	}
	if _, err := s.db.ExecContext(ctx, "UPDATE session_snapshots SET \"trigger\" = 'pause' WHERE id = 'snap_a1'"); err == nil {
		t.Fatal("a stored snapshot could be updated after the migration")
	}
	// Deleting a workflow still cascades, and a deleted snapshot still
	// leaves its events with a null reference (the rebuilt foreign keys).
	if _, err := s.db.ExecContext(ctx, "DELETE FROM session_snapshots WHERE id = 'snap_b1'"); err != nil {
		t.Fatal(err)
	}
	var dangling int
	if err := s.db.GetContext(ctx, &dangling, "SELECT COUNT(*) FROM workflow_events WHERE snapshot_id = 'snap_b1'"); err != nil || dangling != 0 {
		t.Fatalf("events still refer to a deleted snapshot: %d (%v)", dangling, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		t.Fatalf("database file: %v", err)
	}
}

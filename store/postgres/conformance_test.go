package postgres_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store/postgres"
	"github.com/handoff-cli/handoff/store/storetest"
)

// TestConformance runs the shared store suite against PostgreSQL, each
// test in a fresh schema of the HANDOFF_TEST_POSTGRES server; the
// migration case opens a schema written with migration 0001 only.
func TestConformance(t *testing.T) {
	storetest.PostgresURL(t) // skip (or fail under CI) before any subtest
	open := func(t *testing.T, url string) storetest.Store {
		s, err := postgres.Open(context.Background(), url, postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	storetest.Run(t, func(t *testing.T) storetest.Store {
		return open(t, storetest.FreshPostgres(t))
	}, storetest.Options{OpenOld: func(t *testing.T) storetest.Store {
		url := storetest.FreshPostgres(t)
		oldSchema(t, url)
		return open(t, url)
	}})
}

// oldSchema writes storetest.OldRows into the schema of url as the store
// did before migration 0002: schema 0001, every snapshot its own session,
// its content hash, its SNAPSHOT_CREATED event.
func oldSchema(t *testing.T, url string) {
	t.Helper()
	ctx := context.Background()
	init, err := os.ReadFile("migrations/0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(string(init))
	exec(`CREATE TABLE handoff_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`)
	exec(`INSERT INTO handoff_schema_migrations (version, name) VALUES (1, '0001_init.sql')`)
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	numbers := map[string]int{}
	for i, r := range storetest.OldRows {
		numbers[r.Workflow]++
		n := numbers[r.Workflow]
		if n == 1 {
			exec(`INSERT INTO workflows (id, name, status, session_count, created_at, updated_at) VALUES ($1, $1, 'in_progress', $2, $3, $3)`,
				r.Workflow, storetest.OldSessionCounts[r.Workflow], at)
		}
		snap := handoff.Snapshot{SchemaVersion: handoff.SnapshotSchemaVersion, ID: r.ID, WorkflowID: r.Workflow, SessionNumber: n,
			SessionID: r.Session, Trigger: handoff.TriggerManual, Goal: r.ID, CreatedAt: at.Add(time.Duration(i) * time.Minute)}
		body, err := json.Marshal(&snap)
		if err != nil {
			t.Fatal(err)
		}
		hash, err := postgres.ContentHash(&snap)
		if err != nil {
			t.Fatal(err)
		}
		exec(`INSERT INTO session_snapshots (id, workflow_id, session_number, "trigger", schema_version, snapshot_json, content_hash, created_at)
			VALUES ($1, $2, $3, 'manual', $4, $5, $6, $7)`, r.ID, r.Workflow, n, snap.SchemaVersion, string(body), hash, snap.CreatedAt)
		exec(`INSERT INTO workflow_events (workflow_id, type, snapshot_id, detail, created_at) VALUES ($1, 'SNAPSHOT_CREATED', $2, $3, $4)`,
			r.Workflow, r.ID, fmt.Sprintf("session %d", n), snap.CreatedAt)
		exec(`UPDATE workflows SET session_count = GREATEST(session_count, $1) WHERE id = $2`, n, r.Workflow)
	}
}

package store

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	handoff "github.com/handoff-cli/handoff"
)

// TestMigrateHistoryDerivesExistingRows opens a file written with the
// schema before step 0006 (summary and record tables): the snapshots
// already stored are listed, counted and searched from the new tables
// without a decode, their decisions and errors are found with their
// origin, and the damaged ones (JSON that does not decode, another
// snapshot's JSON, errors that are not a list) are reported as before.
func TestMigrateHistoryDerivesExistingRows(t *testing.T) {
	ctx := context.Background()
	path, db, exec := schemaAt(t, "v5.db", 5)
	exec(`INSERT INTO workflows (id, name, status, session_count, created_at, updated_at)
		VALUES ('wf_old', 'old', 'in_progress', 4, '2025-01-01T00:00:00.000000000Z', '2025-01-01T00:00:00.000000000Z')`)
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	good := handoff.Snapshot{
		SchemaVersion: handoff.SnapshotSchemaVersion, ID: "snap_good", WorkflowID: "wf_old", SessionNumber: 1, Trigger: handoff.TriggerPause,
		Goal: "move the queue to zeppelin", CreatedAt: at, Source: handoff.SourceInfo{Path: "/t/one.jsonl"},
		Decisions: []handoff.Decision{{ID: "d1", Type: handoff.DecisionLibrary, Description: "Use zeppelin for the queue", Rationale: "it retries"}},
		Errors:    []handoff.ErrorRecord{{ID: "e1", Message: "dial tcp: connection refused", Resolution: handoff.ResolutionUnresolved}},
		Usage:     handoff.Usage{ContextUtilization: 0.5},
	}
	body, err := json.Marshal(&good)
	if err != nil {
		t.Fatal(err)
	}
	insert := func(id string, n int, json string, minute int) {
		t.Helper()
		exec(`INSERT INTO session_snapshots (id, workflow_id, session_number, "trigger", schema_version, snapshot_json, created_at, goal, utilization, decisions, open_errors)
			VALUES (?, 'wf_old', ?, 'pause', 1, ?, ?, ?, 0.5, 1, 1)`, id, n, json, formatTime(at.Add(time.Duration(minute)*time.Minute)), id)
	}
	insert("snap_good", 1, string(body), 0)
	// Indexed for search as step 0005's store did, before the rank table.
	doc, key := SearchDocOf(&good), IndexSessionKey(good.ID, "")
	exec(`INSERT INTO snapshot_search_docs (snapshot_id, workflow_id, session_key, created_at, grp, at, decisions, errors, requests, files, prompt)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, good.ID, good.WorkflowID, key, formatTime(at), int64(SessionGroup(good.WorkflowID, key)), at.UnixMicro(),
		doc[0], doc[1], doc[2], doc[3], doc[4])
	exec(`INSERT INTO snapshot_search (docid, decisions, errors, requests, files, prompt) VALUES (last_insert_rowid(), ?, ?, ?, ?, ?)`,
		TermText(doc[0]), TermText(doc[1]), TermText(doc[2]), TermText(doc[3]), TermText(doc[4]))
	insert("snap_broken", 2, `{"id": "snap_broken", "goal": tru`, 1)
	insert("snap_wrong", 3, `{"id": "snap_other"}`, 2)
	insert("snap_errobj", 4, `{"id": "snap_errobj", "errors": {"a": 1}, "decisions": []}`, 3)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("open the version 5 file: %v", err)
	}
	defer s.Close()
	list, damaged, err := s.ListSnapshots(ctx, ListFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, x := range list {
		ids = append(ids, x.ID)
	}
	if !slices.Equal(ids, []string{"snap_errobj", "snap_good"}) || len(damaged) != 2 {
		t.Fatalf("listed %v, %d damaged (%v); want snap_errobj and snap_good, 2 damaged", ids, len(damaged), damaged)
	}
	if g := list[1]; g.Goal != "snap_good" || g.Utilization != 0.5 || g.Decisions != 1 || g.OpenErrors != 1 {
		t.Errorf("summary of snap_good %+v: want the stored summary columns", g)
	}
	ds, damaged, err := s.Decisions(ctx, DecisionFilter{RecordFilter: RecordFilter{All: true, Grep: "ZEPPELIN"}})
	if err != nil || len(ds) != 1 || ds[0].ID != "d1" || ds[0].SnapshotID != "snap_good" || ds[0].SessionPath != "/t/one.jsonl" {
		t.Fatalf("decisions %+v, %v", ds, err)
	}
	if len(damaged) != 2 {
		t.Errorf("decisions reported %v, want the two snapshots that do not read", damaged)
	}
	es, damaged, err := s.Errors(ctx, ErrorFilter{RecordFilter: RecordFilter{All: true}, Unresolved: true})
	if err != nil || len(es) != 1 || es[0].ID != "e1" {
		t.Fatalf("errors %+v, %v", es, err)
	}
	if !slices.ContainsFunc(damaged, func(e error) bool {
		return strings.Contains(e.Error(), `snap_errobj is damaged: its "errors" is not a list`)
	}) {
		t.Errorf("errors reported %v, want snap_errobj's errors that are not a list", damaged)
	}
	hits, err := s.Search(ctx, SearchQuery{Text: "zeppelin"})
	if err != nil || len(hits) != 1 || hits[0].SnapshotID != "snap_good" {
		t.Fatalf("search after the migration: %+v, %v", hits, err)
	}
	ov, _, err := s.Overview(ctx)
	if err != nil || len(ov) != 1 || ov[0].Latest == nil || ov[0].Latest.ID != "snap_errobj" {
		t.Fatalf("overview %+v, %v", ov, err)
	}
}

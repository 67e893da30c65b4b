package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// Decisions returns the decisions stored in snapshots, newest snapshot
// first and in transcript order within one, with the SQLite store's
// filters and damage reporting. The query reads the decisions kept
// beside each snapshot (snapshot_records), so no snapshot is decoded;
// only the decisions returned are.
func (s *Store) Decisions(ctx context.Context, f store.DecisionFilter) ([]store.StoredDecision, []error, error) {
	if f.Type != "" && !f.Type.Valid() {
		var names []string
		for _, t := range handoff.DecisionTypes() {
			names = append(names, string(t))
		}
		return nil, nil, handoff.Errorf(handoff.EINVALID, "unknown decision type %q (one of %s)", f.Type, strings.Join(names, ", "))
	}
	q := &recordQuery{list: "decisions", what: "decision", timestamp: true}
	if f.Type != "" {
		q.conds = append(q.conds, "r.kind = "+q.arg(string(f.Type)))
	}
	if !f.Superseded {
		q.conds = append(q.conds, "COALESCE(r.state, '') = ''")
	}
	var out []store.StoredDecision
	damaged, err := s.queryRecords(ctx, q, f.RecordFilter, func(o store.Origin, raw []byte) error {
		var d handoff.Decision
		if err := json.Unmarshal(raw, &d); err != nil {
			return err
		}
		if strings.TrimSpace(d.Description) == "" {
			return fmt.Errorf("no description")
		}
		out = append(out, store.StoredDecision{Decision: d, Origin: o})
		return nil
	})
	if err != nil {
		return out, damaged, err
	}
	return out, damaged, store.Renumber(ctx, s.db, snapshotSessions, out, store.DecisionRef)
}

// Errors returns the error records stored in snapshots, in the order and
// with the damage reporting of Decisions.
func (s *Store) Errors(ctx context.Context, f store.ErrorFilter) ([]store.StoredError, []error, error) {
	q := &recordQuery{list: "errors", what: "error"}
	if f.Unresolved {
		q.conds = append(q.conds, "r.state IN ('unresolved', 'deferred')")
	}
	if f.Type != "" {
		q.conds = append(q.conds, "r.kind = "+q.arg(f.Type))
	}
	var out []store.StoredError
	damaged, err := s.queryRecords(ctx, q, f.RecordFilter, func(o store.Origin, raw []byte) error {
		var e handoff.ErrorRecord
		if err := json.Unmarshal(raw, &e); err != nil {
			return err
		}
		if strings.TrimSpace(e.Message) == "" {
			return fmt.Errorf("no error message")
		}
		out = append(out, store.StoredError{ErrorRecord: e, Origin: o})
		return nil
	})
	if err != nil {
		return out, damaged, err
	}
	return out, damaged, store.Renumber(ctx, s.db, snapshotSessions, out, store.ErrorRef)
}

// recordQuery names one list of a snapshot's JSON and the conditions
// and arguments built so far ($1 and $2 are the workflow and the list).
type recordQuery struct {
	list, what string
	// timestamp says the elements may hold their own time (the at column).
	timestamp bool
	conds     []string
	args      []any
}

// arg adds a query argument and returns its placeholder.
func (q *recordQuery) arg(v any) string {
	q.args = append(q.args, v)
	return fmt.Sprintf("$%d", len(q.args)+2)
}

// queryRecords runs the shared query over snapshot_records, the elements
// of every snapshot's list that migration 0005's trigger keeps beside
// the JSON, as store.Store's does: the snapshots in scope (each
// workflow's latest readable one, or all), newest first, no snapshot
// decoded; decode turns one returned element into a record.
func (s *Store) queryRecords(ctx context.Context, q *recordQuery, f store.RecordFilter, decode func(o store.Origin, raw []byte) error) ([]error, error) {
	op := "query stored " + q.list
	if f.Limit < 0 {
		return nil, handoff.Errorf(handoff.EINVALID, "%s: negative limit %d", op, f.Limit)
	}
	if f.Grep != "" {
		q.conds = append(q.conds, "strpos(r.text, lower("+q.arg(f.Grep)+")) > 0")
	}
	if !f.Since.IsZero() {
		when := "p.created_at"
		if q.timestamp {
			// A malformed timestamp never matches, as in SQLite.
			when = "CASE WHEN r.at IS NULL THEN p.created_at WHEN r.at" +
				` ~ '^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$' THEN (r.at)::timestamptz END`
		}
		q.conds = append(q.conds, when+" >= "+q.arg(f.Since.UTC()))
	}
	where := ""
	for _, c := range q.conds {
		where += " AND " + c
	}
	// The snapshots in scope: every readable one, or each workflow's
	// latest readable one (the last stored: one step down the partial
	// index per workflow).
	picked := `SELECT s.id, s.workflow_id, s.session_number, s.created_at, s.source_path FROM session_snapshots s
		WHERE s.problem IS NULL AND ($1 = '' OR s.workflow_id = $1)`
	if !f.All {
		picked = `SELECT s.id, s.workflow_id, s.session_number, s.created_at, s.source_path
		FROM workflows w CROSS JOIN LATERAL (SELECT * FROM session_snapshots l
			WHERE l.workflow_id = w.id AND l.problem IS NULL ORDER BY l.seq DESC LIMIT 1) s
		WHERE ($1 = '' OR w.id = $1)`
	}
	query := `WITH picked AS (` + picked + `)
SELECT p.id, p.workflow_id, COALESCE(w.name, '') AS wname, p.session_number, p.created_at, p.source_path AS path,
	r.idx, r.type, r.value
FROM picked p JOIN snapshot_records r ON r.snapshot_id = p.id AND r.list = $2
LEFT JOIN workflows w ON w.id = p.workflow_id
WHERE true` + where + `
ORDER BY p.created_at DESC, p.id COLLATE "C", r.idx`

	var damaged []error
	var bad []struct {
		ID      string `db:"id"`
		Problem string `db:"problem"`
	}
	if err := s.db.SelectContext(ctx, &bad, `SELECT s.id, COALESCE(s.problem, 'its "'||$2||'" is not a list') AS problem FROM session_snapshots s
		WHERE (s.problem IS NOT NULL OR s.bad_lists IS NOT NULL) AND ($1 = '' OR s.workflow_id = $1)
			AND (s.problem IS NOT NULL OR $2 = ANY (string_to_array(s.bad_lists, ' ')))
		ORDER BY s.created_at DESC, s.id COLLATE "C"`, f.WorkflowID, q.list); err != nil {
		return nil, classify(op, err)
	}
	for _, b := range bad {
		damaged = append(damaged, handoff.Errorf(handoff.ECORRUPT, "snapshot %s is damaged: %s", b.ID, b.Problem))
	}
	args := append([]any{f.WorkflowID, q.list}, q.args...)
	rows, err := s.db.QueryxContext(ctx, query, args...)
	if err != nil {
		return damaged, classify(op, err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var row struct {
			ID            string    `db:"id"`
			WorkflowID    string    `db:"workflow_id"`
			WorkflowName  string    `db:"wname"`
			SessionNumber int       `db:"session_number"`
			CreatedAt     time.Time `db:"created_at"`
			Path          string    `db:"path"`
			Index         int       `db:"idx"`
			Type          string    `db:"type"`
			Value         []byte    `db:"value"`
		}
		if err := rows.StructScan(&row); err != nil {
			damaged = append(damaged, handoff.Errorf(handoff.ECORRUPT, "a stored %s does not read: %w", q.what, err))
			continue
		}
		o := store.Origin{SnapshotID: row.ID, WorkflowID: row.WorkflowID, WorkflowName: row.WorkflowName,
			SessionNumber: row.SessionNumber, SnapshotTime: row.CreatedAt.UTC(), SessionPath: row.Path}
		err := fmt.Errorf("a %s, not an object", row.Type)
		if row.Type == "object" {
			err = decode(o, row.Value)
		}
		if err != nil {
			damaged = append(damaged, handoff.Errorf(handoff.ECORRUPT, "snapshot %s: %s %d is damaged: %v", row.ID, q.what, row.Index, err))
			continue
		}
		n++
		if f.Limit > 0 && n == f.Limit {
			break
		}
	}
	if err := rows.Err(); err != nil {
		return damaged, classify(op, err)
	}
	return damaged, nil
}

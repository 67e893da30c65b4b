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
// filters and damage reporting. The query runs over the jsonb column
// (jsonb_array_elements), so no snapshot is decoded whole.
func (s *Store) Decisions(ctx context.Context, f store.DecisionFilter) ([]store.StoredDecision, []error, error) {
	if f.Type != "" && !f.Type.Valid() {
		var names []string
		for _, t := range handoff.DecisionTypes() {
			names = append(names, string(t))
		}
		return nil, nil, handoff.Errorf(handoff.EINVALID, "unknown decision type %q (one of %s)", f.Type, strings.Join(names, ", "))
	}
	q := &recordQuery{list: "decisions", what: "decision", grep: []string{"description", "rationale", "alternatives_considered"}, timestamp: "timestamp"}
	if f.Type != "" {
		q.conds = append(q.conds, field("decision_type")+" = "+q.arg(string(f.Type)))
	}
	if !f.Superseded {
		q.conds = append(q.conds, "COALESCE("+field("superseded_by")+", '') = ''")
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
	return out, damaged, err
}

// Errors returns the error records stored in snapshots, in the order and
// with the damage reporting of Decisions.
func (s *Store) Errors(ctx context.Context, f store.ErrorFilter) ([]store.StoredError, []error, error) {
	q := &recordQuery{list: "errors", what: "error", grep: []string{"error_message", "context", "command", "resolution_notes"}}
	if f.Unresolved {
		q.conds = append(q.conds, field("resolution")+" IN ('unresolved', 'deferred')")
	}
	if f.Type != "" {
		q.conds = append(q.conds, field("error_type")+" = "+q.arg(f.Type))
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
	return out, damaged, err
}

// recordQuery names one list of a snapshot's JSON, how to search it, and
// the conditions and arguments built so far ($1 and $2 are the workflow
// and the all flag).
type recordQuery struct {
	list, what string
	grep       []string
	timestamp  string
	conds      []string
	args       []any
}

// arg adds a query argument and returns its placeholder.
func (q *recordQuery) arg(v any) string {
	q.args = append(q.args, v)
	return fmt.Sprintf("$%d", len(q.args)+2)
}

// field is the SQL for one key of the current element, NULL when the
// element is not an object.
func field(key string) string {
	return "(CASE WHEN jsonb_typeof(r.value) = 'object' THEN r.value ->> '" + key + "' END)"
}

// snapshotsCTE selects the snapshots in scope, j set only when the stored
// JSON is the row it is stored under.
const snapshotsCTE = `WITH snaps AS (
	SELECT s.id, s.workflow_id, s.session_number, s.created_at, s.seq, COALESCE(w.name, '') AS wname,
		CASE WHEN s.snapshot_json ->> 'id' = s.id THEN s.snapshot_json END AS j
	FROM session_snapshots s LEFT JOIN workflows w ON w.id = s.workflow_id
	WHERE ($1 = '' OR s.workflow_id = $1)
)`

func (s *Store) queryRecords(ctx context.Context, q *recordQuery, f store.RecordFilter, decode func(o store.Origin, raw []byte) error) ([]error, error) {
	op := "query stored " + q.list
	if f.Limit < 0 {
		return nil, handoff.Errorf(handoff.EINVALID, "%s: negative limit %d", op, f.Limit)
	}
	if f.Grep != "" {
		parts := make([]string, len(q.grep))
		for i, k := range q.grep {
			parts[i] = "COALESCE(" + field(k) + ", '')"
		}
		q.conds = append(q.conds, "strpos(lower("+strings.Join(parts, " || chr(10) || ")+"), lower("+q.arg(f.Grep)+")) > 0")
	}
	if !f.Since.IsZero() {
		when := "p.created_at"
		if q.timestamp != "" {
			ts := field(q.timestamp)
			// A malformed timestamp never matches, as in SQLite.
			when = "CASE WHEN " + ts + " IS NULL THEN p.created_at WHEN " + ts +
				` ~ '^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$' THEN (` + ts + `)::timestamptz END`
		}
		q.conds = append(q.conds, when+" >= "+q.arg(f.Since.UTC()))
	}
	where := ""
	for _, c := range q.conds {
		where += " AND " + c
	}
	list := "'" + q.list + "'"
	query := snapshotsCTE + `,
ranked AS (
	SELECT *, MAX(seq) FILTER (WHERE j IS NOT NULL) OVER (PARTITION BY workflow_id) AS latest FROM snaps
),
picked AS (
	SELECT * FROM ranked WHERE j IS NOT NULL AND ($2 OR seq = latest) AND jsonb_typeof(j -> ` + list + `) = 'array'
)
SELECT p.id, p.workflow_id, p.wname, p.session_number, p.created_at,
	COALESCE(p.j #>> '{source,path}', '') AS path,
	(r.ord - 1)::int AS idx, jsonb_typeof(r.value) AS type, r.value::text AS value
FROM picked p CROSS JOIN LATERAL jsonb_array_elements(p.j -> ` + list + `) WITH ORDINALITY AS r(value, ord)
WHERE true` + where + `
ORDER BY p.created_at DESC, p.id COLLATE "C", idx`

	var damaged []error
	var bad []struct {
		ID      string `db:"id"`
		Problem string `db:"problem"`
	}
	if err := s.db.SelectContext(ctx, &bad, snapshotsCTE+`, flagged AS (
		SELECT id, created_at, CASE WHEN j IS NULL THEN 'its stored JSON is another snapshot'
			WHEN jsonb_typeof(j -> `+list+`) NOT IN ('array', 'null') THEN 'its "`+q.list+`" is not a list' END AS problem
		FROM snaps)
		SELECT id, problem FROM flagged WHERE problem IS NOT NULL ORDER BY created_at DESC, id COLLATE "C"`,
		f.WorkflowID); err != nil {
		return nil, classify(op, err)
	}
	for _, b := range bad {
		damaged = append(damaged, handoff.Errorf(handoff.ECORRUPT, "snapshot %s is damaged: %s", b.ID, b.Problem))
	}
	args := append([]any{f.WorkflowID, f.All}, q.args...)
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

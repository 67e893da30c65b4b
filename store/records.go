package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	handoff "github.com/handoff-cli/handoff"
)

// Origin says which stored snapshot a decision or error was read from, so
// a record found across many sessions can be traced back (handoff show).
type Origin struct {
	SnapshotID    string `json:"snapshot_id"`
	WorkflowID    string `json:"workflow_id"`
	WorkflowName  string `json:"workflow_name,omitempty"`
	SessionNumber int    `json:"session_number"`
	// SnapshotTime is when the snapshot was taken.
	SnapshotTime time.Time `json:"snapshot_created_at"`
	// SessionPath is the transcript the snapshot was built from.
	SessionPath string `json:"session_path,omitempty"`
}

// StoredDecision is a decision as stored in a snapshot, with its origin.
type StoredDecision struct {
	handoff.Decision
	Origin
}

// StoredError is an error record as stored in a snapshot, with its origin.
type StoredError struct {
	handoff.ErrorRecord
	Origin
}

// RecordFilter is what decision and error queries share.
type RecordFilter struct {
	// WorkflowID keeps one workflow's records; empty means every workflow.
	WorkflowID string
	// All reads every stored snapshot (the history, where a decision taken
	// in session 1 shows again in session 2's snapshot). By default only
	// each workflow's latest readable snapshot is read: what is in force
	// now.
	All bool
	// Grep keeps records whose text contains it, ignoring ASCII case.
	Grep string
	// Since keeps records from this instant on: a decision's own timestamp
	// when it has one, else its snapshot's creation time.
	Since time.Time
	// Limit caps the records returned; 0 means all.
	Limit int
}

// DecisionFilter narrows Decisions.
type DecisionFilter struct {
	RecordFilter
	// Type keeps one decision type; empty means all.
	Type handoff.DecisionType
	// Superseded also returns decisions a later one reversed.
	Superseded bool
}

// ErrorFilter narrows Errors.
type ErrorFilter struct {
	RecordFilter
	// Unresolved keeps errors left unresolved or deferred, the ones
	// Snapshot.UnresolvedErrors returns.
	Unresolved bool
	// Type keeps one error_type (test_failure, build_error, …); empty
	// means all.
	Type string
}

// Decisions returns the decisions stored in snapshots, newest snapshot
// first and in transcript order within one. The query runs in SQLite over
// the stored JSON (json_each), so no snapshot is decoded whole. Snapshots
// whose JSON does not decode, and decisions that do not fit the schema,
// are skipped and reported in the second result; the third is for failures
// of the query itself.
func (s *Store) Decisions(ctx context.Context, f DecisionFilter) ([]StoredDecision, []error, error) {
	if f.Type != "" && !f.Type.Valid() {
		return nil, nil, handoff.Errorf(handoff.EINVALID, "unknown decision type %q (one of %s)", f.Type, decisionTypeList())
	}
	var conds []string
	args := []any{}
	if f.Type != "" {
		conds = append(conds, field("decision_type")+" = @type")
		args = append(args, sql.Named("type", string(f.Type)))
	}
	if !f.Superseded {
		conds = append(conds, "COALESCE("+field("superseded_by")+", '') = ''")
	}
	q := recordQuery{list: "decisions", what: "decision", grep: []string{"description", "rationale", "alternatives_considered"}, timestamp: "timestamp"}
	var out []StoredDecision
	damaged, err := s.queryRecords(ctx, q, f.RecordFilter, conds, args, func(o Origin, idx int, raw []byte) error {
		var d handoff.Decision
		if err := json.Unmarshal(raw, &d); err != nil {
			return err
		}
		if strings.TrimSpace(d.Description) == "" {
			return fmt.Errorf("no description")
		}
		out = append(out, StoredDecision{Decision: d, Origin: o})
		return nil
	})
	return out, damaged, err
}

// Errors returns the error records stored in snapshots, in the order and
// with the damage reporting of Decisions.
func (s *Store) Errors(ctx context.Context, f ErrorFilter) ([]StoredError, []error, error) {
	var conds []string
	args := []any{}
	if f.Unresolved {
		conds = append(conds, field("resolution")+" IN ('unresolved', 'deferred')")
	}
	if f.Type != "" {
		conds = append(conds, field("error_type")+" = @type")
		args = append(args, sql.Named("type", f.Type))
	}
	q := recordQuery{list: "errors", what: "error", grep: []string{"error_message", "context", "command", "resolution_notes"}}
	var out []StoredError
	damaged, err := s.queryRecords(ctx, q, f.RecordFilter, conds, args, func(o Origin, idx int, raw []byte) error {
		var e handoff.ErrorRecord
		if err := json.Unmarshal(raw, &e); err != nil {
			return err
		}
		if strings.TrimSpace(e.Message) == "" {
			return fmt.Errorf("no error message")
		}
		out = append(out, StoredError{ErrorRecord: e, Origin: o})
		return nil
	})
	return out, damaged, err
}

// recordQuery names one list of a snapshot's JSON and how to search it.
type recordQuery struct {
	list string   // the snapshot's JSON key: decisions, errors
	what string   // one element, for reports
	grep []string // element keys Grep looks in
	// timestamp is the element key holding its own time, if any.
	timestamp string
}

// field is the SQL for one key of the current element. The CASE keeps
// json_extract off an element that is not an object (a bare string is not
// JSON text, and would fail the whole query): SQLite evaluates CASE
// lazily, whatever order it evaluates other terms in.
func field(key string) string {
	return "CASE WHEN r.type = 'object' THEN json_extract(r.value, '$." + key + "') END"
}

// snapshotsCTE selects the snapshots in scope, with j set to the stored
// JSON only when it decodes and is the row it is stored under. The CASE
// keeps json_extract from ever seeing malformed JSON, whatever order
// SQLite evaluates terms in.
const snapshotsCTE = `WITH snaps AS (
	SELECT s.id, s.rowid AS rn, s.workflow_id, s.session_number, s.created_at, COALESCE(w.name, '') AS wname,
		CASE WHEN json_valid(s.snapshot_json) THEN
			CASE WHEN json_extract(s.snapshot_json, '$.id') IS s.id THEN s.snapshot_json END
		END AS j,
		CASE WHEN json_valid(s.snapshot_json) THEN
			CASE WHEN json_extract(s.snapshot_json, '$.id') IS s.id THEN NULL ELSE 'its stored JSON is another snapshot' END
		ELSE 'its stored JSON does not decode' END AS problem
	FROM session_snapshots s LEFT JOIN workflows w ON w.id = s.workflow_id
	WHERE (@workflow = '' OR s.workflow_id = @workflow)
)`

// queryRecords runs the shared query: the snapshots in scope (each
// workflow's latest readable one, or all), one row per element of their
// list that passes conds and the common filters, newest snapshot first.
// decode turns one element into a record; its error marks the element
// damaged.
func (s *Store) queryRecords(ctx context.Context, q recordQuery, f RecordFilter, conds []string, args []any,
	decode func(o Origin, idx int, raw []byte) error) ([]error, error) {
	op := "query stored " + q.list
	if f.Limit < 0 {
		return nil, handoff.Errorf(handoff.EINVALID, "%s: negative limit %d", op, f.Limit)
	}
	args = append(args, sql.Named("workflow", f.WorkflowID), sql.Named("all", f.All))
	if f.Grep != "" {
		parts := make([]string, len(q.grep))
		for i, k := range q.grep {
			parts[i] = "COALESCE(" + field(k) + ", '')"
		}
		conds = append(conds, "instr(lower("+strings.Join(parts, " || char(10) || ")+"), lower(@grep)) > 0")
		args = append(args, sql.Named("grep", f.Grep))
	}
	if !f.Since.IsZero() {
		when := "p.created_at"
		if q.timestamp != "" {
			when = "COALESCE(" + field(q.timestamp) + ", p.created_at)"
		}
		conds = append(conds, "julianday("+when+") >= julianday(@since)")
		args = append(args, sql.Named("since", formatTime(f.Since)))
	}
	where := ""
	for _, c := range conds {
		where += " AND " + c
	}
	query := snapshotsCTE + `,
ranked AS (
	SELECT *, MAX(rn) FILTER (WHERE j IS NOT NULL) OVER (PARTITION BY workflow_id) AS latest FROM snaps
),
picked AS (
	SELECT * FROM ranked WHERE j IS NOT NULL AND (@all OR rn = latest)
)
SELECT p.id, p.workflow_id, p.wname, p.session_number, p.created_at,
	COALESCE(json_extract(p.j, '$.source.path'), '') AS path,
	CAST(r.key AS INTEGER) AS idx, r.type AS type,
	CASE WHEN r.type IN ('object', 'array') THEN r.value ELSE json_quote(r.value) END AS value
FROM picked p, json_each(p.j, '$.` + q.list + `') r
WHERE json_type(p.j, '$.` + q.list + `') = 'array'` + where + `
ORDER BY p.created_at DESC, p.id, idx`

	var damaged []error
	// Damaged snapshots are reported first, newest first, as ListSnapshots does.
	var bad []struct {
		ID      string `db:"id"`
		Problem string `db:"problem"`
	}
	if err := s.db.SelectContext(ctx, &bad, snapshotsCTE+` SELECT id, COALESCE(problem, 'its "`+q.list+`" is not a list') AS problem FROM snaps
		WHERE problem IS NOT NULL OR json_type(j, '$.`+q.list+`') NOT IN ('array', 'null') ORDER BY created_at DESC, id`,
		sql.Named("workflow", f.WorkflowID)); err != nil {
		return nil, classify(op, err)
	}
	for _, b := range bad {
		damaged = append(damaged, handoff.Errorf(handoff.ECORRUPT, "snapshot %s is damaged: %s", b.ID, b.Problem))
		s.log.Debug("skipped damaged snapshot", "db", s.path, "snapshot", b.ID, "problem", b.Problem)
	}

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
		o := Origin{SnapshotID: row.ID, WorkflowID: row.WorkflowID, WorkflowName: row.WorkflowName,
			SessionNumber: row.SessionNumber, SnapshotTime: row.CreatedAt.UTC(), SessionPath: row.Path}
		err := fmt.Errorf("a %s, not an object", row.Type)
		if row.Type == "object" {
			err = decode(o, row.Index, row.Value)
		}
		if err != nil {
			damaged = append(damaged, handoff.Errorf(handoff.ECORRUPT, "snapshot %s: %s %d is damaged: %v", row.ID, q.what, row.Index, err))
			s.log.Debug("skipped damaged record", "snapshot", row.ID, "list", q.list, "index", row.Index, "err", err)
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

func decisionTypeList() string {
	var names []string
	for _, t := range handoff.DecisionTypes() {
		names = append(names, string(t))
	}
	return strings.Join(names, ", ")
}

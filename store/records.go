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
// first and in transcript order within one. The query reads the
// decisions kept beside each snapshot (snapshot_records), so no snapshot
// is decoded; only the decisions returned are. Snapshots
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
		conds = append(conds, "r.kind = @type")
		args = append(args, sql.Named("type", string(f.Type)))
	}
	if !f.Superseded {
		conds = append(conds, "COALESCE(r.state, '') = ''")
	}
	q := recordQuery{list: "decisions", what: "decision", timestamp: true}
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
	if err != nil {
		return out, damaged, err
	}
	return out, damaged, Renumber(ctx, s.db, summarySessions, out, DecisionRef)
}

// Errors returns the error records stored in snapshots, in the order and
// with the damage reporting of Decisions.
func (s *Store) Errors(ctx context.Context, f ErrorFilter) ([]StoredError, []error, error) {
	var conds []string
	args := []any{}
	if f.Unresolved {
		conds = append(conds, "r.state IN ('unresolved', 'deferred')")
	}
	if f.Type != "" {
		conds = append(conds, "r.kind = @type")
		args = append(args, sql.Named("type", f.Type))
	}
	q := recordQuery{list: "errors", what: "error"}
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
	if err != nil {
		return out, damaged, err
	}
	return out, damaged, Renumber(ctx, s.db, summarySessions, out, ErrorRef)
}

// recordQuery names one list of a snapshot's JSON.
type recordQuery struct {
	list string // the snapshot's JSON key: decisions, errors
	what string // one element, for reports
	// timestamp says the elements may hold their own time (the at column).
	timestamp bool
}

// queryRecords runs the shared query over snapshot_records, the elements
// of every snapshot's list that migration 0006's triggers keep beside the
// JSON: the snapshots in scope (each workflow's latest readable one, or
// all), one row per element that passes conds and the common filters,
// newest snapshot first. No snapshot is decoded; decode turns one
// returned element into a record, its error marking the element damaged.
// Damaged snapshots (the summary's problem, or its bad_lists naming the
// list) are reported first, newest first, as ListSnapshots does.
func (s *Store) queryRecords(ctx context.Context, q recordQuery, f RecordFilter, conds []string, args []any,
	decode func(o Origin, idx int, raw []byte) error) ([]error, error) {
	op := "query stored " + q.list
	if f.Limit < 0 {
		return nil, handoff.Errorf(handoff.EINVALID, "%s: negative limit %d", op, f.Limit)
	}
	// base is where the list's elements start in a snapshot's range of
	// pos (migration 0007).
	base := 0
	if q.list == "errors" {
		base = 1 << 20
	}
	args = append(args, sql.Named("workflow", f.WorkflowID), sql.Named("base", base))
	if f.Grep != "" {
		// The text column is lower-cased already (ASCII, as lower() is).
		conds = append(conds, "instr(r.text, lower(@grep)) > 0")
		args = append(args, sql.Named("grep", f.Grep))
	}
	if !f.Since.IsZero() {
		when := "p.created_at"
		if q.timestamp {
			when = "COALESCE(r.at, p.created_at)"
		}
		conds = append(conds, "julianday("+when+") >= julianday(@since)")
		args = append(args, sql.Named("since", formatTime(f.Since)))
	}
	where := ""
	for _, c := range conds {
		where += " AND " + c
	}
	// The snapshots in scope: every readable one, or each workflow's
	// latest readable one (the last stored: one step down the partial
	// index per workflow, which holds the columns picked).
	picked := `SELECT s.seq, s.id, s.workflow_id, s.session_number, s.created_at, s.source_path FROM snapshot_summaries s
		WHERE s.problem IS NULL AND (@workflow = '' OR s.workflow_id = @workflow)`
	if !f.All {
		picked = `SELECT s.seq, s.id, s.workflow_id, s.session_number, s.created_at, s.source_path
		FROM workflows w CROSS JOIN snapshot_summaries s INDEXED BY snapshot_summaries_readable ON s.workflow_id = w.id AND s.problem IS NULL AND s.seq = (
			SELECT MAX(l.seq) FROM snapshot_summaries l WHERE l.workflow_id = w.id AND l.problem IS NULL)
		WHERE (@workflow = '' OR w.id = @workflow)`
	}
	// The plan is fixed: picked first (MATERIALIZED, CROSS JOIN), from
	// the readable index alone (INDEXED BY), then each picked snapshot's
	// list as one range of the records' pos (migration 0007). Left to
	// itself SQLite scanned every record behind a Bloom filter, or walked
	// the listing index for the order.
	query := `WITH picked AS MATERIALIZED (` + picked + `)
SELECT p.id, p.workflow_id, COALESCE(w.name, '') AS wname, p.session_number, p.created_at, p.source_path AS path,
	r.idx, r.type, r.value
FROM picked p CROSS JOIN snapshot_records r
	ON r.pos BETWEEN p.seq * 2097152 + @base AND p.seq * 2097152 + @base + 1048575
LEFT JOIN workflows w ON w.id = p.workflow_id
WHERE 1 = 1` + where + `
ORDER BY p.created_at DESC, p.id, r.idx`

	var damaged []error
	var bad []struct {
		ID      string `db:"id"`
		Problem string `db:"problem"`
	}
	if err := s.db.SelectContext(ctx, &bad, `SELECT s.id, COALESCE(s.problem, 'its "`+q.list+`" is not a list') AS problem FROM snapshot_summaries s
		WHERE (s.problem IS NOT NULL OR s.bad_lists IS NOT NULL) AND (@workflow = '' OR s.workflow_id = @workflow)
			AND (s.problem IS NOT NULL OR instr(' ' || s.bad_lists || ' ', ' ' || @list || ' ') > 0)
		ORDER BY s.created_at DESC, s.id`, sql.Named("workflow", f.WorkflowID), sql.Named("list", q.list)); err != nil {
		return nil, classify(op, err)
	}
	for _, b := range bad {
		damaged = append(damaged, handoff.Errorf(handoff.ECORRUPT, "snapshot %s is damaged: %s", b.ID, b.Problem))
		s.log.Debug("skipped damaged snapshot", "db", s.path, "snapshot", b.ID, "problem", b.Problem)
	}

	conn, err := s.scanConn(ctx)
	if err != nil {
		return damaged, classify(op, err)
	}
	defer conn.Close()
	rows, err := conn.QueryxContext(ctx, query, args...)
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

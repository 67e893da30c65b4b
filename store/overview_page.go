package store

import (
	"context"
	"database/sql"
	"encoding/base64"
	"strings"
	"time"

	handoff "github.com/handoff-cli/handoff"
)

// OverviewFilter narrows and pages OverviewPage.
type OverviewFilter struct {
	// Status and Dir keep only workflows with that status / directory.
	Status handoff.WorkflowStatus
	Dir    string
	// Limit is the page size (required, > 0).
	Limit int
	// After is the Next cursor of the previous page; "" is the first.
	After string
}

// OverviewPage is one page of workflows with their latest snapshots.
type OverviewPage struct {
	Workflows []WorkflowOverview `json:"workflows"`
	// Next is the cursor of the following page; "" on the last one.
	Next string `json:"next,omitempty"`
}

// Cursor is a position in the workflow listing (most recently active
// first, then id): what OverviewPage's Next encodes.
type Cursor struct {
	UpdatedAt time.Time
	ID        string
}

// EncodeCursor makes an opaque page cursor.
func EncodeCursor(c Cursor) string {
	return base64.RawURLEncoding.EncodeToString([]byte(c.UpdatedAt.UTC().Format(time.RFC3339Nano) + "|" + c.ID))
}

// DecodeCursor reads a cursor EncodeCursor made; EINVALID otherwise.
func DecodeCursor(s string) (Cursor, error) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		at, id, ok := strings.Cut(string(raw), "|")
		if t, terr := time.Parse(time.RFC3339Nano, at); ok && terr == nil {
			return Cursor{UpdatedAt: t, ID: id}, nil
		}
	}
	return Cursor{}, handoff.Errorf(handoff.EINVALID, "not a page cursor: %q", s)
}

// OverviewRow is one row of the paged overview query, shared by both
// stores: the workflow and, when it has one, its latest snapshot's
// summary columns. Nothing is decoded from JSON.
type OverviewRow struct {
	handoff.Workflow
	LatestID      sql.NullString  `db:"l_id"`
	LatestSession sql.NullInt64   `db:"l_session"`
	LatestTrigger sql.NullString  `db:"l_trigger"`
	LatestAt      sql.NullTime    `db:"l_created_at"`
	LatestGoal    sql.NullString  `db:"l_goal"`
	LatestUtil    sql.NullFloat64 `db:"l_utilization"`
	LatestDec     sql.NullInt64   `db:"l_decisions"`
	LatestErrs    sql.NullInt64   `db:"l_open_errors"`
	LatestMachine sql.NullString  `db:"l_machine"`
	LatestAuthor  sql.NullString  `db:"l_author"`
}

// Overview turns the row into a WorkflowOverview.
func (r OverviewRow) Overview() WorkflowOverview {
	o := WorkflowOverview{Workflow: r.Workflow}
	if r.LatestID.Valid {
		o.Latest = &SnapshotSummary{
			ID: r.LatestID.String, WorkflowID: r.ID, SessionNumber: int(r.LatestSession.Int64),
			Trigger: handoff.Trigger(r.LatestTrigger.String), CreatedAt: r.LatestAt.Time.UTC(),
			Goal: r.LatestGoal.String, Utilization: r.LatestUtil.Float64,
			Decisions: int(r.LatestDec.Int64), OpenErrors: int(r.LatestErrs.Int64),
			Machine: r.LatestMachine.String, User: r.LatestAuthor.String,
		}
	}
	return o
}

// LatestColumns are the latest snapshot's summary columns as OverviewRow
// names them, for a join on alias l.
const LatestColumns = `l.id AS l_id, l.session_number AS l_session, l."trigger" AS l_trigger, l.created_at AS l_created_at,
	l.goal AS l_goal, l.utilization AS l_utilization, l.decisions AS l_decisions, l.open_errors AS l_open_errors,
	l.machine AS l_machine, l.author AS l_author`

// OverviewPage lists one page of workflows, most recently active first,
// each with its latest snapshot's summary, read from columns: the cost
// of a page does not grow with the number of workflows (an index walk
// from the cursor and one indexed lookup per row).
func (s *Store) OverviewPage(ctx context.Context, f OverviewFilter) (*OverviewPage, error) {
	if f.Limit <= 0 {
		return nil, handoff.Errorf(handoff.EINVALID, "list workflows: the page size must be positive, got %d", f.Limit)
	}
	query := `SELECT w.id, w.name, w.status, w.dir, w.session_count, w.paused_at, w.pause_reason, w.start_commit, w.created_at, w.updated_at, ` + LatestColumns + `
		FROM workflows w LEFT JOIN snapshot_summaries l ON l.id = (
			SELECT x.id FROM snapshot_summaries x WHERE x.workflow_id = w.id ORDER BY x.created_at DESC, x.id DESC LIMIT 1)
		WHERE 1 = 1`
	var args []any
	if f.Status != "" {
		query += " AND w.status = ?"
		args = append(args, string(f.Status))
	}
	if f.Dir != "" {
		query += " AND w.dir = ?"
		args = append(args, f.Dir)
	}
	if f.After != "" {
		c, err := DecodeCursor(f.After)
		if err != nil {
			return nil, err
		}
		at := formatTime(c.UpdatedAt)
		query += " AND (w.updated_at < ? OR (w.updated_at = ? AND w.id > ?))"
		args = append(args, at, at, c.ID)
	}
	query += " ORDER BY w.updated_at DESC, w.id LIMIT ?"
	args = append(args, f.Limit+1)
	var rows []OverviewRow
	if err := s.db.SelectContext(ctx, &rows, query, args...); err != nil {
		return nil, classify("list workflows", err)
	}
	page := pageOf(rows, f.Limit)
	return page, Renumber(ctx, s.db, summarySessions, page.Workflows, OverviewRef)
}

// pageOf cuts rows (one more than limit when there is a next page) into
// a page.
func pageOf(rows []OverviewRow, limit int) *OverviewPage {
	out := &OverviewPage{Workflows: make([]WorkflowOverview, 0, min(len(rows), limit))}
	for i, r := range rows {
		if i == limit {
			last := rows[i-1]
			out.Next = EncodeCursor(Cursor{UpdatedAt: last.UpdatedAt, ID: last.ID})
			break
		}
		out.Workflows = append(out.Workflows, r.Overview())
	}
	return out
}

// PageOf is pageOf for the other stores.
func PageOf(rows []OverviewRow, limit int) *OverviewPage { return pageOf(rows, limit) }

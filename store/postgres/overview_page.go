package postgres

import (
	"context"
	"fmt"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// OverviewPage lists one page of workflows with their latest snapshots'
// summaries, as store.Store.OverviewPage does: columns only, an index
// walk from the cursor and one indexed lookup per row.
func (s *Store) OverviewPage(ctx context.Context, f store.OverviewFilter) (*store.OverviewPage, error) {
	if f.Limit <= 0 {
		return nil, handoff.Errorf(handoff.EINVALID, "list workflows: the page size must be positive, got %d", f.Limit)
	}
	query := `SELECT w.id, w.name, w.status, w.dir, w.session_count, w.paused_at, w.pause_reason, w.start_commit, w.created_at, w.updated_at, ` + store.LatestColumns + `
		FROM workflows w LEFT JOIN LATERAL (
			SELECT * FROM session_snapshots x WHERE x.workflow_id = w.id ORDER BY x.created_at DESC, x.id DESC LIMIT 1) l ON true
		WHERE true`
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if f.Status != "" {
		query += " AND w.status = " + arg(string(f.Status))
	}
	if f.Dir != "" {
		query += " AND w.dir = " + arg(f.Dir)
	}
	if f.After != "" {
		c, err := store.DecodeCursor(f.After)
		if err != nil {
			return nil, err
		}
		at := arg(c.UpdatedAt)
		query += fmt.Sprintf(" AND (w.updated_at < %s OR (w.updated_at = %s AND w.id > %s))", at, at, arg(c.ID))
	}
	query += " ORDER BY w.updated_at DESC, w.id LIMIT " + arg(f.Limit+1)
	var rows []store.OverviewRow
	if err := s.db.SelectContext(ctx, &rows, query, args...); err != nil {
		return nil, classify("list workflows", err)
	}
	for i := range rows {
		utcWorkflow(&rows[i].Workflow)
	}
	page := store.PageOf(rows, f.Limit)
	return page, store.Renumber(ctx, s.db, snapshotSessions, page.Workflows, store.OverviewRef)
}

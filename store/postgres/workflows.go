package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// workflowColumns are named as handoff.Workflow's db tags.
const workflowColumns = "id, name, status, dir, session_count, paused_at, pause_reason, start_commit, created_at, updated_at"

// utcWorkflow normalises the timestamps the driver returns in local time.
func utcWorkflow(wf *handoff.Workflow) {
	wf.CreatedAt, wf.UpdatedAt = wf.CreatedAt.UTC(), wf.UpdatedAt.UTC()
	if wf.PausedAt != nil {
		t := wf.PausedAt.UTC()
		wf.PausedAt = &t
	}
}

// Workflow loads one workflow by id; ENOTFOUND when there is none.
func (s *Store) Workflow(ctx context.Context, id string) (*handoff.Workflow, error) {
	var wf handoff.Workflow
	err := s.db.GetContext(ctx, &wf, "SELECT "+workflowColumns+" FROM workflows WHERE id = $1", id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, handoff.Errorf(handoff.ENOTFOUND, "no workflow %q", id)
	}
	if err != nil {
		return nil, classify("load workflow "+id, err)
	}
	utcWorkflow(&wf)
	return &wf, nil
}

// Workflows lists every workflow, most recently active first.
func (s *Store) Workflows(ctx context.Context) ([]handoff.Workflow, error) {
	out, _, err := s.ListWorkflows(ctx)
	return out, err
}

// ListWorkflows is Workflows with unreadable rows reported, not fatal.
func (s *Store) ListWorkflows(ctx context.Context) ([]handoff.Workflow, []error, error) {
	rows, err := s.db.QueryxContext(ctx, "SELECT "+workflowColumns+` FROM workflows ORDER BY updated_at DESC, id COLLATE "C"`)
	if err != nil {
		return nil, nil, classify("list workflows", err)
	}
	defer rows.Close()
	var (
		out     []handoff.Workflow
		damaged []error
	)
	for rows.Next() {
		var wf handoff.Workflow
		if err := rows.StructScan(&wf); err != nil {
			damaged = append(damaged, handoff.Errorf(handoff.ECORRUPT, "a workflow row does not read: %w", err))
			continue
		}
		utcWorkflow(&wf)
		out = append(out, wf)
	}
	if err := rows.Err(); err != nil {
		return out, damaged, classify("list workflows", err)
	}
	return out, damaged, nil
}

// SetWorkflowStatus moves a workflow through the lifecycle check and
// records the event, in one transaction (see store.Store.SetWorkflowStatus).
func (s *Store) SetWorkflowStatus(ctx context.Context, id string, to handoff.WorkflowStatus, reason string) error {
	op := fmt.Sprintf("set workflow %s to %s", id, to)
	return s.inTx(ctx, op, false, func(tx *sqlx.Tx) error {
		_, err := transitionTx(ctx, tx, id, to, statusChange{reason: reason}, s.clock())
		return err
	})
}

// statusChange says what a transition records beside the new status.
type statusChange struct {
	reason     string
	snapshotID string
	event      handoff.EventType
	always     bool
}

// transitionTx moves workflow id to status to inside tx (row locked),
// through handoff.WorkflowStatus.Transition, and records the event. It
// returns the status the workflow had.
func transitionTx(ctx context.Context, tx *sqlx.Tx, id string, to handoff.WorkflowStatus, c statusChange, now time.Time) (handoff.WorkflowStatus, error) {
	op := fmt.Sprintf("set workflow %s to %s", id, to)
	var from handoff.WorkflowStatus
	err := tx.GetContext(ctx, &from, "SELECT status FROM workflows WHERE id = $1 FOR UPDATE", id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", handoff.Errorf(handoff.ENOTFOUND, "no workflow %q", id)
	}
	if err != nil {
		return "", classify(op, err)
	}
	if err := from.Transition(to); err != nil {
		return from, fmt.Errorf("workflow %s: %w", id, err)
	}
	if from == to && !c.always {
		return from, nil
	}
	var pausedAt any
	pauseReason := ""
	if to == handoff.WorkflowPaused {
		pausedAt, pauseReason = now, c.reason
	}
	if _, err := tx.ExecContext(ctx,
		"UPDATE workflows SET status = $1, paused_at = $2, pause_reason = $3, updated_at = $4, status_changed_at = $4 WHERE id = $5",
		string(to), pausedAt, pauseReason, now, id); err != nil {
		return from, classify(op, err)
	}
	typ := c.event
	switch {
	case typ != "":
	case to == handoff.WorkflowPaused:
		typ = handoff.EventWorkflowPaused
	case from == handoff.WorkflowPaused && to == handoff.WorkflowInProgress:
		typ = handoff.EventWorkflowResumed
	default:
		typ = handoff.EventStatusChanged
	}
	detail := fmt.Sprintf("%s -> %s", from, to)
	if c.reason != "" {
		detail += ": " + c.reason
	}
	return from, addEvent(ctx, tx, id, typ, c.snapshotID, detail, now)
}

// Resume claims a workflow and starts its next session from snapshotID,
// as store.Store.Resume does, in one transaction: the workflow row is
// locked first, so of two concurrent resumes the second sees the first's
// in_progress and is ECLAIMED unless force.
func (s *Store) Resume(ctx context.Context, workflowID, snapshotID string, force bool) (*store.Resumed, error) {
	op := "resume workflow " + workflowID
	var out store.Resumed
	err := s.inTx(ctx, op, false, func(tx *sqlx.Tx) error {
		// Lock first so the session number read next stays the last one.
		var status handoff.WorkflowStatus
		err := tx.GetContext(ctx, &status, "SELECT status FROM workflows WHERE id = $1 FOR UPDATE", workflowID)
		if errors.Is(err, sql.ErrNoRows) {
			return handoff.Errorf(handoff.ENOTFOUND, "no workflow %q", workflowID)
		}
		if err != nil {
			return classify(op, err)
		}
		if err := store.Claimable(workflowID, status, force); err != nil {
			return err
		}
		var last int
		if err := tx.GetContext(ctx, &last, tx.Rebind(store.SessionCountSQL), workflowID); err != nil {
			return classify(op, err)
		}
		from, err := transitionTx(ctx, tx, workflowID, handoff.WorkflowInProgress, statusChange{
			reason:     fmt.Sprintf("session %d from snapshot %s", last+1, snapshotID),
			snapshotID: snapshotID,
			event:      handoff.EventWorkflowResumed,
			always:     true,
		}, s.clock())
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE workflows SET session_count = GREATEST(session_count, $1) WHERE id = $2", last+1, workflowID); err != nil {
			return classify(op, err)
		}
		out = store.Resumed{From: from, Session: last + 1}
		if err := tx.GetContext(ctx, &out.Workflow, "SELECT "+workflowColumns+" FROM workflows WHERE id = $1", workflowID); err != nil {
			return classify(op, err)
		}
		utcWorkflow(&out.Workflow)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// ResolveWorkflow finds the workflow of dir or the nearest directory above
// it, with the SQLite store's rules (an open workflow beats a finished
// one, then the most recently active).
func (s *Store) ResolveWorkflow(ctx context.Context, dir string) (*handoff.Workflow, error) {
	if dir == "" {
		return nil, handoff.Errorf(handoff.EINVALID, "resolve workflow: empty directory")
	}
	var candidates []string
	starts := []string{filepath.Clean(dir)}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != starts[0] {
		starts = append(starts, real)
	}
	for _, d := range starts {
		for {
			if !slices.Contains(candidates, d) {
				candidates = append(candidates, d)
			}
			parent := filepath.Dir(d)
			if parent == d {
				break
			}
			d = parent
		}
	}
	wfs, _, err := s.ListWorkflows(ctx)
	if err != nil {
		return nil, err
	}
	best, bestRank := -1, len(candidates)
	for i, wf := range wfs {
		if wf.Dir == "" {
			continue
		}
		rank := slices.Index(candidates, filepath.Clean(wf.Dir))
		if rank < 0 {
			continue
		}
		switch {
		case rank < bestRank,
			rank == bestRank && wfs[best].Status.Terminal() && !wf.Status.Terminal():
			best, bestRank = i, rank
		}
	}
	if best < 0 {
		return nil, handoff.Errorf(handoff.ENOTFOUND, "no workflow for %s or any directory above it: pass --workflow, or pause a session here first", dir)
	}
	return &wfs[best], nil
}

// Events lists a workflow's events oldest first (every workflow's when
// workflowID is empty); ENOTFOUND when the workflow does not exist.
func (s *Store) Events(ctx context.Context, workflowID string) ([]handoff.Event, error) {
	out, _, err := s.ListEvents(ctx, workflowID)
	return out, err
}

// ListEvents is Events with unreadable rows reported, not fatal.
func (s *Store) ListEvents(ctx context.Context, workflowID string) ([]handoff.Event, []error, error) {
	query := "SELECT id, workflow_id, type, COALESCE(snapshot_id, '') AS snapshot_id, detail, created_at FROM workflow_events"
	var args []any
	if workflowID != "" {
		if _, err := s.Workflow(ctx, workflowID); err != nil {
			return nil, nil, err
		}
		query += " WHERE workflow_id = $1"
		args = append(args, workflowID)
	}
	rows, err := s.db.QueryxContext(ctx, query+" ORDER BY created_at, id", args...)
	if err != nil {
		return nil, nil, classify("list events", err)
	}
	defer rows.Close()
	var (
		out     []handoff.Event
		damaged []error
	)
	for rows.Next() {
		var e handoff.Event
		if err := rows.StructScan(&e); err != nil {
			damaged = append(damaged, handoff.Errorf(handoff.ECORRUPT, "an event row does not read: %w", err))
			continue
		}
		e.CreatedAt = e.CreatedAt.UTC()
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return out, damaged, classify("list events", err)
	}
	return out, damaged, nil
}

// Overview lists every workflow with its latest snapshot, as `handoff
// status` shows them.
func (s *Store) Overview(ctx context.Context) ([]store.WorkflowOverview, []error, error) {
	wfs, damaged, err := s.ListWorkflows(ctx)
	if err != nil {
		return nil, damaged, err
	}
	// One indexed lookup per workflow; the summary columns, no JSON.
	rows, err := s.db.QueryxContext(ctx, `SELECT `+store.SummaryColumns+`, s.seq
		FROM workflows w CROSS JOIN LATERAL (SELECT * FROM session_snapshots l WHERE l.workflow_id = w.id
			ORDER BY l.created_at DESC, l.id DESC LIMIT 1) s`)
	if err != nil {
		return nil, damaged, classify("list the latest snapshots", err)
	}
	defer rows.Close()
	latest := map[string]*store.SnapshotSummary{}
	for rows.Next() {
		sum, err := scanSummary(rows, nil)
		if err != nil {
			damaged = append(damaged, err)
			continue
		}
		latest[sum.WorkflowID] = sum
	}
	if err := rows.Err(); err != nil {
		return nil, damaged, classify("list the latest snapshots", err)
	}
	rows.Close()
	out := make([]store.WorkflowOverview, 0, len(wfs))
	for _, wf := range wfs {
		out = append(out, store.WorkflowOverview{Workflow: wf, Latest: latest[wf.ID]})
	}
	return out, damaged, store.Renumber(ctx, s.db, snapshotSessions, out, store.OverviewRef)
}

// CopyEvent records ev, an event read from another store (handoff sync),
// unless this store already holds the same event (workflow, type, time to
// the microsecond, detail), as store.Store.CopyEvent does; it reports
// whether it recorded it.
func (s *Store) CopyEvent(ctx context.Context, ev handoff.Event) (bool, error) {
	op := fmt.Sprintf("copy %s event of workflow %s", ev.Type, ev.WorkflowID)
	at := ev.CreatedAt.UTC().Round(time.Microsecond) // timestamptz keeps microseconds
	copied := false
	err := s.inTx(ctx, op, true, func(tx *sqlx.Tx) error {
		copied = false
		var n int
		if err := tx.GetContext(ctx, &n, "SELECT COUNT(*) FROM workflows WHERE id = $1", ev.WorkflowID); err != nil {
			return classify(op, err)
		}
		if n == 0 {
			return handoff.Errorf(handoff.ENOTFOUND, "%s: no workflow %q", op, ev.WorkflowID)
		}
		if err := tx.GetContext(ctx, &n, "SELECT COUNT(*) FROM workflow_events WHERE workflow_id = $1 AND type = $2 AND created_at = $3 AND detail = $4",
			ev.WorkflowID, string(ev.Type), at, ev.Detail); err != nil {
			return classify(op, err)
		}
		if n > 0 {
			return nil
		}
		snap := ""
		if ev.SnapshotID != "" {
			if err := tx.GetContext(ctx, &n, "SELECT COUNT(*) FROM session_snapshots WHERE id = $1", ev.SnapshotID); err != nil {
				return classify(op, err)
			}
			if n > 0 {
				snap = ev.SnapshotID
			}
		}
		if err := addEvent(ctx, tx, ev.WorkflowID, ev.Type, snap, ev.Detail, at); err != nil {
			return err
		}
		copied = true
		return nil
	})
	return copied, err
}

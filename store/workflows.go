package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	handoff "github.com/handoff-cli/handoff"
)

// workflowColumns are the workflows columns, named as handoff.Workflow's db
// tags so rows scan straight into it.
const workflowColumns = "id, name, status, dir, session_count, paused_at, pause_reason, start_commit, created_at, updated_at"

// Workflow loads one workflow by id; ENOTFOUND when there is none.
func (s *Store) Workflow(ctx context.Context, id string) (*handoff.Workflow, error) {
	var wf handoff.Workflow
	err := s.db.GetContext(ctx, &wf, "SELECT "+workflowColumns+" FROM workflows WHERE id = ?", id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, handoff.Errorf(handoff.ENOTFOUND, "no workflow %q", id)
	}
	if err != nil {
		return nil, classify("load workflow "+id, err)
	}
	return &wf, nil
}

// Workflows lists every workflow, most recently active first. Rows that do
// not read are skipped (ListWorkflows reports them).
func (s *Store) Workflows(ctx context.Context) ([]handoff.Workflow, error) {
	out, _, err := s.ListWorkflows(ctx)
	return out, err
}

// ListWorkflows lists every workflow, most recently active first. A row
// that does not read (a damaged timestamp, say) is skipped and reported in
// the second result, so one bad row never hides the others; the third
// result is for failures of the listing itself.
func (s *Store) ListWorkflows(ctx context.Context) ([]handoff.Workflow, []error, error) {
	rows, err := s.db.QueryxContext(ctx, "SELECT "+workflowColumns+" FROM workflows ORDER BY updated_at DESC, id")
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
			s.log.Debug("skipped unreadable workflow row", "db", s.path, "err", err)
			continue
		}
		out = append(out, wf)
	}
	if err := rows.Err(); err != nil {
		return out, damaged, classify("list workflows", err)
	}
	return out, damaged, nil
}

// SetWorkflowStatus moves a workflow to status to, if the lifecycle allows
// it (handoff.WorkflowStatus.Transition), and records the event in the
// same write transaction: WORKFLOW_PAUSED on pausing (paused_at and
// pause_reason are set), WORKFLOW_RESUMED on leaving paused for
// in_progress, WORKFLOW_STATUS_CHANGED otherwise. Setting the status a
// workflow already has changes nothing and records nothing. A disallowed
// move is ECONFLICT, an unknown status EINVALID, a missing workflow
// ENOTFOUND.
func (s *Store) SetWorkflowStatus(ctx context.Context, id string, to handoff.WorkflowStatus, reason string) error {
	op := fmt.Sprintf("set workflow %s to %s", id, to)
	return s.inTx(ctx, op, func(tx *sqlx.Tx) error {
		_, err := transitionTx(ctx, tx, id, to, statusChange{reason: reason}, formatTime(s.clock()))
		return err
	})
}

// statusChange says what a transition records beside the new status.
type statusChange struct {
	reason string
	// snapshotID is the snapshot the event refers to, if any.
	snapshotID string
	// event overrides the event type chosen from the states.
	event handoff.EventType
	// always records the event even when the status does not change (a
	// resume of a workflow already in progress is still a new session).
	always bool
}

// transitionTx moves workflow id to status to inside tx, through the one
// lifecycle check (handoff.WorkflowStatus.Transition), and records the
// event. It returns the status the workflow had.
func transitionTx(ctx context.Context, tx *sqlx.Tx, id string, to handoff.WorkflowStatus, c statusChange, now string) (handoff.WorkflowStatus, error) {
	op := fmt.Sprintf("set workflow %s to %s", id, to)
	var from handoff.WorkflowStatus
	err := tx.GetContext(ctx, &from, "SELECT status FROM workflows WHERE id = ?", id)
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
	var pausedAt any // NULL unless pausing
	pauseReason := ""
	if to == handoff.WorkflowPaused {
		pausedAt, pauseReason = now, c.reason
	}
	if _, err := tx.ExecContext(ctx,
		"UPDATE workflows SET status = ?, paused_at = ?, pause_reason = ?, updated_at = ?, status_changed_at = ? WHERE id = ?",
		string(to), pausedAt, pauseReason, now, now, id); err != nil {
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

// Events lists a workflow's events, oldest first, or every workflow's when
// workflowID is empty, skipping rows that do not read (ListEvents reports
// them). ENOTFOUND when the workflow does not exist.
func (s *Store) Events(ctx context.Context, workflowID string) ([]handoff.Event, error) {
	out, _, err := s.ListEvents(ctx, workflowID)
	return out, err
}

// ListEvents is Events with the unreadable rows reported in the second
// result instead of failing the listing.
func (s *Store) ListEvents(ctx context.Context, workflowID string) ([]handoff.Event, []error, error) {
	query := "SELECT id, workflow_id, type, COALESCE(snapshot_id, '') AS snapshot_id, detail, created_at FROM workflow_events"
	var args []any
	if workflowID != "" {
		if _, err := s.Workflow(ctx, workflowID); err != nil {
			return nil, nil, err
		}
		query += " WHERE workflow_id = ?"
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
			s.log.Debug("skipped unreadable event row", "db", s.path, "err", err)
			continue
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return out, damaged, classify("list events", err)
	}
	return out, damaged, nil
}

// CopyEvent records ev, an event read from another store (handoff sync),
// unless this store already holds the same event: same workflow, type,
// time and detail. It reports whether it recorded it, so copying twice
// records once. The workflow must exist here (ENOTFOUND otherwise); the
// snapshot the event refers to is kept only when this store holds it.
// The workflow's status is not changed: the event is history.
func (s *Store) CopyEvent(ctx context.Context, ev handoff.Event) (bool, error) {
	op := fmt.Sprintf("copy %s event of workflow %s", ev.Type, ev.WorkflowID)
	copied := false
	err := s.inTx(ctx, op, func(tx *sqlx.Tx) error {
		copied = false
		var n int
		if err := tx.GetContext(ctx, &n, "SELECT COUNT(*) FROM workflows WHERE id = ?", ev.WorkflowID); err != nil {
			return classify(op, err)
		}
		if n == 0 {
			return handoff.Errorf(handoff.ENOTFOUND, "%s: no workflow %q", op, ev.WorkflowID)
		}
		at := formatTime(ev.CreatedAt.Round(time.Microsecond))
		if err := tx.GetContext(ctx, &n, "SELECT COUNT(*) FROM workflow_events WHERE workflow_id = ? AND type = ? AND created_at = ? AND detail = ?",
			ev.WorkflowID, string(ev.Type), at, ev.Detail); err != nil {
			return classify(op, err)
		}
		if n > 0 {
			return nil
		}
		snap := ""
		if ev.SnapshotID != "" {
			if err := tx.GetContext(ctx, &n, "SELECT COUNT(*) FROM session_snapshots WHERE id = ?", ev.SnapshotID); err != nil {
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

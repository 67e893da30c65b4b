package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	handoff "github.com/handoff-cli/handoff"
)

// workflowColumns are the workflows columns, named as handoff.Workflow's db
// tags so rows scan straight into it.
const workflowColumns = "id, name, status, dir, session_count, paused_at, pause_reason, created_at, updated_at"

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

// Workflows lists every workflow, most recently active first.
func (s *Store) Workflows(ctx context.Context) ([]handoff.Workflow, error) {
	var out []handoff.Workflow
	if err := s.db.SelectContext(ctx, &out, "SELECT "+workflowColumns+" FROM workflows ORDER BY updated_at DESC, id"); err != nil {
		return nil, classify("list workflows", err)
	}
	return out, nil
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
		var from handoff.WorkflowStatus
		err := tx.GetContext(ctx, &from, "SELECT status FROM workflows WHERE id = ?", id)
		if errors.Is(err, sql.ErrNoRows) {
			return handoff.Errorf(handoff.ENOTFOUND, "no workflow %q", id)
		}
		if err != nil {
			return classify(op, err)
		}
		if err := from.Transition(to); err != nil {
			return fmt.Errorf("workflow %s: %w", id, err)
		}
		if from == to {
			return nil
		}
		now := formatTime(s.now())
		var pausedAt any // NULL unless pausing
		pauseReason := ""
		if to == handoff.WorkflowPaused {
			pausedAt, pauseReason = now, reason
		}
		if _, err := tx.ExecContext(ctx,
			"UPDATE workflows SET status = ?, paused_at = ?, pause_reason = ?, updated_at = ? WHERE id = ?",
			string(to), pausedAt, pauseReason, now, id); err != nil {
			return classify(op, err)
		}
		typ := handoff.EventStatusChanged
		switch {
		case to == handoff.WorkflowPaused:
			typ = handoff.EventWorkflowPaused
		case from == handoff.WorkflowPaused && to == handoff.WorkflowInProgress:
			typ = handoff.EventWorkflowResumed
		}
		detail := fmt.Sprintf("%s -> %s", from, to)
		if reason != "" {
			detail += ": " + reason
		}
		return addEvent(ctx, tx, id, typ, "", detail, now)
	})
}

// Events lists a workflow's events, oldest first, or every workflow's when
// workflowID is empty. ENOTFOUND when the workflow does not exist.
func (s *Store) Events(ctx context.Context, workflowID string) ([]handoff.Event, error) {
	const columns = "SELECT id, workflow_id, type, COALESCE(snapshot_id, '') AS snapshot_id, detail, created_at FROM workflow_events"
	var out []handoff.Event
	if workflowID == "" {
		if err := s.db.SelectContext(ctx, &out, columns+" ORDER BY id"); err != nil {
			return nil, classify("list events", err)
		}
		return out, nil
	}
	if _, err := s.Workflow(ctx, workflowID); err != nil {
		return nil, err
	}
	if err := s.db.SelectContext(ctx, &out, columns+" WHERE workflow_id = ? ORDER BY id", workflowID); err != nil {
		return nil, classify("list events of workflow "+workflowID, err)
	}
	return out, nil
}

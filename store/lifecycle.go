package store

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	handoff "github.com/handoff-cli/handoff"
)

// PauseSnapshot stores snap as the next session of its workflow and pauses
// the workflow, in one write transaction: the snapshot, its
// SNAPSHOT_CREATED event, the status change (through the lifecycle check)
// and the WORKFLOW_PAUSED event all commit together or not at all. A
// workflow that may not be paused (completed, cancelled, failed) is
// ECONFLICT and nothing is stored. snap is updated as by SaveSnapshot.
func (s *Store) PauseSnapshot(ctx context.Context, snap *handoff.Snapshot, wf WorkflowInfo, reason string) error {
	return s.saveWith(ctx, "pause workflow", snap, wf, func(tx *sqlx.Tx, draft *handoff.Snapshot, now string) error {
		_, err := transitionTx(ctx, tx, draft.WorkflowID, handoff.WorkflowPaused,
			statusChange{reason: reason, snapshotID: draft.ID, event: handoff.EventWorkflowPaused}, now)
		return err
	})
}

// Resumed is what Resume did.
type Resumed struct {
	// Workflow is the workflow as it is now (in_progress).
	Workflow handoff.Workflow
	// From is the status it had.
	From handoff.WorkflowStatus
	// Session is the number of the session the resume starts.
	Session int
}

// Resume claims a workflow and starts its next session from snapshot
// snapshotID (which the caller has loaded): the workflow becomes
// in_progress through the lifecycle check, its session count covers the
// new session, and a WORKFLOW_RESUMED event referring to the snapshot is
// recorded, in one write transaction (BEGIN IMMEDIATE, so two resumes
// are serialised). A workflow already in progress has been claimed by
// another session: ECLAIMED, unless force (that session stopped without
// pausing), and then the resume is recorded too; completed and cancelled
// workflows are ECONFLICT.
func (s *Store) Resume(ctx context.Context, workflowID, snapshotID string, force bool) (*Resumed, error) {
	op := "resume workflow " + workflowID
	var out Resumed
	err := s.inTx(ctx, op, func(tx *sqlx.Tx) error {
		if err := claimable(ctx, tx, "SELECT status FROM workflows WHERE id = ?", workflowID, force); err != nil {
			return err
		}
		var last int
		if err := tx.GetContext(ctx, &last, SessionCountSQL, workflowID); err != nil {
			return classify(op, err)
		}
		now := formatTime(s.clock())
		from, err := transitionTx(ctx, tx, workflowID, handoff.WorkflowInProgress, statusChange{
			reason:     fmt.Sprintf("session %d from snapshot %s", last+1, snapshotID),
			snapshotID: snapshotID,
			event:      handoff.EventWorkflowResumed,
			always:     true,
		}, now)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE workflows SET session_count = MAX(session_count, ?) WHERE id = ?", last+1, workflowID); err != nil {
			return classify(op, err)
		}
		out = Resumed{From: from, Session: last + 1}
		return tx.GetContext(ctx, &out.Workflow, "SELECT "+workflowColumns+" FROM workflows WHERE id = ?", workflowID)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// Fork starts a new workflow from a copy of a historical snapshot: snap
// (the copy, already edited by the caller) becomes session 1 of workflow
// snap.WorkflowID, which must not exist yet (ECONFLICT otherwise). The new
// workflow is paused, ready for `resume`, and records WORKFLOW_CREATED and
// SNAPSHOT_CREATED like any first snapshot, then WORKFLOW_FORKED naming
// sourceID. The source is not touched. snap is updated as by SaveSnapshot.
func (s *Store) Fork(ctx context.Context, snap *handoff.Snapshot, wf WorkflowInfo, sourceID, note string) error {
	if snap != nil && snap.WorkflowID != "" {
		if _, err := s.Workflow(ctx, snap.WorkflowID); err == nil {
			return handoff.Errorf(handoff.ECONFLICT, "fork: workflow %q already exists", snap.WorkflowID)
		}
	}
	return s.saveWith(ctx, "fork snapshot "+sourceID, snap, wf, func(tx *sqlx.Tx, draft *handoff.Snapshot, now string) error {
		if draft.SessionNumber != 1 {
			return handoff.Errorf(handoff.ECONFLICT, "fork: workflow %q already exists", draft.WorkflowID)
		}
		detail := "from snapshot " + sourceID
		if note != "" {
			detail += ": " + note
		}
		if err := addEvent(ctx, tx, draft.WorkflowID, handoff.EventWorkflowForked, draft.ID, detail, now); err != nil {
			return err
		}
		_, err := transitionTx(ctx, tx, draft.WorkflowID, handoff.WorkflowPaused,
			statusChange{reason: "forked " + detail, snapshotID: draft.ID}, now)
		return err
	})
}

package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jmoiron/sqlx"

	handoff "github.com/handoff-cli/handoff"
)

// ErrClaimedHint is what a refused claim tells the person to do.
const ErrClaimedHint = "another session resumed it and has not paused since; pause it there, or resume with --force if that session is gone"

// claimable checks inside a write transaction that workflowID may be
// claimed by a resume: it is not in progress already, unless force.
// query reads the workflow's status (and, in PostgreSQL, locks its row).
// A missing workflow is left to the transition to report.
func claimable(ctx context.Context, tx *sqlx.Tx, query, workflowID string, force bool) error {
	var status handoff.WorkflowStatus
	err := tx.GetContext(ctx, &status, query, workflowID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return classify("resume workflow "+workflowID, err)
	}
	return Claimable(workflowID, status, force)
}

// Claimable is the claim rule both stores apply: a workflow in progress
// has been claimed by another session's resume, and a second resume is
// ECLAIMED unless forced.
func Claimable(workflowID string, status handoff.WorkflowStatus, force bool) error {
	if status == handoff.WorkflowInProgress && !force {
		return handoff.Errorf(handoff.ECLAIMED, "workflow %s is already in progress: %s", workflowID, ErrClaimedHint)
	}
	return nil
}

package store

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	handoff "github.com/handoff-cli/handoff"
)

// GCCandidate is a workflow retention removes (or, in a dry run, would).
type GCCandidate struct {
	ID        string                 `json:"id" db:"id"`
	Name      string                 `json:"name" db:"name"`
	Status    handoff.WorkflowStatus `json:"status" db:"status"`
	UpdatedAt time.Time              `json:"updated_at" db:"updated_at"`
	Snapshots int                    `json:"snapshots" db:"snapshots"`
}

// gcQuery selects what retention may remove: workflows finished for good.
// Failed workflows can be retried, so they stay, as does everything open.
const gcQuery = `SELECT w.id, w.name, w.status, w.updated_at,
	(SELECT count(*) FROM session_snapshots s WHERE s.workflow_id = w.id) AS snapshots
	FROM workflows w
	WHERE w.status IN ('` + string(handoff.WorkflowCompleted) + `', '` + string(handoff.WorkflowCancelled) + `')
	AND w.updated_at < ?
	ORDER BY w.updated_at, w.id`

// GC removes completed and cancelled workflows last active before cutoff,
// with their snapshots and events, in one write transaction, and returns
// what it removed. With dryRun it only reports. Open workflows (pending,
// in progress, paused, blocked, failed) are never touched, so the latest
// snapshot of an open workflow always survives.
func (s *Store) GC(ctx context.Context, cutoff time.Time, dryRun bool) ([]GCCandidate, error) {
	const op = "garbage-collect workflows"
	if dryRun {
		var out []GCCandidate
		if err := s.db.SelectContext(ctx, &out, gcQuery, formatTime(cutoff)); err != nil {
			return nil, classify(op, err)
		}
		return out, nil
	}
	var out []GCCandidate
	err := s.inTx(ctx, op, func(tx *sqlx.Tx) error {
		out = nil
		if err := tx.SelectContext(ctx, &out, gcQuery, formatTime(cutoff)); err != nil {
			return classify(op, err)
		}
		for _, c := range out {
			// The status is checked again in the DELETE itself: the rows
			// were read under the same write lock, but the statement
			// should never be able to remove an open workflow.
			if _, err := tx.ExecContext(ctx, "DELETE FROM workflows WHERE id = ? AND status IN (?, ?)",
				c.ID, string(handoff.WorkflowCompleted), string(handoff.WorkflowCancelled)); err != nil {
				return classify(op+" "+c.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

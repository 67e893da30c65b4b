package postgres

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// Fork starts a new workflow from a copy of a historical snapshot, as
// store.Store.Fork does: snap becomes session 1 of a workflow that must
// not exist yet (ECONFLICT otherwise), paused, with WORKFLOW_FORKED naming
// sourceID, all in one transaction.
func (s *Store) Fork(ctx context.Context, snap *handoff.Snapshot, wf store.WorkflowInfo, sourceID, note string) error {
	if snap != nil && snap.WorkflowID != "" {
		if _, err := s.Workflow(ctx, snap.WorkflowID); err == nil {
			return handoff.Errorf(handoff.ECONFLICT, "fork: workflow %q already exists", snap.WorkflowID)
		}
	}
	return s.saveWith(ctx, "fork snapshot "+sourceID, snap, wf, func(tx *sqlx.Tx, draft *handoff.Snapshot, now time.Time) error {
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

// gcQuery selects what retention may remove: completed and cancelled
// workflows last active before $1.
const gcQuery = `SELECT w.id, w.name, w.status, w.updated_at,
	(SELECT count(*) FROM session_snapshots s WHERE s.workflow_id = w.id) AS snapshots
	FROM workflows w
	WHERE w.status IN ('` + string(handoff.WorkflowCompleted) + `', '` + string(handoff.WorkflowCancelled) + `')
	AND w.updated_at < $1
	ORDER BY w.updated_at, w.id COLLATE "C"`

// GC removes completed and cancelled workflows last active before cutoff,
// with their snapshots and events, in one transaction (dryRun only
// reports), as store.Store.GC does. Open workflows are never touched.
func (s *Store) GC(ctx context.Context, cutoff time.Time, dryRun bool) ([]store.GCCandidate, error) {
	const op = "garbage-collect workflows"
	var out []store.GCCandidate
	utc := func() {
		for i := range out {
			out[i].UpdatedAt = out[i].UpdatedAt.UTC()
		}
	}
	if dryRun {
		if err := s.db.SelectContext(ctx, &out, gcQuery, cutoff); err != nil {
			return nil, classify(op, err)
		}
		utc()
		return out, nil
	}
	err := s.inTx(ctx, op, false, func(tx *sqlx.Tx) error {
		out = nil
		if err := tx.SelectContext(ctx, &out, gcQuery+" FOR UPDATE OF w", cutoff); err != nil {
			return classify(op, err)
		}
		for _, c := range out {
			if _, err := tx.ExecContext(ctx, "DELETE FROM workflows WHERE id = $1 AND status IN ($2, $3)",
				c.ID, string(handoff.WorkflowCompleted), string(handoff.WorkflowCancelled)); err != nil {
				return classify(op+" "+c.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	utc()
	return out, nil
}

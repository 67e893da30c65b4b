package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// clock is now in UTC to the microsecond, what timestamptz keeps.
func (s *Store) clock() time.Time { return s.now().UTC().Round(time.Microsecond) }

// stateColumns are the workflow columns sync compares.
const stateColumns = workflowColumns + ", status_changed_at"

// utcState normalises a state's timestamps to UTC.
func utcState(w *store.WorkflowState) {
	utcWorkflow(&w.Workflow)
	if w.StatusChangedAt != nil {
		t := w.StatusChangedAt.UTC()
		w.StatusChangedAt = &t
	}
}

// insertSnapshot writes the snapshot row with its summary columns and
// who made it.
func insertSnapshot(ctx context.Context, tx *sqlx.Tx, draft *handoff.Snapshot, body, hash, agentSession, digest string, maker store.Maker) error {
	sum := store.Summarize(draft)
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO session_snapshots (id, workflow_id, session_number, agent_session, digest, "trigger", schema_version, snapshot_json, content_hash, created_at,
			machine, author, goal, utilization, decisions, open_errors)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
		draft.ID, draft.WorkflowID, draft.SessionNumber, agentSession, digest, string(draft.Trigger), draft.SchemaVersion, body, hash, draft.CreatedAt,
		maker.Machine, maker.User, sum.Goal, sum.Utilization, sum.Decisions, sum.OpenErrors); err != nil {
		return classify("save snapshot "+draft.ID, err)
	}
	return indexSnapshot(ctx, tx, draft, agentSession)
}

// WorkflowStates lists every workflow with when its status last moved,
// for handoff sync.
func (s *Store) WorkflowStates(ctx context.Context) ([]store.WorkflowState, error) {
	var out []store.WorkflowState
	if err := s.db.SelectContext(ctx, &out, "SELECT "+stateColumns+" FROM workflows ORDER BY id"); err != nil {
		return nil, classify("list workflows to sync", err)
	}
	for i := range out {
		utcState(&out[i])
	}
	return out, nil
}

// MarkSynced records that states, as WorkflowStates read them here, are
// now on the other store too, as store.Store.MarkSynced does.
func (s *Store) MarkSynced(ctx context.Context, states []store.WorkflowState) error {
	return s.inTx(ctx, "mark workflows synced", true, func(tx *sqlx.Tx) error {
		for _, w := range states {
			if _, err := tx.ExecContext(ctx, "UPDATE workflows SET status_synced_at = status_changed_at WHERE id = $1 AND status_changed_at IS NOT DISTINCT FROM $2",
				w.ID, w.StatusChangedAt); err != nil {
				return classify("mark workflow "+w.ID+" synced", err)
			}
		}
		return nil
	})
}

// SnapshotMetas lists every snapshot's identity, agent session and
// origin without its JSON, for handoff sync.
func (s *Store) SnapshotMetas(ctx context.Context) ([]store.SnapshotMeta, error) {
	var out []store.SnapshotMeta
	if err := s.db.SelectContext(ctx, &out,
		"SELECT id, workflow_id, agent_session, digest, machine, author, created_at FROM session_snapshots ORDER BY created_at, id"); err != nil {
		return nil, classify("list snapshots to sync", err)
	}
	for i := range out {
		out[i].CreatedAt = out[i].CreatedAt.UTC()
	}
	return out, nil
}

// MergeWorkflow brings remote into this store as store.Store.MergeWorkflow
// does (created when missing; status by store.MergeStatus, with
// store.EventSyncResolved when it changes and role says so).
func (s *Store) MergeWorkflow(ctx context.Context, remote store.WorkflowState, role store.MergeRole) (bool, error) {
	op := "merge workflow " + remote.ID
	changed := false
	changedAt := remote.StatusChangedAt
	err := s.inTx(ctx, op, true, func(tx *sqlx.Tx) error {
		changed = false
		var local struct {
			store.WorkflowState
			Unsynced bool `db:"unsynced"`
		}
		err := tx.GetContext(ctx, &local, "SELECT "+stateColumns+", status_synced_at IS DISTINCT FROM status_changed_at AS unsynced FROM workflows WHERE id = $1 FOR UPDATE", remote.ID)
		if errors.Is(err, sql.ErrNoRows) {
			res, err := tx.ExecContext(ctx, `INSERT INTO workflows (id, name, dir, status, session_count, paused_at, pause_reason, start_commit, created_at, updated_at,
				status_changed_at, status_synced_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) ON CONFLICT (id) DO NOTHING`,
				remote.ID, remote.Name, remote.Dir, string(remote.Status), remote.SessionCount, remote.PausedAt, remote.PauseReason,
				remote.StartCommit, remote.CreatedAt, remote.UpdatedAt, changedAt)
			if err != nil {
				return classify(op, err)
			}
			n, _ := res.RowsAffected()
			changed = n == 1
			return nil
		}
		if err != nil {
			return classify(op, err)
		}
		utcState(&local.WorkflowState)
		if !store.SameStatus(local.WorkflowState, remote) {
			if wins, why := store.MergeStatus(local.WorkflowState, remote); wins {
				changed = true
				if _, err := tx.ExecContext(ctx, "UPDATE workflows SET status = $1, paused_at = $2, pause_reason = $3, status_changed_at = $4, status_synced_at = $4 WHERE id = $5",
					string(remote.Status), remote.PausedAt, remote.PauseReason, changedAt, remote.ID); err != nil {
					return classify(op, err)
				}
				if local.Status != remote.Status && (role == store.Receiving || local.Unsynced) {
					detail, at := store.Resolution(local.WorkflowState, remote, why)
					var n int
					if err := tx.GetContext(ctx, &n, "SELECT COUNT(*) FROM workflow_events WHERE workflow_id = $1 AND type = $2 AND created_at = $3 AND detail = $4",
						remote.ID, string(store.EventSyncResolved), at, detail); err != nil {
						return classify(op, err)
					}
					if n == 0 {
						if err := addEvent(ctx, tx, remote.ID, store.EventSyncResolved, "", detail, at); err != nil {
							return err
						}
					}
				}
			}
		}
		if remote.SessionCount > local.SessionCount || remote.UpdatedAt.After(local.UpdatedAt) || (local.StartCommit == "" && remote.StartCommit != "") {
			changed = true
			_, err := tx.ExecContext(ctx, `UPDATE workflows SET session_count = GREATEST(session_count, $1), updated_at = GREATEST(updated_at, $2),
				start_commit = CASE WHEN start_commit = '' THEN $3 ELSE start_commit END WHERE id = $4`,
				remote.SessionCount, remote.UpdatedAt, remote.StartCommit, remote.ID)
			return classify(op, err)
		}
		return nil
	})
	return changed, err
}

// ImportSnapshot stores snap, read from another store by handoff sync,
// under its own id, time, agent session and origin, as
// store.Store.ImportSnapshot does (session numbers are read, not
// stored, so no other snapshot changes).
// A snapshot whose id or content hash is here already is not stored
// again.
func (s *Store) ImportSnapshot(ctx context.Context, snap *handoff.Snapshot, meta store.SnapshotMeta) (bool, error) {
	op := "import snapshot " + snap.ID
	stored := false
	err := s.inTx(ctx, op, true, func(tx *sqlx.Tx) error {
		stored = false
		var n int
		err := tx.GetContext(ctx, &n, "SELECT 1 FROM workflows WHERE id = $1 FOR UPDATE", snap.WorkflowID)
		if errors.Is(err, sql.ErrNoRows) {
			return handoff.Errorf(handoff.ENOTFOUND, "%s: no workflow %q", op, snap.WorkflowID)
		}
		if err != nil {
			return classify(op, err)
		}
		draft := *snap
		if draft.SchemaVersion == 0 {
			draft.SchemaVersion = handoff.SnapshotSchemaVersion
		}
		draft.CreatedAt = draft.CreatedAt.UTC()
		hash, err := ContentHash(&draft)
		if err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &n, "SELECT COUNT(*) FROM session_snapshots WHERE id = $1 OR content_hash = $2", draft.ID, hash); err != nil {
			return classify(op, err)
		}
		if n > 0 {
			return nil
		}
		n, sessions, err := store.SessionNumberOf(ctx, tx, snapshotTable, numbering,
			store.SessionRow{ID: draft.ID, WorkflowID: draft.WorkflowID, AgentSession: meta.AgentSession, CreatedAt: draft.CreatedAt})
		if err != nil {
			return err
		}
		draft.SessionNumber = n
		body, err := json.Marshal(&draft)
		if err != nil {
			return handoff.Errorf(handoff.EINVALID, "%s: encode snapshot: %w", op, err)
		}
		if err := insertSnapshot(ctx, tx, &draft, string(body), hash, meta.AgentSession, meta.Digest, store.Maker{Machine: meta.Machine, User: meta.Author}); err != nil {
			return err
		}
		stored = true
		if _, err := tx.ExecContext(ctx, "UPDATE workflows SET session_count = GREATEST(session_count, $1) WHERE id = $2", sessions, draft.WorkflowID); err != nil {
			return classify(op, err)
		}
		return nil
	})
	return stored, err
}

// renumberAll renumbers every workflow's sessions by
// store.SessionNumbers, once, after the step that made numbers derived.
func (s *Store) renumberAll(ctx context.Context) error {
	var ids []string
	if err := s.db.SelectContext(ctx, &ids, "SELECT id FROM workflows"); err != nil {
		return classify("list workflows to renumber", err)
	}
	for _, id := range ids {
		if err := s.inTx(ctx, "renumber workflow "+id, true, func(tx *sqlx.Tx) error { return renumberTx(ctx, tx, id) }); err != nil {
			return err
		}
	}
	return nil
}

// renumberTx gives every snapshot of a workflow the session number
// store.SessionNumbers assigns, in the column and inside its JSON, and
// makes the session count cover them: one statement numbers the sessions
// (window over each session's first snapshot, ties by the agent session
// in byte order) and rewrites only the rows whose number moved, so an
// out-of-order save costs no round trip per later snapshot.
func renumberTx(ctx context.Context, tx *sqlx.Tx, workflowID string) error {
	if _, err := tx.ExecContext(ctx, renumberSQL, workflowID); err != nil {
		return classify("number the sessions of workflow "+workflowID, err)
	}
	return nil
}

// renumberSQL is renumberTx's statement ($1 the workflow): store.SessionNumbers
// in SQL. A snapshot without an agent session is a session of its own
// (key "row:"+id, as SessionNumbers keys it).
const renumberSQL = `WITH keyed AS (
		SELECT id, session_number, COALESCE(NULLIF(agent_session, ''), 'row:' || id) AS k, created_at
		FROM session_snapshots WHERE workflow_id = $1),
	sessions AS (
		SELECT k, row_number() OVER (ORDER BY MIN(created_at), k COLLATE "C") AS n FROM keyed GROUP BY k),
	moved AS (
		UPDATE session_snapshots s SET session_number = sessions.n,
			snapshot_json = CASE WHEN jsonb_typeof(s.snapshot_json) = 'object'
				THEN jsonb_set(s.snapshot_json, '{session_number}', to_jsonb(sessions.n::int)) ELSE s.snapshot_json END
		FROM keyed JOIN sessions ON sessions.k = keyed.k
		WHERE s.id = keyed.id AND keyed.session_number <> sessions.n)
	UPDATE workflows SET session_count = GREATEST(session_count, (SELECT COUNT(*) FROM sessions)) WHERE id = $1`

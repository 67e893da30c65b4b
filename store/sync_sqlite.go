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

// stateColumns are the workflow columns sync compares.
const stateColumns = workflowColumns + ", status_changed_at"

// WorkflowStates lists every workflow with when its status last moved,
// for handoff sync.
func (s *Store) WorkflowStates(ctx context.Context) ([]WorkflowState, error) {
	var out []WorkflowState
	if err := s.db.SelectContext(ctx, &out, "SELECT "+stateColumns+" FROM workflows ORDER BY id"); err != nil {
		return nil, classify("list workflows to sync", err)
	}
	return out, nil
}

// SnapshotMetas lists every snapshot's identity, agent session and
// origin without its JSON, for handoff sync.
func (s *Store) SnapshotMetas(ctx context.Context) ([]SnapshotMeta, error) {
	var out []SnapshotMeta
	if err := s.db.SelectContext(ctx, &out,
		"SELECT id, workflow_id, agent_session, digest, machine, author, created_at FROM snapshot_summaries ORDER BY created_at, id"); err != nil {
		return nil, classify("list snapshots to sync", err)
	}
	return out, nil
}

// MergeWorkflow brings remote, the same workflow as another store holds
// it, into this store: a workflow missing here is created as it is there;
// one present takes remote's status, reason and pause time when
// MergeStatus says remote's wins, recording EventSyncResolved when the
// status itself changes and role says so (MergeRole). A status taken from
// remote counts as synced. The session count and activity time become
// the larger of the two. It reports whether anything changed.
func (s *Store) MergeWorkflow(ctx context.Context, remote WorkflowState, role MergeRole) (bool, error) {
	op := "merge workflow " + remote.ID
	changed := false
	err := s.inTx(ctx, op, func(tx *sqlx.Tx) error {
		changed = false
		var local struct {
			WorkflowState
			Unsynced bool `db:"unsynced"`
		}
		err := tx.GetContext(ctx, &local, "SELECT "+stateColumns+", status_synced_at IS NOT status_changed_at AS unsynced FROM workflows WHERE id = ?", remote.ID)
		if errors.Is(err, sql.ErrNoRows) {
			changed = true
			_, err := tx.ExecContext(ctx, `INSERT INTO workflows (id, name, dir, status, session_count, paused_at, pause_reason, start_commit, created_at, updated_at,
				status_changed_at, status_synced_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				remote.ID, remote.Name, remote.Dir, string(remote.Status), remote.SessionCount, optTime(remote.PausedAt), remote.PauseReason,
				remote.StartCommit, formatTime(remote.CreatedAt), formatTime(remote.UpdatedAt), optTime(remote.StatusChangedAt), optTime(remote.StatusChangedAt))
			return classify(op, err)
		}
		if err != nil {
			return classify(op, err)
		}
		if !SameStatus(local.WorkflowState, remote) {
			if wins, why := MergeStatus(local.WorkflowState, remote); wins {
				changed = true
				if _, err := tx.ExecContext(ctx, `UPDATE workflows SET status = ?, paused_at = ?, pause_reason = ?, status_changed_at = ?, status_synced_at = ?
					WHERE id = ?`, string(remote.Status), optTime(remote.PausedAt), remote.PauseReason, optTime(remote.StatusChangedAt),
					optTime(remote.StatusChangedAt), remote.ID); err != nil {
					return classify(op, err)
				}
				if local.Status != remote.Status && (role == Receiving || local.Unsynced) {
					detail, at := Resolution(local.WorkflowState, remote, why)
					if err := addEventOnce(ctx, tx, remote.ID, EventSyncResolved, detail, formatTime(at)); err != nil {
						return err
					}
				}
			}
		}
		if remote.SessionCount > local.SessionCount || remote.UpdatedAt.After(local.UpdatedAt) || (local.StartCommit == "" && remote.StartCommit != "") {
			changed = true
			_, err := tx.ExecContext(ctx, `UPDATE workflows SET session_count = MAX(session_count, ?), updated_at = MAX(updated_at, ?),
				start_commit = CASE WHEN start_commit = '' THEN ? ELSE start_commit END WHERE id = ?`,
				remote.SessionCount, formatTime(remote.UpdatedAt), remote.StartCommit, remote.ID)
			return classify(op, err)
		}
		return nil
	})
	return changed, err
}

// MarkSynced records that states, as WorkflowStates read them here, are
// now on the other store too (sync pushed them): a later pull that
// overtakes one of them records no EventSyncResolved here (MergeRole).
// A workflow whose status moved since it was read stays unsynced.
func (s *Store) MarkSynced(ctx context.Context, states []WorkflowState) error {
	return s.inTx(ctx, "mark workflows synced", func(tx *sqlx.Tx) error {
		for _, w := range states {
			if _, err := tx.ExecContext(ctx, "UPDATE workflows SET status_synced_at = status_changed_at WHERE id = ? AND status_changed_at IS ?",
				w.ID, optTime(w.StatusChangedAt)); err != nil {
				return classify("mark workflow "+w.ID+" synced", err)
			}
		}
		return nil
	})
}

// addEventOnce records an event unless this store holds the same one
// (workflow, type, time, detail), as CopyEvent would find it.
func addEventOnce(ctx context.Context, tx *sqlx.Tx, workflowID string, typ handoff.EventType, detail, at string) error {
	var n int
	if err := tx.GetContext(ctx, &n, "SELECT COUNT(*) FROM workflow_events WHERE workflow_id = ? AND type = ? AND created_at = ? AND detail = ?",
		workflowID, string(typ), at, detail); err != nil {
		return classify(fmt.Sprintf("record %s event", typ), err)
	}
	if n > 0 {
		return nil
	}
	return addEvent(ctx, tx, workflowID, typ, "", detail, at)
}

// optTime is t for a nullable column.
func optTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return formatTime(*t)
}

// ImportSnapshot stores snap, read from another store by handoff sync,
// under its own id, time, agent session and origin (meta), unless a
// snapshot with that id is here already; it reports whether it stored
// it. The workflow must exist (MergeWorkflow first; ENOTFOUND
// otherwise). Session numbers are read, not stored (ReadSessionNumbers),
// so a snapshot that lands before this store's own takes its place in
// the order without touching them. No event is recorded: sync copies the
// other store's.
func (s *Store) ImportSnapshot(ctx context.Context, snap *handoff.Snapshot, meta SnapshotMeta) (bool, error) {
	op := "import snapshot " + snap.ID
	stored := false
	err := s.inTx(ctx, op, func(tx *sqlx.Tx) error {
		stored = false
		var n int
		if err := tx.GetContext(ctx, &n, "SELECT COUNT(*) FROM session_snapshots WHERE id = ?", snap.ID); err != nil {
			return classify(op, err)
		}
		if n > 0 {
			return nil
		}
		if err := tx.GetContext(ctx, &n, "SELECT COUNT(*) FROM workflows WHERE id = ?", snap.WorkflowID); err != nil {
			return classify(op, err)
		}
		if n == 0 {
			return handoff.Errorf(handoff.ENOTFOUND, "%s: no workflow %q", op, snap.WorkflowID)
		}
		draft := *snap
		if draft.SchemaVersion == 0 {
			draft.SchemaVersion = handoff.SnapshotSchemaVersion
		}
		draft.CreatedAt = draft.CreatedAt.UTC()
		n, sessions, err := SessionNumberOf(ctx, tx, summaryTable, sqliteNumbering, SessionRow{ID: draft.ID, WorkflowID: draft.WorkflowID, AgentSession: meta.AgentSession, CreatedAt: draft.CreatedAt})
		if err != nil {
			return err
		}
		draft.SessionNumber = n
		if err := insertSnapshot(ctx, tx, &draft, meta.AgentSession, meta.Digest, Maker{Machine: meta.Machine, User: meta.Author}); err != nil {
			return err
		}
		stored = true
		_, err = tx.ExecContext(ctx, "UPDATE workflows SET session_count = MAX(session_count, ?) WHERE id = ?", sessions, draft.WorkflowID)
		return classify(op, err)
	})
	return stored, err
}

// renumberAll renumbers every workflow's sessions by SessionNumbers,
// once, when the step that made numbers derived has just been applied:
// older files numbered sessions in order of arrival.
func (s *Store) renumberAll(ctx context.Context) error {
	var ids []string
	if err := s.db.SelectContext(ctx, &ids, "SELECT id FROM workflows"); err != nil {
		return classify("list workflows to renumber", err)
	}
	for _, id := range ids {
		if err := s.inTx(ctx, "renumber workflow "+id, func(tx *sqlx.Tx) error { return renumberTx(ctx, tx, id) }); err != nil {
			return err
		}
	}
	return nil
}

// renumberTx gives every snapshot of a workflow the session number
// SessionNumbers assigns, in the column and inside its JSON, and makes
// the workflow's session count cover them.
func renumberTx(ctx context.Context, tx *sqlx.Tx, workflowID string) error {
	op := "number the sessions of workflow " + workflowID
	var rows []SessionRow
	if err := tx.SelectContext(ctx, &rows,
		"SELECT id, agent_session, created_at, session_number FROM snapshot_summaries WHERE workflow_id = ?", workflowID); err != nil {
		return classify(op, err)
	}
	nums := SessionNumbers(rows)
	top := 0
	for _, r := range rows {
		n := nums[r.ID]
		top = max(top, n)
		if n == r.Number {
			continue
		}
		if _, err := tx.ExecContext(ctx, `UPDATE session_snapshots SET session_number = ?,
			snapshot_json = CASE WHEN json_valid(snapshot_json) THEN json_set(snapshot_json, '$.session_number', ?) ELSE snapshot_json END
			WHERE id = ?`, n, n, r.ID); err != nil {
			return classify(op, err)
		}
	}
	_, err := tx.ExecContext(ctx, "UPDATE workflows SET session_count = MAX(session_count, ?) WHERE id = ?", top, workflowID)
	return classify(op, err)
}

package postgres

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// ContentHash is the idempotency key of a snapshot: sha256 of its JSON
// without what a store assigns (id and session number), so the same
// snapshot saved twice, retried after a lost acknowledgement, or copied by
// sync between stores has one hash everywhere.
func ContentHash(snap *handoff.Snapshot) (string, error) {
	c := *snap
	c.ID, c.SessionNumber = "", 0
	c.CreatedAt = c.CreatedAt.UTC()
	body, err := json.Marshal(&c)
	if err != nil {
		return "", handoff.Errorf(handoff.EINVALID, "hash snapshot: %w", err)
	}
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:]), nil
}

// SaveSnapshot stores snap in the session of its agent session
// (wf.Session, else store.SessionKey) or, for a new agent session, as the
// next session of its workflow, in one transaction (workflow created if
// missing, session count, events), as the SQLite store does. When the
// agent session's newest snapshot has wf.Digest, nothing is stored and
// snap becomes that snapshot. A snapshot whose content hash is already
// stored is not stored again either: snap becomes the stored one and no
// error is returned, so a retried save is harmless.
func (s *Store) SaveSnapshot(ctx context.Context, snap *handoff.Snapshot, wf store.WorkflowInfo) error {
	return s.saveWith(ctx, "save snapshot", snap, wf, nil)
}

// PauseSnapshot is SaveSnapshot plus pausing the workflow and its
// WORKFLOW_PAUSED event, together; ECONFLICT when the workflow may not be
// paused, and then nothing is stored.
func (s *Store) PauseSnapshot(ctx context.Context, snap *handoff.Snapshot, wf store.WorkflowInfo, reason string) error {
	return s.saveWith(ctx, "pause workflow", snap, wf, func(tx *sqlx.Tx, draft *handoff.Snapshot, now time.Time) error {
		_, err := transitionTx(ctx, tx, draft.WorkflowID, handoff.WorkflowPaused,
			statusChange{reason: reason, snapshotID: draft.ID, event: handoff.EventWorkflowPaused}, now)
		return err
	})
}

// saveWith validates snap and stores it with then (if any) in one
// transaction, retried whole on collisions and lost connections: the clock
// and id are fixed before the first attempt so every attempt has the same
// content hash and a commit whose acknowledgement was lost is found, not
// duplicated.
func (s *Store) saveWith(ctx context.Context, op string, snap *handoff.Snapshot, wf store.WorkflowInfo,
	then func(tx *sqlx.Tx, draft *handoff.Snapshot, now time.Time) error) error {
	if snap == nil {
		return handoff.Errorf(handoff.EINVALID, "%s: no snapshot", op)
	}
	if snap.WorkflowID == "" {
		return handoff.Errorf(handoff.EINVALID, "%s: the snapshot has no workflow id", op)
	}
	if !snap.Trigger.Valid() {
		return handoff.Errorf(handoff.EINVALID, "%s: unknown trigger %q", op, snap.Trigger)
	}
	clock := s.clock()
	id := snap.ID
	if id == "" {
		id = store.NewID("snap_")
	}
	var stored handoff.Snapshot
	err := s.inTx(ctx, op, true, func(tx *sqlx.Tx) error {
		draft := *snap
		if draft.GitState != nil {
			g := *draft.GitState
			draft.GitState = &g
		}
		draft.ID = id
		if draft.SchemaVersion == 0 {
			draft.SchemaVersion = handoff.SnapshotSchemaVersion
		}
		if draft.CreatedAt.IsZero() {
			draft.CreatedAt = clock
		}
		draft.CreatedAt = draft.CreatedAt.UTC()
		dup, same, err := s.saveTx(ctx, tx, &draft, wf, clock)
		if err != nil {
			return err
		}
		if same != nil {
			// Unchanged content: nothing new is stored, but a pause still
			// applies to the snapshot that holds it (a no-op when the
			// workflow is already paused).
			draft = *same
		}
		if dup == nil && then != nil {
			if err := then(tx, &draft, clock); err != nil {
				return err
			}
		}
		if dup != nil {
			draft = *dup
		}
		stored = draft
		return nil
	})
	if err != nil {
		return err
	}
	*snap = stored
	return nil
}

// saveTx stores draft inside tx. It returns the already stored snapshot,
// storing nothing, when one with draft's content hash exists (dup: a
// retried write), or when draft's agent session's newest snapshot has
// wf.Digest (same: unchanged content).
func (s *Store) saveTx(ctx context.Context, tx *sqlx.Tx, draft *handoff.Snapshot, wf store.WorkflowInfo, now time.Time) (dup, same *handoff.Snapshot, err error) {
	const op = "save snapshot"
	name := wf.Name
	if name == "" {
		name = draft.WorkflowID
	}
	res, err := tx.ExecContext(ctx,
		`INSERT INTO workflows (id, name, dir, status, session_count, created_at, updated_at)
		 VALUES ($1, $2, $3, $4, 0, $5, $5) ON CONFLICT (id) DO NOTHING`,
		draft.WorkflowID, name, wf.Dir, string(handoff.WorkflowInProgress), now)
	if err != nil {
		return nil, nil, classify("create workflow "+draft.WorkflowID, err)
	}
	created, _ := res.RowsAffected()
	// The row lock serialises every writer of this workflow, so the
	// sessions counted below are all of them.
	var start string
	if err := tx.GetContext(ctx, &start, "SELECT start_commit FROM workflows WHERE id = $1 FOR UPDATE", draft.WorkflowID); err != nil {
		return nil, nil, classify(op+": lock the workflow", err)
	}
	if g := draft.GitState; g != nil && g.Available {
		if start == "" {
			start = g.StartCommit
			if start == "" {
				start = g.Commit
			}
			if start != "" {
				if _, err := tx.ExecContext(ctx, "UPDATE workflows SET start_commit = $1 WHERE id = $2", start, draft.WorkflowID); err != nil {
					return nil, nil, classify("record the workflow's start commit", err)
				}
			}
		}
		if g.StartCommit == "" {
			g.StartCommit = start
		}
	}
	hash, err := ContentHash(draft)
	if err != nil {
		return nil, nil, err
	}
	var existing struct {
		ID   string `db:"id"`
		JSON string `db:"snapshot_json"`
	}
	err = tx.GetContext(ctx, &existing, "SELECT id, snapshot_json FROM session_snapshots WHERE content_hash = $1", hash)
	if err == nil {
		dup, err := decodeSnapshot(existing.ID, existing.JSON)
		if err != nil {
			return nil, nil, err
		}
		if err := store.NumberSnapshot(ctx, tx, snapshotSessions, dup); err != nil {
			return nil, nil, err
		}
		s.log.Debug("snapshot already stored", "id", dup.ID, "hash", hash)
		return dup, nil, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, nil, classify(op+": look up the content hash", err)
	}
	if created == 1 {
		label := name
		if wf.Dir != "" {
			label += " in " + wf.Dir
		}
		if err := addEvent(ctx, tx, draft.WorkflowID, handoff.EventWorkflowCreated, "", label, now); err != nil {
			return nil, nil, err
		}
	}
	key := wf.Session
	if key == "" {
		key = store.SessionKey(draft)
	}
	var prev struct {
		ID     string `db:"id"`
		Number int    `db:"session_number"`
		Digest string `db:"digest"`
		JSON   string `db:"snapshot_json"`
	}
	found := false
	if key != "" {
		err := tx.GetContext(ctx, &prev, `SELECT id, session_number, digest, snapshot_json FROM session_snapshots
			WHERE workflow_id = $1 AND agent_session = $2 ORDER BY seq DESC LIMIT 1`, draft.WorkflowID, key)
		switch {
		case err == nil:
			found = true
		case !errors.Is(err, sql.ErrNoRows):
			return nil, nil, classify(op+": find the agent session", err)
		}
	}
	if found && wf.Digest != "" && prev.Digest == wf.Digest {
		same, err := decodeSnapshot(prev.ID, prev.JSON)
		if err != nil {
			return nil, nil, err
		}
		if same.SessionNumber, _, err = store.SessionNumberOf(ctx, tx, snapshotTable, numbering,
			store.SessionRow{ID: same.ID, WorkflowID: same.WorkflowID, AgentSession: key, CreatedAt: same.CreatedAt}); err != nil {
			return nil, nil, err
		}
		s.log.Debug("snapshot unchanged", "id", same.ID, "session", same.SessionNumber)
		return nil, same, nil
	}
	n, sessions, err := store.SessionNumberOf(ctx, tx, snapshotTable, numbering, store.SessionRow{ID: draft.ID, WorkflowID: draft.WorkflowID, AgentSession: key, CreatedAt: draft.CreatedAt})
	if err != nil {
		return nil, nil, err
	}
	draft.SessionNumber = n
	body, err := json.Marshal(draft)
	if err != nil {
		return nil, nil, handoff.Errorf(handoff.EINVALID, "%s: encode snapshot: %w", op, err)
	}
	if err := insertSnapshot(ctx, tx, draft, string(body), hash, key, wf.Digest, s.maker); err != nil {
		return nil, nil, err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE workflows SET session_count = GREATEST(session_count, $1), updated_at = $2 WHERE id = $3",
		sessions, now, draft.WorkflowID); err != nil {
		return nil, nil, classify(op+": update the workflow", err)
	}
	detail := fmt.Sprintf("session %d, trigger %s", draft.SessionNumber, draft.Trigger)
	return nil, nil, addEvent(ctx, tx, draft.WorkflowID, handoff.EventSnapshotCreated, draft.ID, detail, now)
}

// addEvent records one workflow event inside tx.
func addEvent(ctx context.Context, tx *sqlx.Tx, workflowID string, typ handoff.EventType, snapshotID, detail string, now time.Time) error {
	var snap any
	if snapshotID != "" {
		snap = snapshotID
	}
	_, err := tx.ExecContext(ctx,
		"INSERT INTO workflow_events (workflow_id, type, snapshot_id, detail, created_at) VALUES ($1, $2, $3, $4, $5)",
		workflowID, string(typ), snap, detail, now)
	if err != nil {
		return classify(fmt.Sprintf("record %s event", typ), err)
	}
	return nil
}

// maxCandidates is how many matching ids an ambiguous prefix lists.
const maxCandidates = 5

// Snapshot loads a snapshot by its full id or a unique prefix of it.
func (s *Store) Snapshot(ctx context.Context, idOrPrefix string) (*handoff.Snapshot, error) {
	if idOrPrefix == "" {
		return nil, handoff.Errorf(handoff.EINVALID, "load snapshot: empty id")
	}
	var row struct {
		ID    string `db:"id"`
		Agent string `db:"agent_session"`
		JSON  string `db:"snapshot_json"`
	}
	err := s.db.GetContext(ctx, &row, "SELECT id, agent_session, snapshot_json FROM session_snapshots WHERE id = $1", idOrPrefix)
	if err == nil {
		return s.decodeNumbered(ctx, row.ID, row.Agent, row.JSON)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, classify("load snapshot "+idOrPrefix, err)
	}
	var ids []string
	if err := s.db.SelectContext(ctx, &ids,
		`SELECT id FROM session_snapshots WHERE starts_with(id, $1) ORDER BY id COLLATE "C" LIMIT $2`,
		idOrPrefix, maxCandidates+1); err != nil {
		return nil, classify("look up snapshot "+idOrPrefix, err)
	}
	switch len(ids) {
	case 0:
		return nil, handoff.Errorf(handoff.ENOTFOUND, "no snapshot %q", idOrPrefix)
	case 1:
		return s.Snapshot(ctx, ids[0])
	}
	more := ""
	if len(ids) > maxCandidates {
		ids, more = ids[:maxCandidates], ", …"
	}
	return nil, handoff.Errorf(handoff.EINVALID, "snapshot prefix %q is ambiguous: %s%s", idOrPrefix, strings.Join(ids, ", "), more)
}

// LatestSnapshot loads a workflow's newest snapshot (the last stored: a
// session may hold several), or the newest snapshot of any workflow when
// workflowID is empty.
func (s *Store) LatestSnapshot(ctx context.Context, workflowID string) (*handoff.Snapshot, error) {
	var row struct {
		ID    string `db:"id"`
		Agent string `db:"agent_session"`
		JSON  string `db:"snapshot_json"`
	}
	var err error
	if workflowID == "" {
		err = s.db.GetContext(ctx, &row, "SELECT id, agent_session, snapshot_json FROM session_snapshots ORDER BY created_at DESC, id DESC LIMIT 1")
	} else {
		err = s.db.GetContext(ctx, &row,
			"SELECT id, agent_session, snapshot_json FROM session_snapshots WHERE workflow_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1", workflowID)
	}
	if errors.Is(err, sql.ErrNoRows) {
		if workflowID == "" {
			return nil, handoff.Errorf(handoff.ENOTFOUND, "no snapshots stored yet")
		}
		return nil, handoff.Errorf(handoff.ENOTFOUND, "no snapshots for workflow %q", workflowID)
	}
	if err != nil {
		return nil, classify("load the latest snapshot", err)
	}
	return s.decodeNumbered(ctx, row.ID, row.Agent, row.JSON)
}

// numbering is store.SessionNumberOf's SQL for PostgreSQL: the time parameter
// typed, keys compared bytewise (COLLATE "C"), as Go compares them.
var numbering = store.Dialect{TimeParam: "CAST(? AS timestamptz)", KeyOrder: `COLLATE "C"`, Time: func(t time.Time) any { return t.UTC() }}

// snapshotTable is where session numbering reads each snapshot's agent
// session and time (store.ReadSessionNumbers).
const snapshotTable = "session_snapshots"

// snapshotSessions is store.Renumber's source in this store: the
// snapshot table, its times read as timestamptz.
var snapshotSessions = store.SessionSource{Table: snapshotTable, CreatedAt: "created_at"}

// decodeNumbered is decodeSnapshot with the snapshot's current session
// number (agent is its agent_session column).
func (s *Store) decodeNumbered(ctx context.Context, id, agent, body string) (*handoff.Snapshot, error) {
	snap, err := decodeSnapshot(id, body)
	if err != nil {
		return nil, err
	}
	if snap.SessionNumber, _, err = store.SessionNumberOf(ctx, s.db, snapshotTable, numbering,
		store.SessionRow{ID: id, WorkflowID: snap.WorkflowID, AgentSession: agent, CreatedAt: snap.CreatedAt}); err != nil {
		return nil, err
	}
	return snap, nil
}

// decodeSnapshot parses a stored snapshot (upgrading older layouts in
// memory) and checks it is the row it is stored under.
func decodeSnapshot(id, body string) (*handoff.Snapshot, error) {
	snap, err := handoff.DecodeSnapshot([]byte(body))
	if err != nil {
		return nil, fmt.Errorf("snapshot %s is damaged or unreadable: %w", id, err)
	}
	if snap.ID != id {
		return nil, handoff.Errorf(handoff.ECORRUPT, "snapshot %s is damaged: its stored JSON is snapshot %q", id, snap.ID)
	}
	snap.CreatedAt = snap.CreatedAt.UTC()
	return snap, nil
}

// ListSnapshots summarises stored snapshots, newest first, from the
// summary columns (no snapshot is decoded); rows whose JSON is not the
// snapshot they are stored under (the problem column migration 0005's
// trigger keeps) are skipped and reported in the second result. With a
// limit the rows are read a page at a time (keyset on created_at, seq);
// damaged rows do not count against the limit.
func (s *Store) ListSnapshots(ctx context.Context, f store.ListFilter) ([]store.SnapshotSummary, []error, error) {
	if f.Limit < 0 {
		return nil, nil, handoff.Errorf(handoff.EINVALID, "list snapshots: negative limit %d", f.Limit)
	}
	var (
		out     []store.SnapshotSummary
		damaged []error
		after   *struct {
			at  time.Time
			seq int64
		}
	)
	for {
		query := `SELECT ` + store.SummaryColumns + `, s.seq FROM session_snapshots s WHERE true`
		var args []any
		if f.WorkflowID != "" {
			args = append(args, f.WorkflowID)
			query += fmt.Sprintf(" AND s.workflow_id = $%d", len(args))
		}
		if after != nil {
			args = append(args, after.at, after.seq)
			query += fmt.Sprintf(" AND (s.created_at, s.seq) < ($%d, $%d)", len(args)-1, len(args))
		}
		query += " ORDER BY s.created_at DESC, s.seq DESC"
		page := 0
		if f.Limit > 0 {
			page = f.Limit - len(out)
			args = append(args, page)
			query += fmt.Sprintf(" LIMIT $%d", len(args))
		}
		n, err := s.listPage(ctx, query, args, f.Limit, &out, &damaged, &after)
		if err != nil {
			return out, damaged, err
		}
		if page == 0 || n < page || len(out) >= f.Limit {
			return out, damaged, store.Renumber(ctx, s.db, snapshotSessions, out, store.SummaryRef)
		}
	}
}

// listPage reads one page of ListSnapshots, appending summaries and
// damage, and moves the keyset cursor; it returns the rows read.
func (s *Store) listPage(ctx context.Context, query string, args []any, limit int, out *[]store.SnapshotSummary, damaged *[]error,
	after **struct {
		at  time.Time
		seq int64
	}) (int, error) {
	rows, err := s.db.QueryxContext(ctx, query, args...)
	if err != nil {
		return 0, classify("list snapshots", err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
		var key struct {
			At  time.Time `db:"created_at"`
			Seq int64     `db:"seq"`
		}
		sum, err := scanSummary(rows, &key)
		*after = &struct {
			at  time.Time
			seq int64
		}{key.At, key.Seq}
		if err != nil {
			*damaged = append(*damaged, err)
			continue
		}
		*out = append(*out, *sum)
		if limit > 0 && len(*out) == limit {
			break
		}
	}
	if err := rows.Err(); err != nil {
		return n, classify("list snapshots", err)
	}
	return n, nil
}

// scanSummary reads one store.SummaryColumns row (and its seq) into a
// summary. key, when given, receives the row's keyset position
// (created_at, seq).
func scanSummary(rows interface{ StructScan(any) error }, key *struct {
	At  time.Time `db:"created_at"`
	Seq int64     `db:"seq"`
}) (*store.SnapshotSummary, error) {
	var row struct {
		store.SummaryRow
		Seq int64 `db:"seq"`
	}
	if err := rows.StructScan(&row); err != nil {
		return nil, handoff.Errorf(handoff.ECORRUPT, "a snapshot row does not read: %w", err)
	}
	if key != nil {
		key.At, key.Seq = row.CreatedAt, row.Seq
	}
	return row.Summary()
}

// ContentHashes returns every stored snapshot's content hash by id, read
// from the column without decoding any snapshot: what sync compares.
func (s *Store) ContentHashes(ctx context.Context) (map[string]string, error) {
	var rows []struct {
		ID   string `db:"id"`
		Hash string `db:"content_hash"`
	}
	if err := s.db.SelectContext(ctx, &rows, "SELECT id, content_hash FROM session_snapshots"); err != nil {
		return nil, classify("read the content hashes", err)
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.ID] = r.Hash
	}
	return out, nil
}

package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	handoff "github.com/handoff-cli/handoff"
)

// WorkflowInfo is what a save needs beside the snapshot: the name and
// place of a workflow it creates (ignored for existing workflows), and
// which agent session the snapshot belongs to and what content it was
// built from.
type WorkflowInfo struct {
	Name string
	Dir  string
	// Session identifies the agent session the snapshot was taken from
	// (session.SessionKey): every snapshot of one agent session is one
	// session of its workflow, with one session number. Empty means
	// SessionKey(snap): the snapshot's own agent session id, and without
	// one a session of its own.
	Session string
	// Digest identifies the transcript content the snapshot was built
	// from (session.Digest). A save whose session's newest snapshot has
	// the same digest stores nothing: the existing snapshot is returned.
	// Empty never matches.
	Digest string
}

// SessionKey is the agent session a snapshot belongs to when the caller
// names none: "id:" + the agent's own session id, or "" (a session of its
// own) when the transcript had none.
func SessionKey(snap *handoff.Snapshot) string {
	if snap.SessionID != "" {
		return "id:" + snap.SessionID
	}
	return ""
}

// SaveSnapshot stores snap in the session of its agent session
// (wf.Session), all in one write transaction: the workflow row is created
// if missing (status in_progress), the snapshot joins its agent session's
// session (same session number) or, for a new agent session, gets the
// next session number, the workflow's session count covers it (a session
// a resume started is not counted twice), and a SNAPSHOT_CREATED event is
// recorded. Either all of it is stored or none. The workflow's status is
// not changed: PauseSnapshot is the save that also pauses.
//
// When the agent session's newest snapshot was built from the same
// content (wf.Digest), nothing is stored and snap becomes that stored
// snapshot: callers tell by its ID, which is not the one they passed.
//
// On success snap is updated with what the store assigned: ID (when empty),
// SessionNumber (always), CreatedAt (the store's clock when zero, and
// converted to UTC either way, so a loaded snapshot equals the saved one),
// SchemaVersion (when zero) and GitState.StartCommit (from the workflow's
// first commit, when git state is available and it is empty). On failure
// snap is left as it was.
func (s *Store) SaveSnapshot(ctx context.Context, snap *handoff.Snapshot, wf WorkflowInfo) error {
	return s.saveWith(ctx, "save snapshot", snap, wf, nil)
}

// saveWith validates snap, then in one write transaction stores it (saveTx)
// and runs then, if any, with the stored draft; snap is updated only when
// all of it committed.
func (s *Store) saveWith(ctx context.Context, op string, snap *handoff.Snapshot, wf WorkflowInfo,
	then func(tx *sqlx.Tx, draft *handoff.Snapshot, now string) error) error {
	if snap == nil {
		return handoff.Errorf(handoff.EINVALID, "%s: no snapshot", op)
	}
	if snap.WorkflowID == "" {
		return handoff.Errorf(handoff.EINVALID, "%s: the snapshot has no workflow id", op)
	}
	if !snap.Trigger.Valid() {
		return handoff.Errorf(handoff.EINVALID, "%s: unknown trigger %q", op, snap.Trigger)
	}
	var stored handoff.Snapshot
	err := s.inTx(ctx, op, func(tx *sqlx.Tx) error {
		draft := *snap // fresh on every attempt: a retried transaction starts over
		if draft.GitState != nil {
			g := *draft.GitState
			draft.GitState = &g
		}
		if draft.ID == "" {
			draft.ID = NewID("snap_")
		}
		if draft.SchemaVersion == 0 {
			draft.SchemaVersion = handoff.SnapshotSchemaVersion
		}
		clock := s.clock()
		now := formatTime(clock)
		same, err := s.saveTx(ctx, tx, &draft, wf, clock)
		if err != nil {
			return err
		}
		if same != nil {
			// Unchanged content: nothing new is stored, but a pause still
			// applies to the snapshot that holds it (a no-op when the
			// workflow is already paused).
			draft = *same
		}
		if then != nil {
			if err := then(tx, &draft, now); err != nil {
				return err
			}
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

// saveTx stores draft inside tx in its agent session's session (or the
// next one), creating the workflow (in_progress) when missing, filling the
// git start commit from the workflow, and recording SNAPSHOT_CREATED. When
// the session's newest snapshot has wf.Digest it stores nothing and
// returns that snapshot.
func (s *Store) saveTx(ctx context.Context, tx *sqlx.Tx, draft *handoff.Snapshot, wf WorkflowInfo, clock time.Time) (*handoff.Snapshot, error) {
	const op = "save snapshot"
	now := formatTime(clock)
	if draft.CreatedAt.IsZero() {
		draft.CreatedAt = clock
	}
	draft.CreatedAt = draft.CreatedAt.UTC()
	created, err := ensureWorkflow(ctx, tx, draft.WorkflowID, wf, handoff.WorkflowInProgress, now)
	if err != nil {
		return nil, err
	}
	if created {
		if err := addEvent(ctx, tx, draft.WorkflowID, handoff.EventWorkflowCreated, "", workflowLabel(draft.WorkflowID, wf), now); err != nil {
			return nil, err
		}
	}
	key := wf.Session
	if key == "" {
		key = SessionKey(draft)
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
			WHERE workflow_id = ? AND agent_session = ? ORDER BY rowid DESC LIMIT 1`, draft.WorkflowID, key)
		switch {
		case err == nil:
			found = true
		case !errors.Is(err, sql.ErrNoRows):
			return nil, classify(op+": find the agent session", err)
		}
	}
	if found && wf.Digest != "" && prev.Digest == wf.Digest {
		same, err := decodeSnapshot(prev.ID, prev.JSON)
		if err != nil {
			return nil, err
		}
		if same.SessionNumber, _, err = SessionNumberOf(ctx, tx, summaryTable, sqliteNumbering,
			SessionRow{ID: same.ID, WorkflowID: same.WorkflowID, AgentSession: key, CreatedAt: same.CreatedAt}); err != nil {
			return nil, err
		}
		s.log.Debug("snapshot unchanged", "id", same.ID, "session", same.SessionNumber)
		return same, nil
	}
	if err := fillStartCommit(ctx, tx, draft); err != nil {
		return nil, err
	}
	n, sessions, err := SessionNumberOf(ctx, tx, summaryTable, sqliteNumbering, SessionRow{ID: draft.ID, WorkflowID: draft.WorkflowID, AgentSession: key, CreatedAt: draft.CreatedAt})
	if err != nil {
		return nil, err
	}
	draft.SessionNumber = n
	if err := insertSnapshot(ctx, tx, draft, key, wf.Digest, s.origin); err != nil {
		return nil, err
	}
	// session_count counts sessions, including one a resume has started and
	// that has not been snapshotted yet: it never goes down.
	if _, err := tx.ExecContext(ctx, "UPDATE workflows SET session_count = MAX(session_count, ?), updated_at = ? WHERE id = ?",
		sessions, now, draft.WorkflowID); err != nil {
		return nil, classify(op+": update the workflow", err)
	}
	detail := fmt.Sprintf("session %d, trigger %s", draft.SessionNumber, draft.Trigger)
	return nil, addEvent(ctx, tx, draft.WorkflowID, handoff.EventSnapshotCreated, draft.ID, detail, now)
}

// insertSnapshot writes the immutable snapshot row.
func insertSnapshot(ctx context.Context, tx *sqlx.Tx, draft *handoff.Snapshot, agentSession, digest string, origin Maker) error {
	body, err := json.Marshal(draft)
	if err != nil {
		return handoff.Errorf(handoff.EINVALID, "save snapshot: encode snapshot: %w", err)
	}
	sum := Summarize(draft)
	_, err = tx.ExecContext(ctx,
		`INSERT INTO session_snapshots (id, workflow_id, session_number, agent_session, digest, "trigger", schema_version, snapshot_json, created_at,
			machine, author, goal, utilization, decisions, open_errors)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		draft.ID, draft.WorkflowID, draft.SessionNumber, agentSession, digest, string(draft.Trigger), draft.SchemaVersion, string(body), formatTime(draft.CreatedAt),
		origin.Machine, origin.User, sum.Goal, sum.Utilization, sum.Decisions, sum.OpenErrors)
	if err != nil {
		return classify("save snapshot "+draft.ID, err)
	}
	return indexSnapshot(ctx, tx, draft, agentSession)
}

// fillStartCommit records the commit a workflow started from: the first
// snapshot with a commit sets it, and every snapshot after that carries it
// as GitState.StartCommit unless it already has one.
func fillStartCommit(ctx context.Context, tx *sqlx.Tx, draft *handoff.Snapshot) error {
	g := draft.GitState
	if g == nil || !g.Available {
		return nil
	}
	var start string
	if err := tx.GetContext(ctx, &start, "SELECT start_commit FROM workflows WHERE id = ?", draft.WorkflowID); err != nil {
		return classify("read the workflow's start commit", err)
	}
	if start == "" {
		start = g.StartCommit
		if start == "" {
			start = g.Commit
		}
		if start == "" {
			return nil
		}
		if _, err := tx.ExecContext(ctx, "UPDATE workflows SET start_commit = ? WHERE id = ?", start, draft.WorkflowID); err != nil {
			return classify("record the workflow's start commit", err)
		}
	}
	if g.StartCommit == "" {
		g.StartCommit = start
	}
	return nil
}

// ensureWorkflow creates the workflow row if it is missing and reports
// whether it did.
func ensureWorkflow(ctx context.Context, tx *sqlx.Tx, id string, wf WorkflowInfo, status handoff.WorkflowStatus, now string) (bool, error) {
	name := wf.Name
	if name == "" {
		name = id
	}
	res, err := tx.ExecContext(ctx,
		`INSERT INTO workflows (id, name, dir, status, session_count, created_at, updated_at)
		 VALUES (?, ?, ?, ?, 0, ?, ?) ON CONFLICT (id) DO NOTHING`,
		id, name, wf.Dir, string(status), now, now)
	if err != nil {
		return false, classify("create workflow "+id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, classify("create workflow "+id, err)
	}
	return n == 1, nil
}

// workflowLabel describes a new workflow for its WORKFLOW_CREATED event.
func workflowLabel(id string, wf WorkflowInfo) string {
	name := wf.Name
	if name == "" {
		name = id
	}
	if wf.Dir == "" {
		return name
	}
	return name + " in " + wf.Dir
}

// addEvent records one workflow event inside tx.
func addEvent(ctx context.Context, tx *sqlx.Tx, workflowID string, typ handoff.EventType, snapshotID, detail, now string) error {
	var snap any
	if snapshotID != "" {
		snap = snapshotID
	}
	_, err := tx.ExecContext(ctx,
		"INSERT INTO workflow_events (workflow_id, type, snapshot_id, detail, created_at) VALUES (?, ?, ?, ?, ?)",
		workflowID, string(typ), snap, detail, now)
	if err != nil {
		return classify(fmt.Sprintf("record %s event", typ), err)
	}
	return nil
}

// maxCandidates is how many matching ids an ambiguous prefix lists.
const maxCandidates = 5

// Snapshot loads a snapshot by its full id or a unique prefix of it. No
// match is ENOTFOUND; several are EINVALID naming them; a stored row that
// does not decode is ECORRUPT.
func (s *Store) Snapshot(ctx context.Context, idOrPrefix string) (*handoff.Snapshot, error) {
	if idOrPrefix == "" {
		return nil, handoff.Errorf(handoff.EINVALID, "load snapshot: empty id")
	}
	var row storedRow
	err := s.db.GetContext(ctx, &row, "SELECT "+storedRowColumns+" FROM session_snapshots WHERE id = ?", idOrPrefix)
	if err == nil {
		return s.decodeNumbered(ctx, row)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, classify("load snapshot "+idOrPrefix, err)
	}

	// Ids are ASCII, so every id starting with the prefix sorts below the
	// prefix followed by the highest code point; this range uses the index.
	var ids []string
	if err := s.db.SelectContext(ctx, &ids,
		"SELECT id FROM session_snapshots WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
		idOrPrefix, idOrPrefix+"\U0010FFFF", maxCandidates+1); err != nil {
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
// session may hold several, and an older agent session may have grown
// after a newer one started), or the newest snapshot of any workflow when
// workflowID is empty. ENOTFOUND when
// there is none.
func (s *Store) LatestSnapshot(ctx context.Context, workflowID string) (*handoff.Snapshot, error) {
	var row storedRow
	var err error
	if workflowID == "" {
		err = s.db.GetContext(ctx, &row, "SELECT "+storedRowColumns+" FROM session_snapshots ORDER BY created_at DESC, id DESC LIMIT 1")
	} else {
		err = s.db.GetContext(ctx, &row,
			"SELECT "+storedRowColumns+" FROM session_snapshots WHERE workflow_id = ? ORDER BY created_at DESC, id DESC LIMIT 1", workflowID)
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
	return s.decodeNumbered(ctx, row)
}

// scanCacheKiB is the page cache of a connection that walks an index
// once, in order: enough for the path from the root to the current leaf.
// The default (2 MiB) is memory a short-lived process would touch for
// the first time, page by page, for pages it never reads again.
const scanCacheKiB = 128

// scanConn is a connection for one long scan, with a small page cache
// until it is closed (the pool's default then comes back).
func (s *Store) scanConn(ctx context.Context) (*scanConnection, error) {
	conn, err := s.db.Connx(ctx)
	if err != nil {
		return nil, err
	}
	var kib int
	if err := conn.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&kib); err != nil {
		conn.Close()
		return nil, err
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA cache_size = -%d", scanCacheKiB)); err != nil {
		conn.Close()
		return nil, err
	}
	return &scanConnection{Conn: conn, restore: kib}, nil
}

// scanConnection is scanConn's connection and the cache size to restore.
type scanConnection struct {
	*sqlx.Conn
	restore int
}

// Close restores the connection's page cache and returns it to the pool.
func (c *scanConnection) Close() error {
	_, err := c.ExecContext(context.Background(), fmt.Sprintf("PRAGMA cache_size = %d", c.restore))
	return errors.Join(err, c.Conn.Close())
}

// sqliteNumbering is SessionNumberOf's SQL for this store: times are text in
// timeLayout (which sorts as time does), and text compares bytewise.
var sqliteNumbering = Dialect{TimeParam: "?", Time: func(t time.Time) any { return formatTime(t) }}

// summaryTable is where SQLite keeps what numbering sessions reads (one
// narrow row per snapshot).
const summaryTable = "snapshot_summaries"

// summarySessions is Renumber's source in this store: the summary table,
// its times read as the text they are stored as.
var summarySessions = SessionSource{Table: summaryTable, CreatedAt: "CAST(created_at AS TEXT)"}

// storedRow is what loading one snapshot reads: its body and what
// numbering its session needs beside it (storedRowColumns).
type storedRow struct {
	ID    string `db:"id"`
	Agent string `db:"agent_session"`
	JSON  string `db:"snapshot_json"`
}

// storedRowColumns are storedRow's columns of session_snapshots.
const storedRowColumns = "id, agent_session, snapshot_json"

// decodeNumbered is decodeSnapshot of row with the snapshot's current
// session number.
func (s *Store) decodeNumbered(ctx context.Context, row storedRow) (*handoff.Snapshot, error) {
	snap, err := decodeSnapshot(row.ID, row.JSON)
	if err != nil {
		return nil, err
	}
	if snap.SessionNumber, _, err = SessionNumberOf(ctx, s.db, summaryTable, sqliteNumbering,
		SessionRow{ID: row.ID, WorkflowID: snap.WorkflowID, AgentSession: row.Agent, CreatedAt: snap.CreatedAt}); err != nil {
		return nil, err
	}
	return snap, nil
}

// decodeSnapshot parses a stored snapshot, upgrading an older schema
// version in memory (handoff.DecodeSnapshot): ECORRUPT when it does not
// decode or is not the row it is stored under, ECONFLICT when a newer build
// wrote it.
func decodeSnapshot(id, body string) (*handoff.Snapshot, error) {
	snap, err := handoff.DecodeSnapshot([]byte(body))
	if err != nil {
		return nil, fmt.Errorf("snapshot %s is damaged or unreadable: %w", id, err)
	}
	if snap.ID != id {
		return nil, handoff.Errorf(handoff.ECORRUPT, "snapshot %s is damaged: its stored JSON is snapshot %q", id, snap.ID)
	}
	return snap, nil
}

// SnapshotSummary is one line of a snapshot listing: enough to choose a
// snapshot without loading it.
type SnapshotSummary struct {
	ID            string          `json:"id"`
	WorkflowID    string          `json:"workflow_id"`
	SessionNumber int             `json:"session_number"`
	Trigger       handoff.Trigger `json:"trigger"`
	CreatedAt     time.Time       `json:"created_at"`
	Goal          string          `json:"goal"`
	// Utilization is the context fill (0..1) when the snapshot was taken.
	Utilization float64 `json:"utilization"`
	// Decisions counts the decisions still in force (not superseded).
	Decisions int `json:"decisions"`
	// OpenErrors counts the errors left unresolved or deferred.
	OpenErrors int `json:"open_errors"`
	// Machine and User say who made the snapshot (store.Maker), empty for
	// snapshots stored before handoff recorded it.
	Machine string `json:"machine,omitempty"`
	User    string `json:"user,omitempty"`
}

// ListFilter narrows ListSnapshots.
type ListFilter struct {
	// WorkflowID keeps only that workflow's snapshots; empty means all.
	WorkflowID string
	// Limit caps the number of summaries; 0 means all.
	Limit int
}

// ListSnapshots summarises stored snapshots, newest first, from the
// summary table (no snapshot is decoded). A row whose JSON is not the
// snapshot it is stored under (the problem column the triggers of
// migration 0006 keep) is skipped and reported in the second result, so
// one damaged snapshot never hides the others; the third result is for
// failures of the listing itself.
func (s *Store) ListSnapshots(ctx context.Context, f ListFilter) ([]SnapshotSummary, []error, error) {
	if f.Limit < 0 {
		return nil, nil, handoff.Errorf(handoff.EINVALID, "list snapshots: negative limit %d", f.Limit)
	}
	query := `SELECT ` + listColumns + `, s.agent_session FROM snapshot_summaries s`
	var args []any
	if f.WorkflowID != "" {
		query += " WHERE s.workflow_id = ?"
		args = append(args, f.WorkflowID)
	}
	// No SQL LIMIT: damaged rows do not count against it, so rows are read
	// only until enough good ones are found.
	query += " ORDER BY s.created_at DESC, s.id DESC"
	// A long listing sizes its result once (a count down an index).
	size := f.Limit
	if size == 0 || size > 1000 {
		count := "SELECT COUNT(*) FROM snapshot_summaries"
		if f.WorkflowID != "" {
			count += " WHERE workflow_id = ?"
		}
		var n int
		if err := s.db.GetContext(ctx, &n, count, args...); err != nil {
			return nil, nil, classify("list snapshots", err)
		}
		size = n
		if f.Limit > 0 {
			size = min(n, f.Limit)
		}
	}
	out := make([]SnapshotSummary, 0, size)
	conn, err := s.scanConn(ctx)
	if err != nil {
		return nil, nil, classify("list snapshots", err)
	}
	defer conn.Close()
	rows, err := conn.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, nil, classify("list snapshots", err)
	}
	defer rows.Close()

	// A listing without a limit reads every row of the workflows it
	// shows, damaged ones included: it numbers their sessions from those
	// rows (SessionNumbers) instead of reading them all again, unless a
	// row did not read.
	var (
		agent    string
		sessions []SessionRow
		// row is where each listed summary's row is in sessions.
		row []int
	)
	fromRows := f.Limit == 0
	if fromRows {
		sessions, row = make([]SessionRow, 0, size), make([]int, 0, size)
	}
	sc := newSummaryScanner(&agent)
	var damaged []error
	for rows.Next() {
		sum, read, err := sc.scan(rows)
		if fromRows && read {
			sessions = append(sessions, SessionRow{ID: sc.row.ID, WorkflowID: sc.row.WorkflowID, AgentSession: agent, CreatedAt: sc.row.CreatedAt})
		}
		fromRows = fromRows && read
		if err != nil {
			damaged = append(damaged, err)
			s.log.Debug("skipped damaged snapshot row", "db", s.path, "err", err)
			continue
		}
		out = append(out, sum)
		row = append(row, len(sessions)-1)
		if f.Limit > 0 && len(out) == f.Limit {
			break
		}
	}
	if err := rows.Err(); err != nil {
		return out, damaged, classify("list snapshots", err)
	}
	rows.Close()
	if !fromRows {
		return out, damaged, Renumber(ctx, s.db, summarySessions, out, SummaryRef)
	}
	nums := sessionNumbersOf(sessions)
	for i := range out {
		out[i].SessionNumber = nums[row[i]]
	}
	return out, damaged, nil
}

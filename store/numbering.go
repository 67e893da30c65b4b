package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/mattn/go-sqlite3"

	handoff "github.com/handoff-cli/handoff"
)

// Session numbers are derived when read, not kept current in the rows: a
// snapshot that arrives before sessions already stored (sync, a history
// import, concurrent writers with skewed clocks) then changes no other row.
// Keeping them stored made every such save rewrite each later snapshot of
// its workflow, quadratic in the workflow's size. The session_number column
// (and the number inside the stored JSON) is the number when saved; every
// read numbers the workflow's sessions again with SessionNumbers.

// Queryer is what reading session numbers needs of a *sqlx.DB or *sqlx.Tx.
type Queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	SelectContext(ctx context.Context, dest any, query string, args ...any) error
	GetContext(ctx context.Context, dest any, query string, args ...any) error
	Rebind(query string) string
}

// SessionSource is where a store keeps what numbering sessions reads:
// Table has one row per snapshot (id, workflow_id, agent_session,
// created_at), and CreatedAt is how a query reads created_at cheaply, as
// a time or as text in the stored layout (SQLite's driver would try its
// time layouts one at a time on every row of a TIMESTAMP column).
type SessionSource struct {
	Table     string
	CreatedAt string
}

// ReadSessionNumbers numbers the sessions of workflowIDs from the rows of
// src (session_snapshots, or SQLite's narrow snapshot_summaries) and
// returns the numbers of the snapshots in want, by id (of every row when
// want is nil). The rows arrive a workflow at a time and each workflow is
// numbered as soon as it ends, so only one workflow's rows are held: at
// ten thousand snapshots, gathering them all first cost more in fresh
// memory than the numbering itself.
func ReadSessionNumbers(ctx context.Context, q Queryer, src SessionSource, workflowIDs []string, want map[string]bool) (map[string]int, error) {
	wfs := slices.DeleteFunc(slices.Compact(slices.Sorted(slices.Values(workflowIDs))), func(id string) bool { return id == "" })
	out := make(map[string]int, len(want))
	if len(wfs) == 0 {
		return out, nil
	}
	fail := func(err error) error {
		return handoff.Errorf(handoff.EINTERNAL, "number the sessions of %d workflows: %w", len(wfs), err)
	}
	query, args, err := sqlx.In("SELECT id, workflow_id, agent_session, "+src.CreatedAt+" FROM "+src.Table+
		" WHERE workflow_id IN (?) ORDER BY workflow_id", wfs)
	if err != nil {
		return nil, fmt.Errorf("number sessions: %w", err)
	}
	rows, err := q.QueryContext(ctx, q.Rebind(query), args...)
	if err != nil {
		return nil, fail(err)
	}
	defer rows.Close()
	var (
		nb       sessionNumberer
		ids      []string // the snapshot ids of the workflow being read
		workflow string
		r        SessionRow
	)
	flush := func() {
		nb.number(func(pos, n int) {
			if want == nil || want[ids[pos]] {
				out[ids[pos]] = n
			}
		})
		ids = ids[:0]
	}
	dest := []any{&r.ID, &r.WorkflowID, &r.AgentSession, storedTime{&r.CreatedAt}}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, fail(err)
		}
		if len(ids) > 0 && r.WorkflowID != workflow {
			flush()
		}
		workflow = r.WorkflowID
		nb.add(r, len(ids))
		ids = append(ids, r.ID)
	}
	if err := rows.Err(); err != nil {
		return nil, fail(err)
	}
	flush()
	return out, nil
}

// storedTime scans a created_at read as a time (PostgreSQL) or as text
// (SQLite): the stored layout (parseStored), else the layouts SQLite's
// driver tries on a TIMESTAMP column, so a time reads as it did when the
// driver parsed it.
type storedTime struct{ t *time.Time }

// Scan implements sql.Scanner.
func (s storedTime) Scan(src any) error {
	var text string
	switch v := src.(type) {
	case time.Time:
		*s.t = v
		return nil
	case string:
		text = v
	case []byte:
		text = string(v)
	default:
		return fmt.Errorf("created_at: unexpected %T", src)
	}
	t, err := parseStored(text)
	if err == nil {
		*s.t = t
		return nil
	}
	for _, layout := range sqlite3.SQLiteTimestampFormats {
		if t, perr := time.ParseInLocation(layout, strings.TrimSuffix(text, "Z"), time.UTC); perr == nil {
			*s.t = t
			return nil
		}
	}
	return fmt.Errorf("created_at %q: %w", text, err)
}

// SessionNumberOf numbers row among its workflow's stored snapshots as
// SessionNumbers would, for a snapshot about to be stored or a stored one
// (sessions, how many sessions the workflow then has, is for the former:
// a stored snapshot without an agent session is counted twice). Saves
// and single-snapshot reads call it, so it asks the database for two
// aggregates over the workflow's index entries instead of reading its
// rows into Go.
func SessionNumberOf(ctx context.Context, q Queryer, table string, d Dialect, row SessionRow) (n, sessions int, err error) {
	key := row.AgentSession
	if key == "" {
		key = "row:" + row.ID
	}
	// first is when row's session starts: its agent session's first
	// stored snapshot or row, whichever is earlier. Sessions before it are
	// agent sessions starting earlier and snapshots without one taken
	// earlier (ties by key); both are walks down an index, with no sort.
	var first any
	if err := q.GetContext(ctx, &first, q.Rebind(fmt.Sprintf(`SELECT MIN(f) FROM (
			SELECT MIN(created_at) AS f FROM %s WHERE workflow_id = ? AND agent_session = ? AND CAST(? AS TEXT) <> ''
			UNION ALL SELECT %s) x`, table, d.TimeParam)), row.WorkflowID, row.AgentSession, row.AgentSession, d.Time(row.CreatedAt)); err != nil {
		return 0, 0, handoff.Errorf(handoff.EINTERNAL, "number the session of a snapshot of workflow %s: %w", row.WorkflowID, err)
	}
	query := fmt.Sprintf(`SELECT 1 + (SELECT COUNT(*) FROM (SELECT agent_session AS k, MIN(created_at) AS f FROM %[1]s
				WHERE workflow_id = ? AND agent_session <> '' AND agent_session <> ? GROUP BY agent_session) a
				WHERE a.f < %[2]s OR (a.f = %[2]s AND a.k %[3]s < ?))
			+ (SELECT COUNT(*) FROM %[1]s WHERE workflow_id = ? AND agent_session = ''
				AND (created_at < %[2]s OR (created_at = %[2]s AND ('row:' || id) %[3]s < ?))) AS n,
			(SELECT COUNT(DISTINCT agent_session) FROM %[1]s WHERE workflow_id = ? AND agent_session <> '' AND agent_session <> ?)
			+ (SELECT COUNT(*) FROM %[1]s WHERE workflow_id = ? AND agent_session = '') + 1 AS sessions`,
		table, d.TimeParam, d.KeyOrder)
	var out struct {
		N        int `db:"n"`
		Sessions int `db:"sessions"`
	}
	wf, agent := row.WorkflowID, row.AgentSession
	if err := q.GetContext(ctx, &out, q.Rebind(query),
		wf, agent, first, first, key,
		wf, first, first, key,
		wf, agent, wf); err != nil {
		return 0, 0, handoff.Errorf(handoff.EINTERNAL, "number the session of a snapshot of workflow %s: %w", row.WorkflowID, err)
	}
	return out.N, out.Sessions, nil
}

// Dialect is how a store's SQL differs for SessionNumberOf.
type Dialect struct {
	// TimeParam is the placeholder for a time, with any cast it needs.
	TimeParam string
	// KeyOrder makes text compare in byte order, as Go compares strings.
	KeyOrder string
	// Time is a time as the store binds it.
	Time func(time.Time) any
}

// Renumber sets each item's session number to its current one; ref
// says where item i keeps its snapshot id, workflow and number.
func Renumber[T any](ctx context.Context, q Queryer, src SessionSource, items []T, ref func(*T) (id, workflowID string, n *int)) error {
	wfs := make([]string, 0, len(items))
	want := make(map[string]bool, len(items))
	for i := range items {
		id, wf, _ := ref(&items[i])
		wfs = append(wfs, wf)
		want[id] = true
	}
	nums, err := ReadSessionNumbers(ctx, q, src, wfs, want)
	if err != nil {
		return err
	}
	for i := range items {
		id, _, n := ref(&items[i])
		if v, ok := nums[id]; ok && n != nil {
			*n = v
		}
	}
	return nil
}

// NumberSnapshot sets snap's SessionNumber to its current number.
func NumberSnapshot(ctx context.Context, q Queryer, src SessionSource, snap *handoff.Snapshot) error {
	return Renumber(ctx, q, src, []*handoff.Snapshot{snap}, func(s **handoff.Snapshot) (string, string, *int) {
		return (*s).ID, (*s).WorkflowID, &(*s).SessionNumber
	})
}

// SummaryRef is Renumber's ref for snapshot summaries.
func SummaryRef(s *SnapshotSummary) (string, string, *int) {
	return s.ID, s.WorkflowID, &s.SessionNumber
}

// OverviewRef is Renumber's ref for a workflow's latest snapshot (none
// without one).
func OverviewRef(o *WorkflowOverview) (string, string, *int) {
	if o.Latest == nil {
		return "", "", nil
	}
	return SummaryRef(o.Latest)
}

// DecisionRef is Renumber's ref for stored decisions.
func DecisionRef(d *StoredDecision) (string, string, *int) {
	return d.SnapshotID, d.WorkflowID, &d.SessionNumber
}

// ErrorRef is Renumber's ref for stored errors.
func ErrorRef(e *StoredError) (string, string, *int) {
	return e.SnapshotID, e.WorkflowID, &e.SessionNumber
}

// HitRef is Renumber's ref for search hits.
func HitRef(h *SearchHit) (string, string, *int) { return h.SnapshotID, h.WorkflowID, &h.SessionNumber }

// SessionCountSQL counts a workflow's sessions (bind the workflow id):
// what the next session's number follows.
const SessionCountSQL = `SELECT COUNT(DISTINCT CASE WHEN agent_session = '' THEN 'row:' || id ELSE agent_session END)
	FROM session_snapshots WHERE workflow_id = ?`

package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"time"

	handoff "github.com/handoff-cli/handoff"
)

// WorkflowOverview is one line of `handoff status`: a workflow and its
// latest snapshot.
type WorkflowOverview struct {
	handoff.Workflow
	// Latest summarises the newest (last stored) snapshot; nil when the
	// workflow has none that reads.
	Latest *SnapshotSummary `json:"latest,omitempty"`
}

// Overview lists every workflow, most recently active first, with its
// latest snapshot's summary, read from snapshot_summaries (no snapshot is
// decoded). Damaged rows (workflows or latest snapshots) are skipped and
// reported in the second result, never failing the listing.
func (s *Store) Overview(ctx context.Context) ([]WorkflowOverview, []error, error) {
	wfs, damaged, err := s.ListWorkflows(ctx)
	if err != nil {
		return nil, damaged, err
	}
	// One indexed lookup per workflow; the summary columns, no JSON.
	rows, err := s.db.QueryContext(ctx, `SELECT `+listColumns+`
		FROM workflows w JOIN snapshot_summaries s
		ON s.id = (SELECT l.id FROM snapshot_summaries l WHERE l.workflow_id = w.id ORDER BY l.created_at DESC, l.id DESC LIMIT 1)`)
	if err != nil {
		return nil, damaged, classify("list the latest snapshots", err)
	}
	defer rows.Close()
	latest := map[string]*SnapshotSummary{}
	sc := newSummaryScanner()
	for rows.Next() {
		sum, _, err := sc.scan(rows)
		if err != nil {
			damaged = append(damaged, err)
			s.log.Debug("skipped damaged snapshot", "db", s.path, "err", err)
			continue
		}
		latest[sum.WorkflowID] = &sum
	}
	if err := rows.Err(); err != nil {
		return nil, damaged, classify("list the latest snapshots", err)
	}
	rows.Close()
	out := make([]WorkflowOverview, 0, len(wfs))
	for _, wf := range wfs {
		out = append(out, WorkflowOverview{Workflow: wf, Latest: latest[wf.ID]})
	}
	return out, damaged, Renumber(ctx, s.db, summarySessions, out, OverviewRef)
}

// ResolveWorkflow finds the workflow that dir belongs to, the way git finds
// a repository: a workflow recorded for dir itself, else for its parent,
// and so on up to the root; the nearest directory wins. dir is also tried
// with symlinks resolved. Among workflows of the same directory an open one
// beats a finished one, then the most recently active wins. ENOTFOUND when
// no workflow lives at or above dir.
func (s *Store) ResolveWorkflow(ctx context.Context, dir string) (*handoff.Workflow, error) {
	if dir == "" {
		return nil, handoff.Errorf(handoff.EINVALID, "resolve workflow: empty directory")
	}
	var candidates []string
	starts := []string{filepath.Clean(dir)}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != starts[0] {
		starts = append(starts, real)
	}
	for _, d := range starts {
		for {
			if !slices.Contains(candidates, d) {
				candidates = append(candidates, d)
			}
			parent := filepath.Dir(d)
			if parent == d {
				break
			}
			d = parent
		}
	}
	wfs, _, err := s.ListWorkflows(ctx) // most recently active first
	if err != nil {
		return nil, err
	}
	best, bestRank := -1, len(candidates)
	for i, wf := range wfs {
		if wf.Dir == "" {
			continue
		}
		rank := slices.Index(candidates, filepath.Clean(wf.Dir))
		if rank < 0 {
			continue
		}
		switch {
		case rank < bestRank,
			rank == bestRank && wfs[best].Status.Terminal() && !wf.Status.Terminal():
			best, bestRank = i, rank
		}
	}
	if best < 0 {
		return nil, handoff.Errorf(handoff.ENOTFOUND, "no workflow for %s or any directory above it: pass --workflow, or pause a session here first", dir)
	}
	return &wfs[best], nil
}

// SummaryRow is a snapshot row's listing columns, as both stores read
// them: the summary written at save time and the problem the store's
// triggers derive from the JSON, so a listing never decodes a snapshot.
type SummaryRow struct {
	ID            string         `db:"id"`
	WorkflowID    string         `db:"workflow_id"`
	SessionNumber int            `db:"session_number"`
	Trigger       string         `db:"trigger"`
	CreatedAt     time.Time      `db:"created_at"`
	SchemaVersion int            `db:"schema_version"`
	Machine       string         `db:"machine"`
	Author        string         `db:"author"`
	Goal          string         `db:"goal"`
	Utilization   float64        `db:"utilization"`
	Decisions     int            `db:"decisions"`
	OpenErrors    int            `db:"open_errors"`
	Problem       sql.NullString `db:"problem"`
}

// SummaryColumns are SummaryRow's columns, for a query on alias s of the
// table that holds them: snapshot_summaries in SQLite, session_snapshots
// in PostgreSQL.
const SummaryColumns = `s.id, s.workflow_id, s.session_number, s."trigger", s.created_at, s.schema_version, s.machine, s.author,
	s.goal, s.utilization, s.decisions, s.open_errors, s.problem`

// Summary is the row's summary, or the damage that keeps it from being
// listed: ECORRUPT when its JSON is not the snapshot it is stored under,
// ECONFLICT when a newer build wrote it (what a decode would say).
func (r SummaryRow) Summary() (*SnapshotSummary, error) {
	sum, err := r.summary()
	if err != nil {
		return nil, err
	}
	return &sum, nil
}

// summary is Summary by value, for a listing that copies it into a slice.
func (r *SummaryRow) summary() (SnapshotSummary, error) {
	if r.Problem.Valid {
		return SnapshotSummary{}, handoff.Errorf(handoff.ECORRUPT, "snapshot %s is damaged: %s", r.ID, r.Problem.String)
	}
	if r.SchemaVersion > handoff.SnapshotSchemaVersion {
		return SnapshotSummary{}, handoff.Errorf(handoff.ECONFLICT, "snapshot %s: schema version %d is newer than this build of handoff knows (%d): upgrade handoff",
			r.ID, r.SchemaVersion, handoff.SnapshotSchemaVersion)
	}
	return SnapshotSummary{
		ID:            r.ID,
		WorkflowID:    r.WorkflowID,
		SessionNumber: r.SessionNumber,
		Trigger:       handoff.Trigger(r.Trigger),
		CreatedAt:     r.CreatedAt.UTC(),
		Goal:          r.Goal,
		Utilization:   r.Utilization,
		Decisions:     r.Decisions,
		OpenErrors:    r.OpenErrors,
		Machine:       r.Machine,
		User:          r.Author,
	}, nil
}

// listColumns are SummaryColumns as the SQLite listings read them:
// created_at as text, parsed with the one layout the store writes (the
// driver would try its layouts one at a time on every row).
const listColumns = `s.id, s.workflow_id, s.session_number, s."trigger", CAST(s.created_at AS TEXT), s.schema_version, s.machine, s.author,
	s.goal, s.utilization, s.decisions, s.open_errors, s.problem`

// summaryScanner reads listColumns rows (and any extra columns after
// them) into one reused row, so a listing of every snapshot allocates only
// what it keeps.
type summaryScanner struct {
	row  SummaryRow
	at   string
	dest []any
}

// newSummaryScanner prepares to read listColumns followed by extra.
func newSummaryScanner(extra ...any) *summaryScanner {
	sc := &summaryScanner{}
	r := &sc.row
	sc.dest = append([]any{&r.ID, &r.WorkflowID, &r.SessionNumber, &r.Trigger, &sc.at, &r.SchemaVersion, &r.Machine, &r.Author,
		&r.Goal, &r.Utilization, &r.Decisions, &r.OpenErrors, &r.Problem}, extra...)
	return sc
}

// scan reads the current row. read says the row's columns were read (the
// extra ones too), even when it is damaged: err is then its damage.
func (sc *summaryScanner) scan(rows *sql.Rows) (sum SnapshotSummary, read bool, err error) {
	sc.row.Problem = sql.NullString{}
	err = rows.Scan(sc.dest...)
	if err == nil {
		sc.row.CreatedAt, err = parseStored(sc.at)
	}
	if err != nil {
		return sum, false, handoff.Errorf(handoff.ECORRUPT, "a snapshot row does not read: %w", err)
	}
	sum, err = sc.row.summary()
	return sum, true, err
}

// parseStored reads a timestamp as the store writes it (timeLayout, UTC,
// fixed width) without time.Parse's general machinery, which a listing
// of every snapshot would run ten thousand times; anything else goes to
// time.Parse as RFC 3339.
func parseStored(v string) (time.Time, error) {
	if len(v) != len(timeLayout) || v[4] != '-' || v[7] != '-' || v[10] != 'T' || v[13] != ':' || v[16] != ':' || v[19] != '.' || v[29] != 'Z' {
		return time.Parse(time.RFC3339Nano, v)
	}
	n := func(from, to int) int {
		x := 0
		for i := from; i < to; i++ {
			c := v[i]
			if c < '0' || c > '9' {
				return -1
			}
			x = x*10 + int(c-'0')
		}
		return x
	}
	parts := [...]int{n(0, 4), n(5, 7), n(8, 10), n(11, 13), n(14, 16), n(17, 19), n(20, 29)}
	for _, p := range parts {
		if p < 0 {
			return time.Parse(time.RFC3339Nano, v)
		}
	}
	t := time.Date(parts[0], time.Month(parts[1]), parts[2], parts[3], parts[4], parts[5], parts[6], time.UTC)
	if t.Month() != time.Month(parts[1]) || t.Day() != parts[2] || t.Hour() != parts[3] || t.Minute() != parts[4] || t.Second() != parts[5] {
		return time.Parse(timeLayout, v) // out of range: time.Parse's error
	}
	return t, nil
}

package store

import (
	"context"
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
// latest snapshot. Damaged rows (workflows or latest snapshots) are
// skipped and reported in the second result, never failing the listing.
func (s *Store) Overview(ctx context.Context) ([]WorkflowOverview, []error, error) {
	wfs, damaged, err := s.ListWorkflows(ctx)
	if err != nil {
		return nil, damaged, err
	}
	rows, err := s.db.QueryxContext(ctx, `SELECT s.id, s.workflow_id, s.session_number, s."trigger", s.created_at, s.machine, s.author, s.snapshot_json
		FROM session_snapshots s
		WHERE s.id = (SELECT l.id FROM session_snapshots l WHERE l.workflow_id = s.workflow_id ORDER BY l.created_at DESC, l.id DESC LIMIT 1)`)
	if err != nil {
		return nil, damaged, classify("list the latest snapshots", err)
	}
	defer rows.Close()
	latest := map[string]*SnapshotSummary{}
	for rows.Next() {
		sum, err := scanSummary(rows)
		if err != nil {
			damaged = append(damaged, err)
			s.log.Debug("skipped damaged snapshot", "db", s.path, "err", err)
			continue
		}
		latest[sum.WorkflowID] = sum
	}
	if err := rows.Err(); err != nil {
		return nil, damaged, classify("list the latest snapshots", err)
	}
	out := make([]WorkflowOverview, 0, len(wfs))
	for _, wf := range wfs {
		out = append(out, WorkflowOverview{Workflow: wf, Latest: latest[wf.ID]})
	}
	return out, damaged, nil
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

// scanSummary reads one snapshot row into a summary.
func scanSummary(rows interface{ StructScan(any) error }) (*SnapshotSummary, error) {
	var row struct {
		ID            string    `db:"id"`
		WorkflowID    string    `db:"workflow_id"`
		SessionNumber int       `db:"session_number"`
		Trigger       string    `db:"trigger"`
		CreatedAt     time.Time `db:"created_at"`
		Machine       string    `db:"machine"`
		Author        string    `db:"author"`
		JSON          string    `db:"snapshot_json"`
	}
	if err := rows.StructScan(&row); err != nil {
		return nil, handoff.Errorf(handoff.ECORRUPT, "a snapshot row does not read: %w", err)
	}
	snap, err := decodeSnapshot(row.ID, row.JSON)
	if err != nil {
		return nil, err
	}
	return &SnapshotSummary{
		ID:            row.ID,
		WorkflowID:    row.WorkflowID,
		SessionNumber: row.SessionNumber,
		Trigger:       handoff.Trigger(row.Trigger),
		CreatedAt:     row.CreatedAt,
		Goal:          snap.Goal,
		Utilization:   snap.Usage.ContextUtilization,
		Decisions:     len(snap.CurrentDecisions()),
		OpenErrors:    len(snap.UnresolvedErrors()),
		Machine:       row.Machine,
		User:          row.Author,
	}, nil
}

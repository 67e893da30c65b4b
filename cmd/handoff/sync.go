package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/postgres"
)

// syncStore is what sync needs of either side; the SQLite and the
// PostgreSQL stores both have it.
type syncStore interface {
	WorkflowStates(ctx context.Context) ([]store.WorkflowState, error)
	MergeWorkflow(ctx context.Context, remote store.WorkflowState) (bool, error)
	SnapshotMetas(ctx context.Context) ([]store.SnapshotMeta, error)
	Snapshot(ctx context.Context, idOrPrefix string) (*handoff.Snapshot, error)
	ImportSnapshot(ctx context.Context, snap *handoff.Snapshot, meta store.SnapshotMeta) (bool, error)
	ListSnapshots(ctx context.Context, f store.ListFilter) ([]store.SnapshotSummary, []error, error)
	Workflow(ctx context.Context, id string) (*handoff.Workflow, error)
	ListEvents(ctx context.Context, workflowID string) ([]handoff.Event, []error, error)
	CopyEvent(ctx context.Context, ev handoff.Event) (bool, error)
	Close() error
}

// openTarget opens a SQLite path or a postgres:// URL.
func (a *app) openTarget(ctx context.Context, target string) (syncStore, error) {
	if postgres.IsURL(target) {
		s, err := postgres.Open(ctx, target, postgres.Options{Logger: a.log()})
		if err != nil {
			return nil, err // the message names the (redacted) URL
		}
		return s, nil
	}
	s, err := store.Open(ctx, target, store.Options{Logger: a.log()})
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", target, err)
	}
	return s, nil
}

// syncOptions are the flags of `handoff sync`.
type syncOptions struct {
	app      *app
	to, from string
}

func (a *app) newSyncCmd() *cobra.Command {
	o := &syncOptions{app: a}
	cmd := &cobra.Command{
		Use:   "sync [URL] | --to URL | --from URL",
		Short: "Bring the local database and a team database (PostgreSQL) or another file to the same state",
		Long: `sync makes the local database (--db) and another one hold the same
workflows, statuses, snapshots and events: both ways with URL, one way
with --to (local -> URL) or --from (URL -> local). The other database is a
postgres:// URL (a team store) or a SQLite path.

Snapshots keep their id, time, agent session and who made them (machine,
user); session numbers follow from the snapshots (sessions in order of
their first snapshot), so every store numbers them alike, and the latest
snapshot is the newest by time everywhere. A workflow moved differently on
the two sides takes the final status (completed, cancelled) if either has
one, else the later move; the side that changes records a
WORKFLOW_SYNC_RESOLVED event saying what it had and why. Running sync
again copies nothing; an interrupted run resumes where it stopped.`,
		Example: `  handoff sync postgres://team@db.example/handoff
  handoff sync --to postgres://team@db.example/handoff
  handoff sync --from postgres://team@db.example/handoff`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd.Context(), args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.to, "to", "", "copy local state to this database `URL` (or SQLite path) only")
	f.StringVar(&o.from, "from", "", "copy this database's `URL` (or SQLite path) state into the local one only")
	return cmd
}

func (o *syncOptions) run(ctx context.Context, args []string) error {
	a := o.app
	both := ""
	if len(args) == 1 {
		both = args[0]
	}
	given := 0
	for _, v := range []string{both, o.to, o.from} {
		if v != "" {
			given++
		}
	}
	if given != 1 {
		return handoff.Errorf(handoff.EINVALID, "sync: give exactly one of URL (both ways), --to URL or --from URL")
	}
	localName, err := a.dbTarget()
	if err != nil {
		return err
	}
	otherName := both + o.to + o.from
	local, err := a.openTarget(ctx, localName)
	if err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	defer local.Close()
	other, err := a.openTarget(ctx, otherName)
	if err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	defer other.Close()
	type leg struct {
		src, dst         syncStore
		srcName, dstName string
	}
	// Both ways pulls first, so what the pull resolved here (a status the
	// other side had, its WORKFLOW_SYNC_RESOLVED event) goes back up in
	// the push.
	var legs []leg
	if o.to == "" {
		legs = append(legs, leg{other, local, otherName, localName})
	}
	if o.from == "" {
		legs = append(legs, leg{local, other, localName, otherName})
	}
	for _, l := range legs {
		st, err := syncOnce(ctx, l.src, l.dst, func(done, total int) {
			a.status("sync: %d/%d snapshots checked", done, total)
		})
		a.status("sync %s -> %s: copied %d snapshots, %d already there, %d unreadable skipped; %d workflows updated; %d events copied",
			redactTarget(l.srcName), redactTarget(l.dstName), st.copied, st.present, st.damaged, st.workflows, st.events)
		if err != nil {
			return err
		}
	}
	return nil
}

// redactTarget hides a URL's password in messages.
func redactTarget(t string) string {
	if postgres.IsURL(t) {
		s, err := postgres.RedactURL(t)
		if err == nil {
			return s
		}
	}
	return t
}

// syncStats counts what syncOnce did.
type syncStats struct{ copied, present, damaged, workflows, events int }

// progressEvery is how many snapshots pass between progress lines.
const progressEvery = 100

// syncOnce brings src's state into dst: every workflow (created, or its
// status merged by store.MergeStatus), then every snapshot dst lacks by id
// (each in its own transaction, which renumbers its workflow's sessions),
// then every event dst lacks. A failure leaves what was done before it;
// the next run starts from there.
func syncOnce(ctx context.Context, src, dst syncStore, progress func(done, total int)) (syncStats, error) {
	var st syncStats
	wfs, err := src.WorkflowStates(ctx)
	if err != nil {
		return st, fmt.Errorf("sync: list the source's workflows: %w", err)
	}
	for _, wf := range wfs {
		changed, err := dst.MergeWorkflow(ctx, wf)
		if err != nil {
			return st, fmt.Errorf("sync: merge workflow %s (%d updated before it; run sync again to resume): %w", wf.ID, st.workflows, err)
		}
		if changed {
			st.workflows++
		}
	}
	have, err := dst.SnapshotMetas(ctx)
	if err != nil {
		return st, fmt.Errorf("sync: read the destination: %w", err)
	}
	present := make(map[string]bool, len(have))
	for _, m := range have {
		present[m.ID] = true
	}
	metas, err := src.SnapshotMetas(ctx)
	if err != nil {
		return st, fmt.Errorf("sync: list the source: %w", err)
	}
	for i, m := range metas {
		if i > 0 && i%progressEvery == 0 && progress != nil {
			progress(i, len(metas))
		}
		if present[m.ID] {
			st.present++
			continue
		}
		snap, err := src.Snapshot(ctx, m.ID)
		if err != nil {
			st.damaged++
			continue
		}
		stored, err := dst.ImportSnapshot(ctx, snap, m)
		if err != nil {
			return st, fmt.Errorf("sync: copy snapshot %s (%d copied before it; run sync again to resume): %w", m.ID, st.copied, err)
		}
		if stored {
			st.copied++
		} else {
			st.present++
		}
	}
	evs, _, err := src.ListEvents(ctx, "")
	if err != nil {
		return st, fmt.Errorf("sync: list the source's events: %w", err)
	}
	for _, ev := range evs {
		ok, err := dst.CopyEvent(ctx, ev)
		if handoff.ErrorCode(err) == handoff.ENOTFOUND {
			continue // a workflow that did not read at the source
		}
		if err != nil {
			return st, fmt.Errorf("sync: copy event %d (%d copied before it; run sync again to resume): %w", ev.ID, st.events, err)
		}
		if ok {
			st.events++
		}
	}
	return st, nil
}

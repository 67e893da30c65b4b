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
	MergeWorkflow(ctx context.Context, remote store.WorkflowState, role store.MergeRole) (bool, error)
	MarkSynced(ctx context.Context, states []store.WorkflowState) error
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
	// Each kind of state crosses both ways before the next: workflows
	// (pulled first), then snapshots, then events. So a status this sync
	// resolves on either side, and the WORKFLOW_SYNC_RESOLVED event that
	// records it, is on both sides when it ends. A pull records a
	// resolution only for a status that moved here since this store last
	// synced (store.MergeRole): catching up on moves made and synced
	// elsewhere adds no event the others lack, and the same conflict met
	// twice is one event (store.Resolution). The syncs that bring statuses
	// and snapshots together therefore bring the event logs together too
	// (sync_converge_test).
	var legs []*syncLeg
	if o.to == "" {
		legs = append(legs, &syncLeg{src: other, dst: local, srcName: otherName, dstName: localName, role: store.Pulling})
	}
	if o.from == "" {
		legs = append(legs, &syncLeg{src: local, dst: other, srcName: localName, dstName: otherName, role: store.Receiving})
	}
	report := func() {
		for _, l := range legs {
			st := l.stats
			a.status("sync %s -> %s: copied %d snapshots, %d already there, %d unreadable skipped; %d workflows updated; %d events copied",
				redactTarget(l.srcName), redactTarget(l.dstName), st.copied, st.present, st.damaged, st.workflows, st.events)
		}
	}
	for _, phase := range []func(context.Context, *syncLeg, func(done, total int)) error{syncWorkflows, syncSnapshots, syncEvents} {
		for _, l := range legs {
			err := phase(ctx, l, func(done, total int) {
				a.status("sync: %d/%d snapshots checked", done, total)
			})
			if err != nil {
				report()
				return err
			}
		}
	}
	report()
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

// syncStats counts what one direction of a sync did.
type syncStats struct{ copied, present, damaged, workflows, events int }

// syncLeg is one direction of a sync: src's state goes into dst, which
// is the store sync runs on (role store.Pulling) or the other one
// (store.Receiving).
type syncLeg struct {
	src, dst         syncStore
	srcName, dstName string
	role             store.MergeRole
	stats            syncStats
}

// progressEvery is how many snapshots pass between progress lines.
const progressEvery = 100

// syncWorkflows brings every workflow of src into dst: created, or its
// status merged by store.MergeStatus. A failure leaves what was done
// before it; the next run starts from there.
func syncWorkflows(ctx context.Context, l *syncLeg, _ func(done, total int)) error {
	st := &l.stats
	wfs, err := l.src.WorkflowStates(ctx)
	if err != nil {
		return fmt.Errorf("sync: list the source's workflows: %w", err)
	}
	for _, wf := range wfs {
		changed, err := l.dst.MergeWorkflow(ctx, wf, l.role)
		if err != nil {
			return fmt.Errorf("sync: merge workflow %s (%d updated before it; run sync again to resume): %w", wf.ID, st.workflows, err)
		}
		if changed {
			st.workflows++
		}
	}
	if l.role == store.Receiving {
		// The statuses pushed are on the other store now (unless another
		// push overtook one meanwhile): this one's next pull treats them
		// as exchanged (store.MergeRole).
		there, err := l.dst.WorkflowStates(ctx)
		if err != nil {
			return fmt.Errorf("sync: list the destination's workflows: %w", err)
		}
		byID := make(map[string]store.WorkflowState, len(there))
		for _, w := range there {
			byID[w.ID] = w
		}
		var taken []store.WorkflowState
		for _, w := range wfs {
			if d, ok := byID[w.ID]; ok && store.SameStatus(d, w) {
				taken = append(taken, w)
			}
		}
		if err := l.src.MarkSynced(ctx, taken); err != nil {
			return fmt.Errorf("sync: %w", err)
		}
	}
	return nil
}

// syncSnapshots copies every snapshot dst lacks by id, each in its own
// transaction (which renumbers its workflow's sessions).
func syncSnapshots(ctx context.Context, l *syncLeg, progress func(done, total int)) error {
	st := &l.stats
	have, err := l.dst.SnapshotMetas(ctx)
	if err != nil {
		return fmt.Errorf("sync: read the destination: %w", err)
	}
	present := make(map[string]bool, len(have))
	for _, m := range have {
		present[m.ID] = true
	}
	metas, err := l.src.SnapshotMetas(ctx)
	if err != nil {
		return fmt.Errorf("sync: list the source: %w", err)
	}
	for i, m := range metas {
		if i > 0 && i%progressEvery == 0 && progress != nil {
			progress(i, len(metas))
		}
		if present[m.ID] {
			st.present++
			continue
		}
		snap, err := l.src.Snapshot(ctx, m.ID)
		if err != nil {
			st.damaged++
			continue
		}
		stored, err := l.dst.ImportSnapshot(ctx, snap, m)
		if err != nil {
			return fmt.Errorf("sync: copy snapshot %s (%d copied before it; run sync again to resume): %w", m.ID, st.copied, err)
		}
		if stored {
			st.copied++
		} else {
			st.present++
		}
	}
	return nil
}

// syncEvents copies every event dst lacks.
func syncEvents(ctx context.Context, l *syncLeg, _ func(done, total int)) error {
	st := &l.stats
	evs, _, err := l.src.ListEvents(ctx, "")
	if err != nil {
		return fmt.Errorf("sync: list the source's events: %w", err)
	}
	for _, ev := range evs {
		ok, err := l.dst.CopyEvent(ctx, ev)
		if handoff.ErrorCode(err) == handoff.ENOTFOUND {
			continue // a workflow that did not read at the source
		}
		if err != nil {
			return fmt.Errorf("sync: copy event %d (%d copied before it; run sync again to resume): %w", ev.ID, st.events, err)
		}
		if ok {
			st.events++
		}
	}
	return nil
}

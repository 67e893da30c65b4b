package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/postgres"
)

// syncStore is what sync needs of either side; the SQLite and the
// PostgreSQL stores both have it.
type syncStore interface {
	ListSnapshots(ctx context.Context, f store.ListFilter) ([]store.SnapshotSummary, []error, error)
	Snapshot(ctx context.Context, idOrPrefix string) (*handoff.Snapshot, error)
	SaveSnapshot(ctx context.Context, snap *handoff.Snapshot, wf store.WorkflowInfo) error
	Workflow(ctx context.Context, id string) (*handoff.Workflow, error)
	ListEvents(ctx context.Context, workflowID string) ([]handoff.Event, []error, error)
	CopyEvent(ctx context.Context, ev handoff.Event) (bool, error)
	Close() error
}

// hashStore is a store that keeps each snapshot's content hash (the
// PostgreSQL one), so sync reads hashes instead of decoding snapshots.
type hashStore interface {
	ContentHashes(ctx context.Context) (map[string]string, error)
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
		Use:   "sync (--to URL | --from URL)",
		Short: "Copy snapshots a team database (PostgreSQL) or another file does not have yet",
		Long: `sync copies the snapshots of the local database (--db) that the other one
lacks (--to), or the other way round (--from). A snapshot is identified by its
content hash, so running sync again copies nothing, and an interrupted run
resumes where it stopped: every snapshot is copied in its own transaction,
with its workflow and its SNAPSHOT_CREATED event. The other database is a
postgres:// URL (a team store) or a SQLite path.`,
		Example: `  handoff sync --to postgres://team@db.example/handoff
  handoff sync --from postgres://team@db.example/handoff`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.to, "to", "", "copy local snapshots to this database `URL` (or SQLite path)")
	f.StringVar(&o.from, "from", "", "copy snapshots from this database `URL` (or SQLite path) into the local one")
	return cmd
}

func (o *syncOptions) run(ctx context.Context) error {
	a := o.app
	if (o.to == "") == (o.from == "") {
		return handoff.Errorf(handoff.EINVALID, "sync: give exactly one of --to URL or --from URL")
	}
	local, err := a.dbTarget()
	if err != nil {
		return err
	}
	srcName, dstName := local, o.to
	if o.from != "" {
		srcName, dstName = o.from, local
	}
	src, err := a.openTarget(ctx, srcName)
	if err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	defer src.Close()
	dst, err := a.openTarget(ctx, dstName)
	if err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	defer dst.Close()
	st, err := syncSnapshots(ctx, src, dst, func(done, total int) {
		a.status("sync: %d/%d snapshots checked", done, total)
	})
	if err == nil {
		st.events, err = syncEvents(ctx, src, dst)
	}
	a.status("sync %s -> %s: copied %d snapshots, %d already there, %d unreadable skipped; %d pause/resume events copied",
		redactTarget(srcName), redactTarget(dstName), st.copied, st.present, st.damaged, st.events)
	return err
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

// syncStats counts what syncSnapshots did.
type syncStats struct{ copied, present, damaged, events int }

// syncedEvents are the event types sync copies: a workflow's pauses and
// resumes, which say when work stopped and picked up again. The events a
// save records (WORKFLOW_CREATED, SNAPSHOT_CREATED) are recorded anew by
// the destination's own save of each copied snapshot.
var syncedEvents = []handoff.EventType{handoff.EventWorkflowPaused, handoff.EventWorkflowResumed}

// syncEvents copies src's pause and resume events of every workflow dst
// has into dst, each once (CopyEvent matches workflow, type, time and
// detail), and returns how many it recorded.
func syncEvents(ctx context.Context, src, dst syncStore) (int, error) {
	evs, _, err := src.ListEvents(ctx, "")
	if err != nil {
		return 0, fmt.Errorf("sync: list the source's events: %w", err)
	}
	copied := 0
	for _, ev := range evs {
		if !slices.Contains(syncedEvents, ev.Type) {
			continue
		}
		ok, err := dst.CopyEvent(ctx, ev)
		if handoff.ErrorCode(err) == handoff.ENOTFOUND {
			continue // a workflow none of whose snapshots was copied
		}
		if err != nil {
			return copied, fmt.Errorf("sync: copy event %d (%d copied before it; run sync again to resume): %w", ev.ID, copied, err)
		}
		if ok {
			copied++
		}
	}
	return copied, nil
}

// progressEvery is how many snapshots pass between progress lines.
const progressEvery = 100

// syncSnapshots copies every snapshot of src whose content hash dst does
// not hold, oldest session first per workflow so dst numbers them in
// order. Each copy is its own transaction: a failure leaves what was copied
// before it, and the next run starts from there.
func syncSnapshots(ctx context.Context, src, dst syncStore, progress func(done, total int)) (syncStats, error) {
	var st syncStats
	have, err := contentHashes(ctx, dst)
	if err != nil {
		return st, fmt.Errorf("sync: read the destination: %w", err)
	}
	list, bad, err := src.ListSnapshots(ctx, store.ListFilter{})
	if err != nil {
		return st, fmt.Errorf("sync: list the source: %w", err)
	}
	st.damaged = len(bad)
	slices.SortStableFunc(list, func(x, y store.SnapshotSummary) int {
		if c := x.CreatedAt.Compare(y.CreatedAt); c != 0 {
			return c
		}
		return x.SessionNumber - y.SessionNumber
	})
	var srcHashes map[string]string
	if h, ok := src.(hashStore); ok {
		if srcHashes, err = h.ContentHashes(ctx); err != nil {
			return st, fmt.Errorf("sync: read the source: %w", err)
		}
	}
	infos := map[string]store.WorkflowInfo{}
	for i, sum := range list {
		if i > 0 && i%progressEvery == 0 && progress != nil {
			progress(i, len(list))
		}
		if h, ok := srcHashes[sum.ID]; ok && have[h] {
			st.present++
			continue
		}
		snap, err := src.Snapshot(ctx, sum.ID)
		if err != nil {
			st.damaged++
			continue
		}
		hash, err := postgres.ContentHash(snap)
		if err != nil {
			return st, err
		}
		if have[hash] {
			st.present++
			continue
		}
		info, ok := infos[snap.WorkflowID]
		if !ok {
			if wf, err := src.Workflow(ctx, snap.WorkflowID); err == nil {
				info = store.WorkflowInfo{Name: wf.Name, Dir: wf.Dir}
			}
			infos[snap.WorkflowID] = info
		}
		snap.SessionNumber = 0 // the destination numbers its own sessions
		if err := dst.SaveSnapshot(ctx, snap, info); err != nil {
			return st, fmt.Errorf("sync: copy snapshot %s (%d copied before it; run sync again to resume): %w", sum.ID, st.copied, err)
		}
		have[hash] = true
		st.copied++
	}
	return st, nil
}

// contentHashes returns the content hashes of every snapshot of s: from
// the store when it keeps them, else by reading each snapshot.
func contentHashes(ctx context.Context, s syncStore) (map[string]bool, error) {
	if h, ok := s.(hashStore); ok {
		byID, err := h.ContentHashes(ctx)
		if err != nil {
			return nil, err
		}
		out := make(map[string]bool, len(byID))
		for _, hash := range byID {
			out[hash] = true
		}
		return out, nil
	}
	list, _, err := s.ListSnapshots(ctx, store.ListFilter{})
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(list))
	for _, sum := range list {
		snap, err := s.Snapshot(ctx, sum.ID)
		if err != nil {
			continue // unreadable: it cannot match anything
		}
		h, err := postgres.ContentHash(snap)
		if err != nil {
			return nil, err
		}
		out[h] = true
	}
	return out, nil
}

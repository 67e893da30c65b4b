package main

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/redact"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/store"
)

// statusOptions are the flags of `handoff status`.
type statusOptions struct {
	app      *app
	json     bool
	set      string
	workflow string
	reason   string
	dir      string
	events   bool
}

func (a *app) newStatusCmd() *cobra.Command {
	o := &statusOptions{app: a}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "List workflows: status, sessions, last snapshot, context use at the last checkpoint",
		Long: `status lists every workflow, most recently active first, with its status,
session count, latest snapshot and the context use at that checkpoint.

With --set it moves one workflow (--workflow, else the current directory's)
to a new status instead: pending, in_progress, paused, blocked, completed,
failed, cancelled or imported (history, listed last). Completed and cancelled are final; a move the
lifecycle does not allow is refused (exit 6).`,
		Example: `  handoff status
  handoff status --set completed --reason "merged"
  handoff status --workflow wf_1a2b --set blocked --reason "waiting on review"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "print JSON")
	f.StringVar(&o.set, "set", "", "move the workflow to this `status`")
	f.StringVar(&o.workflow, "workflow", "", "with --set: the workflow `id` (default: resolved from the directory)")
	f.StringVar(&o.reason, "reason", "", "with --set: why, recorded in the event")
	f.StringVarP(&o.dir, "dir", "C", "", "with --set: directory to resolve the workflow from (default: current directory)")
	f.BoolVar(&o.events, "events", false, "list the event log (of --workflow, else of every workflow), oldest first")
	return cmd
}

func (o *statusOptions) run(ctx context.Context) error {
	a := o.app
	s, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	if o.set != "" {
		if o.events {
			return handoff.Errorf(handoff.EINVALID, "--set and --events do not go together")
		}
		return o.setStatus(ctx, s)
	}
	if o.reason != "" {
		return handoff.Errorf(handoff.EINVALID, "--reason goes with --set")
	}
	if o.events {
		return o.listEvents(ctx, s)
	}
	if o.workflow != "" {
		return handoff.Errorf(handoff.EINVALID, "--workflow goes with --set or --events")
	}
	list, bad, err := s.Overview(ctx)
	if err != nil {
		return fmt.Errorf("list workflows: %w", err)
	}
	for _, e := range bad {
		a.status("skipped a damaged row: %v", e)
	}
	// Imported history (extract) after the work people are doing.
	slices.SortStableFunc(list, func(x, y store.WorkflowOverview) int {
		return cmp.Compare(btoi(x.Status == handoff.WorkflowImported), btoi(y.Status == handoff.WorkflowImported))
	})
	if o.json {
		return writeJSON(a.stdout, list)
	}
	if len(list) == 0 {
		a.status("no workflows yet: run 'handoff compile' or 'handoff pause' on a session")
		return nil
	}
	tb := a.newTable("WORKFLOW", "STATUS", "SESSIONS", "LAST SNAPSHOT", "TRIGGER", "WHEN", "CONTEXT", "NAME").keep(0, 3)
	for _, w := range list {
		snap, trigger, when, util := "-", "-", w.UpdatedAt.Local().Format(time.DateTime), "-"
		if l := w.Latest; l != nil {
			snap, trigger, when = l.ID, string(l.Trigger), l.CreatedAt.Local().Format(time.DateTime)
			util = fmt.Sprintf("%.0f%%", 100*l.Utilization)
		}
		status := string(w.Status)
		if w.PauseReason != "" {
			status += " (" + w.PauseReason + ")"
		}
		tb.row(tb.id(w.ID), status, cellf("%d", w.SessionCount), snap, trigger, when, util, w.Name)
	}
	return tb.flush()
}

// setStatus is `status --set`: one lifecycle move, checked and recorded by
// the store in one transaction.
func (o *statusOptions) setStatus(ctx context.Context, s session.Store) error {
	to := handoff.WorkflowStatus(o.set)
	if !to.Valid() {
		return handoff.Errorf(handoff.EINVALID, "--set %q: not a status (pending, in_progress, paused, blocked, completed, failed, cancelled, imported)", o.set)
	}
	ref := session.Ref{Workflow: o.workflow}
	if ref.Workflow == "" {
		dir, err := dirOrWD(o.dir)
		if err != nil {
			return err
		}
		ref.Dir = dir
	}
	target, err := session.Resolve(ctx, s, ref)
	if err != nil {
		return err
	}
	id := target.ID
	if err := s.SetWorkflowStatus(ctx, id, to, redact.String(o.reason)); err != nil {
		return err
	}
	wf, err := s.Workflow(ctx, id)
	if err != nil {
		return err
	}
	if o.json {
		return writeJSON(o.app.stdout, wf)
	}
	fmt.Fprintf(o.app.stdout, "%s\t%s\n", wf.ID, wf.Status)
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

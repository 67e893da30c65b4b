package main

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff/store"
)

// listOptions are the flags of `handoff list`.
type listOptions struct {
	app      *app
	workflow string
	limit    int
	json     bool
}

func (a *app) newListCmd() *cobra.Command {
	o := &listOptions{app: a}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List stored snapshots, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.workflow, "workflow", "", "only snapshots of this workflow `id`")
	f.IntVarP(&o.limit, "limit", "n", 20, "at most `N` snapshots (0 for all)")
	f.BoolVar(&o.json, "json", false, "print JSON")
	return cmd
}

func (o *listOptions) run(ctx context.Context) error {
	a := o.app
	s, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	wfID, err := workflowFilter(ctx, s, o.workflow)
	if err != nil {
		return err
	}
	list, bad, err := s.ListSnapshots(ctx, store.ListFilter{WorkflowID: wfID, Limit: o.limit})
	if err != nil {
		return fmt.Errorf("list snapshots: %w", err)
	}
	for _, e := range bad {
		a.status("skipped a damaged snapshot: %v", e)
	}
	if o.json {
		if list == nil {
			list = []store.SnapshotSummary{} // [] for none, never null
		}
		return writeJSON(a.stdout, list)
	}
	if len(list) == 0 {
		a.status("no snapshots stored yet")
		return nil
	}
	tb := a.newTable("SNAPSHOT", "WORKFLOW", "SESSION", "TRIGGER", "CREATED", "CONTEXT", "DECISIONS", "OPEN ERRORS", "GOAL").keep(0, 1)
	// strconv, not cellf: a listing of every snapshot formats tens of
	// thousands of numbers, and fmt's per-call cost showed in its profile.
	for _, sn := range list {
		tb.row(sn.ID, tb.id(sn.WorkflowID), strconv.Itoa(sn.SessionNumber), string(sn.Trigger),
			sn.CreatedAt.Local().Format(time.DateTime), strconv.FormatFloat(100*sn.Utilization, 'f', 0, 64)+"%",
			strconv.Itoa(sn.Decisions), strconv.Itoa(sn.OpenErrors), sn.Goal)
	}
	return tb.flush()
}

// shorten cuts s to at most n runes on one line, marking the cut.
func shorten(s string, n int) string {
	r := []rune(s)
	for i, c := range r {
		if c == '\n' || c == '\r' || c == '\t' {
			r[i] = ' '
		}
	}
	if len(r) <= n {
		return string(r)
	}
	return string(r[:n-1]) + "…"
}

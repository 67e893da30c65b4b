package main

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
)

// statusOptions are the flags of `handoff status`.
type statusOptions struct {
	app  *app
	json bool
}

func (a *app) newStatusCmd() *cobra.Command {
	o := &statusOptions{app: a}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "List workflows: status, sessions, last snapshot, context use at the last checkpoint",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.Context())
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON")
	return cmd
}

func (o *statusOptions) run(ctx context.Context) error {
	a := o.app
	s, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	list, bad, err := s.Overview(ctx)
	if err != nil {
		return fmt.Errorf("list workflows: %w", err)
	}
	for _, e := range bad {
		a.status("skipped a damaged row: %v", e)
	}
	if o.json {
		return writeJSON(a.stdout, list)
	}
	if len(list) == 0 {
		a.status("no workflows yet: run 'handoff compile' or 'handoff pause' on a session")
		return nil
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKFLOW\tSTATUS\tSESSIONS\tLAST SNAPSHOT\tTRIGGER\tWHEN\tCONTEXT\tNAME")
	for _, w := range list {
		snap, trigger, when, util := "-", "-", w.UpdatedAt.Local().Format(time.DateTime), "-"
		if l := w.Latest; l != nil {
			snap, trigger, when = l.ID, string(l.Trigger), l.CreatedAt.Local().Format(time.DateTime)
			util = fmt.Sprintf("%.0f%%", 100*l.Utilization)
		}
		status := string(w.Status)
		if w.PauseReason != "" {
			status += " (" + shorten(w.PauseReason, 30) + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", shorten(w.ID, 40), status, w.SessionCount, snap, trigger, when, util, shorten(w.Name, 30))
	}
	return tw.Flush()
}

package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"

	"github.com/handoff-cli/handoff/history"
	"github.com/handoff-cli/handoff/session"
)

// diffOptions are the flags of `handoff diff`.
type diffOptions struct {
	app  *app
	json bool
}

func (a *app) newDiffCmd() *cobra.Command {
	o := &diffOptions{app: a}
	cmd := &cobra.Command{
		Use:   "diff SNAPSHOT1 [SNAPSHOT2]",
		Short: "Show what changed between two snapshots (default SNAPSHOT2: the latest of SNAPSHOT1's workflow)",
		Long: `diff compares two stored snapshots: tasks done, added and dropped;
decisions added, superseded and no longer mentioned; errors fixed, new and
no longer mentioned; files; tests; git; context use. Records are matched by
content, since each session numbers its own records.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 || len(args) > 2 {
				return handoff.Errorf(handoff.EINVALID, "diff takes one or two snapshots (ids or prefixes from 'handoff list'), got %d: handoff diff SNAPSHOT1 [SNAPSHOT2]", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd.Context(), args)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print the diff as JSON")
	return cmd
}

func (o *diffOptions) run(ctx context.Context, args []string) error {
	a := o.app
	s, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	from, err := session.ResolveSnapshot(ctx, s, args[0])
	if err != nil {
		return err
	}
	to := from
	if len(args) == 2 {
		to, err = session.ResolveSnapshot(ctx, s, args[1])
	} else {
		to, err = s.LatestSnapshot(ctx, from.WorkflowID)
	}
	if err != nil {
		return err
	}
	d := history.Compare(from, to)
	if o.json {
		return writeJSON(a.stdout, d)
	}
	return history.WriteText(a.stdout, d)
}

package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
)

// gcOptions are the flags of `handoff gc`.
type gcOptions struct {
	app       *app
	olderThan string
	dryRun    bool
	json      bool
	now       func() time.Time
}

func (a *app) newGCCmd() *cobra.Command {
	o := &gcOptions{app: a, now: time.Now}
	cmd := &cobra.Command{
		Use:   "gc",
		Short: "Remove completed and cancelled workflows inactive for longer than --older-than",
		Long: `gc removes completed and cancelled workflows, with their snapshots and
events, when they were last active longer ago than --older-than. Open
workflows (pending, in progress, paused, blocked, failed) are never
touched, so the latest snapshot of an open workflow always survives.`,
		Example: `  handoff gc --older-than 7d --dry-run
  handoff gc --older-than 2w`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.olderThan, "older-than", "30d", "age: a number with d (days), w (weeks) or a Go duration (36h)")
	f.BoolVar(&o.dryRun, "dry-run", false, "list what would be removed, remove nothing")
	f.BoolVar(&o.json, "json", false, "print JSON")
	return cmd
}

// parseAge reads 7d, 2w or a Go duration such as 36h.
func parseAge(s string) (time.Duration, error) {
	unit := map[string]time.Duration{"d": 24 * time.Hour, "w": 7 * 24 * time.Hour}
	for suffix, mult := range unit {
		if n, ok := strings.CutSuffix(s, suffix); ok {
			v, err := strconv.Atoi(n)
			if err != nil || v < 0 {
				return 0, handoff.Errorf(handoff.EINVALID, "--older-than %q: want a number of days (7d) or weeks (2w), or a duration (36h)", s)
			}
			return time.Duration(v) * mult, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, handoff.Errorf(handoff.EINVALID, "--older-than %q: want a number of days (7d) or weeks (2w), or a duration (36h)", s)
	}
	return d, nil
}

func (o *gcOptions) run(ctx context.Context) error {
	a := o.app
	age, err := parseAge(o.olderThan)
	if err != nil {
		return err
	}
	s, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	removed, err := s.GC(ctx, o.now().Add(-age), o.dryRun)
	if err != nil {
		return err
	}
	if o.json {
		if removed == nil {
			return writeJSON(a.stdout, []any{})
		}
		return writeJSON(a.stdout, removed)
	}
	verb := "removed"
	if o.dryRun {
		verb = "would remove"
	}
	snaps := 0
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	for _, c := range removed {
		snaps += c.Snapshots
		fmt.Fprintf(tw, "%s\t%s\t%d snapshot(s)\tlast active %s\n", c.ID, c.Status, c.Snapshots, c.UpdatedAt.Local().Format(time.DateTime))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	a.status("%s %d workflow(s), %d snapshot(s) inactive for more than %s", verb, len(removed), snaps, o.olderThan)
	return nil
}

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
	"github.com/handoff-cli/handoff/store"
)

// recordFlags are what `decisions` and `errors` share.
type recordFlags struct {
	workflow string
	grep     string
	since    string
	all      bool
	limit    int
	json     bool
}

func (f *recordFlags) add(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&f.workflow, "workflow", "", "only this workflow `id`")
	fs.StringVar(&f.grep, "grep", "", "only records containing `TEXT` (ASCII case ignored)")
	fs.StringVar(&f.since, "since", "", "only records from `WHEN` on: a duration back from now (36h, 7d, 2w), a date (2026-01-31) or an RFC 3339 time")
	fs.BoolVar(&f.all, "all", false, "read every stored snapshot (the history), not only each workflow's latest")
	fs.IntVarP(&f.limit, "limit", "n", 0, "at most `N` records (0 for all)")
	fs.BoolVar(&f.json, "json", false, "print JSON")
}

// filter turns the flags into the store's filter, now being the clock.
func (f *recordFlags) filter(now time.Time) (store.RecordFilter, error) {
	rf := store.RecordFilter{WorkflowID: f.workflow, Grep: f.grep, All: f.all, Limit: f.limit}
	if f.limit < 0 {
		return rf, handoff.Errorf(handoff.EINVALID, "--limit must not be negative, got %d", f.limit)
	}
	if f.since != "" {
		t, err := parseSince(f.since, now)
		if err != nil {
			return rf, err
		}
		rf.Since = t
	}
	return rf, nil
}

// parseSince reads --since: a duration back from now (Go durations plus d
// for days and w for weeks), a date (midnight UTC) or an RFC 3339 time.
func parseSince(v string, now time.Time) (time.Time, error) {
	v = strings.TrimSpace(v)
	if n := len(v); n > 1 && (v[n-1] == 'd' || v[n-1] == 'w') {
		if k, err := strconv.Atoi(v[:n-1]); err == nil && k >= 0 {
			day := 24 * time.Hour
			if v[n-1] == 'w' {
				day *= 7
			}
			return now.Add(-time.Duration(k) * day), nil
		}
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	return time.Time{}, handoff.Errorf(handoff.EINVALID, "--since %q: want a duration (36h, 7d, 2w), a date (2026-01-31) or an RFC 3339 time", v)
}

// decisionsOptions are the flags of `handoff decisions`.
type decisionsOptions struct {
	app *app
	recordFlags
	typ        string
	superseded bool
}

func (a *app) newDecisionsCmd() *cobra.Command {
	o := &decisionsOptions{app: a}
	cmd := &cobra.Command{
		Use:   "decisions",
		Short: "List the decisions stored across all sessions",
		Long: `decisions lists the decisions in the stored snapshots. By default it reads
each workflow's latest snapshot and shows the decisions in force there —
what a resumed session would be told — newest workflow first. --all reads
every snapshot (a decision repeats in each later session of its workflow),
--superseded adds decisions a later one reversed. Damaged snapshots are
skipped and reported on stderr.`,
		Example: `  handoff decisions --grep redis
  handoff decisions --type library --since 7d --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.Context())
		},
	}
	o.recordFlags.add(cmd)
	cmd.Flags().StringVar(&o.typ, "type", "", "only this decision `type`: approach, library, architecture, workaround, skip, clarification")
	cmd.Flags().BoolVar(&o.superseded, "superseded", false, "include decisions a later one reversed")
	return cmd
}

func (o *decisionsOptions) run(ctx context.Context) error {
	a := o.app
	rf, err := o.filter(time.Now())
	if err != nil {
		return err
	}
	f := store.DecisionFilter{RecordFilter: rf, Type: handoff.DecisionType(strings.ToLower(o.typ)), Superseded: o.superseded}
	if f.Type != "" && !f.Type.Valid() {
		return handoff.Errorf(handoff.EINVALID, "--type %q: want approach, library, architecture, workaround, skip or clarification", o.typ)
	}
	s, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	list, damaged, err := s.Decisions(ctx, f)
	if err != nil {
		return fmt.Errorf("query decisions: %w", err)
	}
	a.reportDamaged(damaged)
	if o.json {
		if list == nil {
			list = []store.StoredDecision{}
		}
		return writeJSON(a.stdout, list)
	}
	if len(list) == 0 {
		a.status("no decisions match")
		return nil
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKFLOW\tSESSION\tTYPE\tSTATE\tDECISION\tWHY")
	for _, d := range list {
		state := "current"
		if d.SupersededBy != "" {
			state = "superseded"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\n", workflowLabelOf(d.Origin), d.SessionNumber, d.Type, state,
			shorten(d.Description, 80), shorten(d.Rationale, 60))
	}
	return tw.Flush()
}

// errorsOptions are the flags of `handoff errors`.
type errorsOptions struct {
	app *app
	recordFlags
	unresolved bool
	typ        string
}

func (a *app) newErrorsCmd() *cobra.Command {
	o := &errorsOptions{app: a}
	cmd := &cobra.Command{
		Use:   "errors",
		Short: "List the errors stored across all sessions",
		Long: `errors lists the errors in the stored snapshots, from each workflow's
latest snapshot by default (an error fixed in a later session shows as
fixed), or from every snapshot with --all. --unresolved keeps those left
unresolved or deferred: what is still open. Damaged snapshots are skipped
and reported on stderr.`,
		Example: `  handoff errors --unresolved
  handoff errors --workflow 7f3c2a1e --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.Context())
		},
	}
	o.recordFlags.add(cmd)
	cmd.Flags().BoolVar(&o.unresolved, "unresolved", false, "only errors left unresolved or deferred")
	cmd.Flags().StringVar(&o.typ, "type", "", "only this error `type` (test_failure, build_error, command_failed, tool_error, …)")
	return cmd
}

func (o *errorsOptions) run(ctx context.Context) error {
	a := o.app
	rf, err := o.filter(time.Now())
	if err != nil {
		return err
	}
	s, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	list, damaged, err := s.Errors(ctx, store.ErrorFilter{RecordFilter: rf, Unresolved: o.unresolved, Type: o.typ})
	if err != nil {
		return fmt.Errorf("query errors: %w", err)
	}
	a.reportDamaged(damaged)
	if o.json {
		if list == nil {
			list = []store.StoredError{}
		}
		return writeJSON(a.stdout, list)
	}
	if len(list) == 0 {
		a.status("no errors match")
		return nil
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKFLOW\tSESSION\tTYPE\tRESOLUTION\tERROR\tCOMMAND")
	for _, e := range list {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\n", workflowLabelOf(e.Origin), e.SessionNumber, e.Type, e.Resolution,
			shorten(e.Message, 80), shorten(e.Command, 50))
	}
	return tw.Flush()
}

// workflowLabelOf names a record's workflow in a table: its name (the
// project directory) and the start of its id.
func workflowLabelOf(o store.Origin) string {
	id := shorten(o.WorkflowID, 10)
	if o.WorkflowName == "" || o.WorkflowName == o.WorkflowID {
		return id
	}
	return shorten(o.WorkflowName, 20) + " (" + id + ")"
}

// reportDamaged says on stderr which stored records could not be read.
func (a *app) reportDamaged(damaged []error) {
	for _, e := range damaged {
		a.status("skipped damaged data: %v", e)
	}
}

package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff/store"
)

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
	if rf.WorkflowID, err = workflowFilter(ctx, s, rf.WorkflowID); err != nil {
		return err
	}
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
	tb := a.newTable("WORKFLOW", "SESSION", "TYPE", "RESOLUTION", "ERROR", "COMMAND").cutLast(4)
	for _, e := range list {
		tb.row(tb.workflowLabel(e.Origin), cellf("%d", e.SessionNumber), string(e.Type), string(e.Resolution), e.Message, e.Command)
	}
	return tb.flush()
}

// workflowLabelOf names a record's workflow in a table: its name (the
// project directory) and the start of its id.

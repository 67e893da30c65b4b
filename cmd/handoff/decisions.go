package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

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
	if f.WorkflowID, err = workflowFilter(ctx, s, f.WorkflowID); err != nil {
		return err
	}
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
	tb := a.newTable("WORKFLOW", "SESSION", "TYPE", "STATE", "DECISION", "WHY").cutLast(4)
	for _, d := range list {
		state := "current"
		if d.SupersededBy != "" {
			state = "superseded"
		}
		tb.row(tb.workflowLabel(d.Origin), strconv.Itoa(d.SessionNumber), string(d.Type), state, d.Description, d.Rationale)
	}
	return tb.flush()
}

// workflowLabel names a record's workflow in a table: its name (the
// project directory) and its id; on a terminal the short id first, so a
// cut column still shows what to copy.
func (t *table) workflowLabel(o store.Origin) string {
	id := t.id(o.WorkflowID)
	switch {
	case o.WorkflowName == "" || o.WorkflowName == o.WorkflowID:
		return id
	case t.tty:
		return id + " " + o.WorkflowName
	}
	return o.WorkflowName + " (" + id + ")"
}

// reportDamaged says on stderr which stored records could not be read.
func (a *app) reportDamaged(damaged []error) {
	for _, e := range damaged {
		a.status("skipped damaged data: %v", e)
	}
}

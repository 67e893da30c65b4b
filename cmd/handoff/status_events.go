package main

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// listEvents is `status --events`.
func (o *statusOptions) listEvents(ctx context.Context, s *store.Store) error {
	events, bad, err := s.ListEvents(ctx, o.workflow)
	if err != nil {
		return err
	}
	for _, e := range bad {
		o.app.status("skipped a damaged row: %v", e)
	}
	if o.json {
		if events == nil {
			events = []handoff.Event{}
		}
		return writeJSON(o.app.stdout, events)
	}
	tw := tabwriter.NewWriter(o.app.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "WHEN\tWORKFLOW\tEVENT\tSNAPSHOT\tDETAIL")
	for _, e := range events {
		snap := e.SnapshotID
		if snap == "" {
			snap = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.CreatedAt.Local().Format(time.DateTime), shorten(e.WorkflowID, 40), e.Type, snap, shorten(e.Detail, 80))
	}
	return tw.Flush()
}

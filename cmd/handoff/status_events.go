package main

import (
	"context"
	"time"

	"github.com/handoff-cli/handoff"
)

// listEvents is `status --events`.
func (o *statusOptions) listEvents(ctx context.Context, s cliStore) error {
	wfID, err := workflowFilter(ctx, s, o.workflow)
	if err != nil {
		return err
	}
	events, bad, err := s.ListEvents(ctx, wfID)
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
	tb := o.app.newTable("WHEN", "WORKFLOW", "EVENT", "SNAPSHOT", "DETAIL").keep(1, 3)
	for _, e := range events {
		snap := e.SnapshotID
		if snap == "" {
			snap = "-"
		}
		tb.row(e.CreatedAt.Local().Format(time.DateTime), tb.id(e.WorkflowID), string(e.Type), snap, e.Detail)
	}
	return tb.flush()
}

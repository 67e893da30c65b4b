package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/redact"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/store"
)

// forkOptions are the flags of `handoff fork`.
type forkOptions struct {
	app      *app
	sets     []string
	note     string
	workflow string
	name     string
	json     bool
}

func (a *app) newForkCmd() *cobra.Command {
	o := &forkOptions{app: a}
	cmd := &cobra.Command{
		Use:   "fork SNAPSHOT",
		Short: "Start a new workflow from a copy of a historical snapshot",
		Long: `fork copies SNAPSHOT (id or unique prefix) into a new workflow as its
session 1, optionally edited with --set, and records WORKFLOW_FORKED naming
the source. The new workflow is paused: 'handoff resume --workflow NEW'
picks it up. The source snapshot and its workflow are not changed.

--set keys: goal, next_step, next_task and current_task (a task id, or
text matching exactly one task's content).`,
		Example: `  handoff fork snap_7k2m --set next_task=3 --note "try the Redis approach"
  handoff fork snap_7k2m --set next_step="revert to x/time/rate and rerun the tests"`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd.Context(), args[0])
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&o.sets, "set", nil, "`key=value` to change in the copy (repeatable)")
	f.StringVar(&o.note, "note", "", "why the fork was made, recorded in its WORKFLOW_FORKED event")
	f.StringVar(&o.workflow, "workflow", "", "`id` of the new workflow (default: a fresh wf_… id)")
	f.StringVar(&o.name, "name", "", "name of the new workflow (default: fork of the source's name)")
	f.BoolVar(&o.json, "json", false, "print the new snapshot as JSON")
	return cmd
}

func (o *forkOptions) run(ctx context.Context, source string) error {
	a := o.app
	s, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	src, err := session.ResolveSnapshot(ctx, s, source)
	if err != nil {
		return err
	}
	cp := *src
	cp.ID, cp.SessionNumber, cp.CreatedAt = "", 0, time.Time{} // the store stamps the copy
	cp.WorkflowID = o.workflow
	if cp.WorkflowID == "" {
		cp.WorkflowID = store.NewID("wf_")
	}
	cp.Tasks = append([]handoff.Task(nil), src.Tasks...)
	for _, kv := range o.sets {
		if err := applySet(&cp, kv); err != nil {
			return err
		}
	}
	note := redact.String(o.note)
	cp.PauseReason = "forked from " + src.ID
	if note != "" {
		cp.PauseReason += ": " + note
	}
	// --set values are typed by a person and stored: they are redacted like
	// everything else that enters a snapshot.
	redact.Snapshot(&cp)

	info := store.WorkflowInfo{Name: o.name}
	if srcWF, err := s.Workflow(ctx, src.WorkflowID); err == nil {
		info.Dir = srcWF.Dir
		if info.Name == "" {
			info.Name = "fork of " + srcWF.Name
		}
	}
	if err := s.Fork(ctx, &cp, info, src.ID, note); err != nil {
		return fmt.Errorf("fork snapshot %s: %w", src.ID, err)
	}
	if o.json {
		return writeJSON(a.stdout, &cp)
	}
	fmt.Fprintf(a.stdout, "%s\n", cp.WorkflowID)
	a.status("forked snapshot %s (workflow %s, session %d) into workflow %s as snapshot %s; resume with 'handoff resume --workflow %s'",
		src.ID, src.WorkflowID, src.SessionNumber, cp.WorkflowID, cp.ID, cp.WorkflowID)
	return nil
}

// applySet applies one --set key=value to the copy.
func applySet(s *handoff.Snapshot, kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	if !ok {
		return handoff.Errorf(handoff.EINVALID, "--set %q: want key=value", kv)
	}
	switch k {
	case "goal":
		s.Goal = v
	case "next_step":
		s.NextStep = v
	case "next_task", "current_task":
		id, err := findTask(s, v)
		if err != nil {
			return fmt.Errorf("--set %s: %w", k, err)
		}
		if k == "next_task" {
			s.NextTaskID = id
		} else {
			s.CurrentTaskID = id
		}
	default:
		return handoff.Errorf(handoff.EINVALID, "--set %q: unknown key %q (use goal, next_step, next_task or current_task)", kv, k)
	}
	return nil
}

// findTask returns the id of the task whose id is v, else of the one task
// whose content contains v; "" clears.
func findTask(s *handoff.Snapshot, v string) (string, error) {
	if v == "" {
		return "", nil
	}
	for _, t := range s.Tasks {
		if t.ID == v {
			return t.ID, nil
		}
	}
	var hits []string
	for _, t := range s.Tasks {
		if strings.Contains(strings.ToLower(t.Content), strings.ToLower(v)) {
			hits = append(hits, t.ID)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return "", handoff.Errorf(handoff.EINVALID, "no task with id or text %q (see 'handoff show SNAPSHOT --tasks')", v)
	}
	return "", handoff.Errorf(handoff.EINVALID, "%q matches %d tasks (%s): use a task id", v, len(hits), strings.Join(hits, ", "))
}

package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/store"
)

// printSummary is show's human view of a whole snapshot: where it stands
// and how much of each kind of record there is, with the flags that print
// them. --json gives the snapshot itself.
func printSummary(w io.Writer, snap *handoff.Snapshot) error {
	var b strings.Builder
	fmt.Fprintf(&b, "snapshot %s · workflow %s · session %d\n", snap.ID, snap.WorkflowID, snap.SessionNumber)
	fmt.Fprintf(&b, "taken %s (trigger %s)", snap.CreatedAt.Local().Format(time.DateTime), snap.Trigger)
	if snap.PauseReason != "" {
		fmt.Fprintf(&b, " · paused: %s", oneLine(snap.PauseReason))
	}
	b.WriteByte('\n')
	u := snap.Usage
	fmt.Fprintf(&b, "context %d/%d tokens (%.1f%%, %s)", u.TokensUsed, u.ContextWindow, 100*u.ContextUtilization, usageSourceText(u.Source))
	if u.Model != "" {
		fmt.Fprintf(&b, " · model %s", u.Model)
	}
	if snap.Source.Path != "" {
		fmt.Fprintf(&b, " · from %s (%s)", snap.Source.Path, snap.Source.Format)
	}
	b.WriteString("\n\n")
	field := func(name, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%-10s %s\n", name+":", oneLine(v))
		}
	}
	field("goal", snap.Goal)
	if snap.LatestRequest != snap.Goal {
		field("latest", snap.LatestRequest)
	}
	field("next step", snap.NextStep)

	done := 0
	for _, t := range snap.Tasks {
		if t.Status == handoff.TaskCompleted {
			done++
		}
	}
	current := len(snap.CurrentDecisions())
	open := 0
	for _, e := range snap.Errors {
		if e.Resolution != handoff.ResolutionFixed {
			open++
		}
	}
	tests := "none recorded"
	if t := snap.TestState; t != nil {
		tests = string(t.Status)
		if len(t.FailingTests) > 0 {
			tests += fmt.Sprintf(" (%d failing)", len(t.FailingTests))
		}
	}
	if n := len(snap.Checks); n > 0 {
		failing := 0
		for _, c := range snap.Checks {
			if c.Status == handoff.TestsFailing {
				failing++
			}
		}
		tests += fmt.Sprintf("; checks: %d (%d failing)", n, failing)
	}
	git := "not recorded"
	if g := snap.GitState; g != nil && g.Available {
		git = g.Branch + " @ " + shortCommit(g.Commit)
		if g.Dirty {
			git += ", uncommitted changes"
		}
	}
	b.WriteByte('\n')
	fmt.Fprintf(&b, "%-10s %d of %d done%s\n", "tasks:", done, len(snap.Tasks), flagHint("--tasks", len(snap.Tasks)))
	fmt.Fprintf(&b, "%-10s %d current, %d superseded%s\n", "decisions:", current, len(snap.Decisions)-current, flagHint("--decisions", len(snap.Decisions)))
	fmt.Fprintf(&b, "%-10s %d open, %d fixed%s\n", "errors:", open, len(snap.Errors)-open, flagHint("--errors", len(snap.Errors)))
	fmt.Fprintf(&b, "%-10s %d%s\n", "files:", len(snap.FilesModified), flagHint("--files", len(snap.FilesModified)))
	fmt.Fprintf(&b, "%-10s %s\n", "tests:", tests)
	fmt.Fprintf(&b, "%-10s %s\n", "git:", git)
	fmt.Fprintf(&b, "\nhandoff show %s --prompt for the resume prompt, --json for everything\n", snap.ID)
	_, err := io.WriteString(w, b.String())
	return err
}

func flagHint(flag string, n int) string {
	if n == 0 {
		return ""
	}
	return " (" + flag + ")"
}

func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

// loadSnapshot resolves show's SNAPSHOT argument like git resolves a
// revision (session.ResolveSnapshot): a snapshot id or unique prefix
// (with or without "snap_"), or a workflow id or unique prefix, meaning
// that workflow's latest snapshot; the newest snapshot when none is given.
func loadSnapshot(ctx context.Context, s cliStore, args []string) (*handoff.Snapshot, error) {
	if len(args) == 0 {
		list, _, err := s.ListSnapshots(ctx, store.ListFilter{Limit: 1})
		if err != nil {
			return nil, err
		}
		if len(list) == 0 {
			return nil, handoff.Errorf(handoff.ENOTFOUND, "no snapshots stored yet: run 'handoff compile' first")
		}
		return s.Snapshot(ctx, list[0].ID)
	}
	return session.ResolveSnapshot(ctx, s, args[0])
}

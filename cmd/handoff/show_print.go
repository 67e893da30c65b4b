package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/handoff-cli/handoff"
)

// The text forms of `handoff show`'s views.

func printDecisions(w io.Writer, ds []handoff.Decision) error {
	if len(ds) == 0 {
		_, err := fmt.Fprintln(w, "no decisions recorded")
		return err
	}
	for _, d := range ds {
		state := "current"
		if d.SupersededBy != "" {
			state = "superseded by " + d.SupersededBy
		}
		fmt.Fprintf(w, "%s [%s, %s] %s\n", d.ID, d.Type, state, d.Description)
		if d.Rationale != "" {
			fmt.Fprintf(w, "    why: %s\n", d.Rationale)
		}
		if len(d.Alternatives) > 0 {
			fmt.Fprintf(w, "    alternatives: %s\n", strings.Join(d.Alternatives, "; "))
		}
		fmt.Fprintf(w, "    source: message %d\n", d.Source.Index)
	}
	return nil
}

func printErrors(w io.Writer, es []handoff.ErrorRecord) error {
	if len(es) == 0 {
		_, err := fmt.Fprintln(w, "no errors recorded")
		return err
	}
	for _, e := range es {
		fmt.Fprintf(w, "%s [%s, %s] %s\n", e.ID, e.Type, e.Resolution, e.Message)
		if e.Command != "" {
			fmt.Fprintf(w, "    command: %s\n", e.Command)
		}
		if e.Context != "" {
			fmt.Fprintf(w, "    context: %s\n", e.Context)
		}
		if e.ResolutionNotes != "" {
			fmt.Fprintf(w, "    notes: %s\n", e.ResolutionNotes)
		}
		fmt.Fprintf(w, "    source: message %d\n", e.Source.Index)
	}
	return nil
}

func printTasks(w io.Writer, snap *handoff.Snapshot) error {
	if len(snap.Tasks) == 0 {
		_, err := fmt.Fprintln(w, "no plan recorded")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, t := range snap.Tasks {
		mark := ""
		switch t.ID {
		case snap.CurrentTaskID:
			mark = "← current"
		case snap.NextTaskID:
			mark = "← next"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.ID, t.Status, t.Content, mark)
	}
	return tw.Flush()
}

func printGit(w io.Writer, g *handoff.GitState) error {
	switch {
	case g == nil:
		_, err := fmt.Fprintln(w, "no git state recorded (--no-git)")
		return err
	case !g.Available:
		_, err := fmt.Fprintf(w, "git state unavailable: %s\n", g.Note)
		return err
	}
	fmt.Fprintf(w, "branch: %s\ncommit: %s\n", g.Branch, g.Commit)
	if g.StartCommit != "" && g.StartCommit != g.Commit {
		fmt.Fprintf(w, "workflow started at: %s\n", g.StartCommit)
	}
	state := "clean"
	if g.Dirty {
		state = "dirty"
	}
	fmt.Fprintf(w, "tree: %s\n", state)
	if g.Diffstat != "" {
		fmt.Fprintf(w, "diffstat: %s\n", g.Diffstat)
	}
	for _, l := range []struct {
		name  string
		files []string
	}{{"staged", g.Staged}, {"modified", g.Modified}, {"untracked", g.Untracked}} {
		for _, f := range l.files {
			fmt.Fprintf(w, "%s\t%s\n", l.name, f)
		}
	}
	if g.Note != "" {
		fmt.Fprintf(w, "note: %s\n", g.Note)
	}
	return nil
}

// printTests prints the last test run, then each build, type check, lint
// or dry run the session ran (a green build says nothing of the tests, so
// they are listed apart).
func printTests(w io.Writer, t *handoff.TestState, checks []handoff.CheckState) error {
	if t == nil {
		fmt.Fprintln(w, "no test run recorded")
	} else {
		fmt.Fprintf(w, "command: %s\nstatus: %s\n", t.Command, t.Status)
		if t.Summary != "" {
			fmt.Fprintf(w, "summary: %s\n", t.Summary)
		}
		for _, f := range t.FailingTests {
			fmt.Fprintf(w, "failing\t%s\n", f)
		}
		fmt.Fprintf(w, "source: message %d\n", t.Source.Index)
	}
	for _, c := range checks {
		fmt.Fprintf(w, "check\t%s\t%s\t%s\tmessage %d\n", c.Kind, c.Status, c.Command, c.Source.Index)
	}
	return nil
}

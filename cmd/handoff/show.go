package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/compiler"
	"github.com/handoff-cli/handoff/store"
)

// showOptions are the flags of `handoff show`.
type showOptions struct {
	app       *app
	decisions bool
	errors    bool
	tasks     bool
	files     bool
	git       bool
	tests     bool
	json      bool
	prompt    bool
	budget    int
	all       bool
	format    string
	out       string
}

func (a *app) newShowCmd() *cobra.Command {
	o := &showOptions{app: a}
	cmd := &cobra.Command{
		Use:   "show [SNAPSHOT]",
		Short: "Print a stored snapshot (default: the newest), or one part of it",
		Long: `show prints a stored snapshot by id or unique id prefix (default: the
newest). With a view flag it prints only that part, in full: the resume
prompt points here for what its budget left out.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd.Context(), args)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.decisions, "decisions", false, "list every decision, superseded ones included")
	f.BoolVar(&o.errors, "errors", false, "list every error with its resolution")
	f.BoolVar(&o.tasks, "tasks", false, "list the plan")
	f.BoolVar(&o.files, "files", false, "list the files modified")
	f.BoolVar(&o.git, "git", false, "show the git state recorded at the snapshot")
	f.BoolVar(&o.tests, "tests", false, "show the last test run: command, status, failing tests")
	f.BoolVar(&o.json, "json", false, "print the snapshot (or the chosen part) as JSON")
	f.BoolVar(&o.prompt, "prompt", false, "print the resume prompt compiled from the snapshot")
	f.IntVar(&o.budget, "budget", 2000, "with --prompt: budget in `tokens`")
	f.StringVar(&o.format, "format", resumePrompt, "with --prompt: prompt, or resume-md (YAML front matter + prompt)")
	f.StringVarP(&o.out, "out", "o", "", "with --prompt: write to `file` (atomically) instead of stdout")
	return cmd
}

func (o *showOptions) run(ctx context.Context, args []string) error {
	a := o.app
	if (o.format != resumePrompt || o.out != "") && !o.prompt {
		return handoff.Errorf(handoff.EINVALID, "--format and --out go with --prompt")
	}
	if o.format != resumePrompt && o.format != resumeMarkdown {
		return handoff.Errorf(handoff.EINVALID, "unknown --format %q: use prompt or resume-md", o.format)
	}
	s, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	snap, err := loadSnapshot(ctx, s, args)
	if err != nil {
		return err
	}
	switch {
	case o.prompt:
		counter, err := capacity.NewCounter(capacity.O200kBase)
		if err != nil {
			return err
		}
		res, err := compiler.Compile(snap, compiler.Options{Budget: o.budget, Counter: counter})
		if err != nil {
			return fmt.Errorf("compile resume prompt: %w", err)
		}
		body := []byte(res.Prompt)
		if o.format == resumeMarkdown {
			body = compiler.ResumeMarkdown(snap, res)
		}
		if o.out == "" {
			_, err = a.stdout.Write(body)
			return err
		}
		publish, _, err := stageFile(o.out, body)
		if err != nil {
			return err
		}
		return publish()
	case o.decisions:
		if o.json {
			return writeJSON(a.stdout, snap.Decisions)
		}
		return printDecisions(a.stdout, snap.Decisions)
	case o.errors:
		if o.json {
			return writeJSON(a.stdout, snap.Errors)
		}
		return printErrors(a.stdout, snap.Errors)
	case o.tasks:
		if o.json {
			return writeJSON(a.stdout, snap.Tasks)
		}
		return printTasks(a.stdout, snap)
	case o.git:
		if o.json {
			return writeJSON(a.stdout, snap.GitState)
		}
		return printGit(a.stdout, snap.GitState)
	case o.tests:
		if o.json {
			return writeJSON(a.stdout, snap.TestState)
		}
		return printTests(a.stdout, snap.TestState)
	case o.files:
		if o.json {
			return writeJSON(a.stdout, snap.FilesModified)
		}
		for _, f := range snap.FilesModified {
			fmt.Fprintf(a.stdout, "%s\t%d edit(s)\t%s\n", f.Path, f.Edits, strings.Join(f.Operations, ","))
		}
		return nil
	}
	return writeJSON(a.stdout, snap)
}

// loadSnapshot resolves the SNAPSHOT argument: an id or prefix, or the
// newest snapshot when none is given.
func loadSnapshot(ctx context.Context, s *store.Store, args []string) (*handoff.Snapshot, error) {
	if len(args) == 1 {
		return s.Snapshot(ctx, args[0])
	}
	list, _, err := s.ListSnapshots(ctx, store.ListFilter{Limit: 1})
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, handoff.Errorf(handoff.ENOTFOUND, "no snapshots stored yet: run 'handoff compile' first")
	}
	return s.Snapshot(ctx, list[0].ID)
}

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

func printTests(w io.Writer, t *handoff.TestState) error {
	if t == nil {
		_, err := fmt.Fprintln(w, "no test run recorded")
		return err
	}
	fmt.Fprintf(w, "command: %s\nstatus: %s\n", t.Command, t.Status)
	if t.Summary != "" {
		fmt.Fprintf(w, "summary: %s\n", t.Summary)
	}
	for _, f := range t.FailingTests {
		fmt.Fprintf(w, "failing\t%s\n", f)
	}
	fmt.Fprintf(w, "source: message %d\n", t.Source.Index)
	return nil
}

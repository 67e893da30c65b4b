package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/compiler"
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
		Long: `show prints a stored snapshot: a summary, or with --json the whole
snapshot. SNAPSHOT is a snapshot id or unique prefix (the "snap_" may be
left out), or a workflow id or unique prefix for that workflow's latest
snapshot; default: the newest. With a view flag it prints only that part,
in full: the resume prompt points here for what its budget left out.`,
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
		if err := tooSmall(res); err != nil {
			return err
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
	}
	if views := o.views(snap); len(views) > 0 {
		return printViews(a.stdout, views, o.json)
	}
	if o.json {
		return writeJSON(a.stdout, snap)
	}
	return printSummary(a.stdout, snap)
}

// showView is one part of a snapshot show can print by itself.
type showView struct {
	name string
	data any
	text func(io.Writer) error
}

// views are the parts the flags chose, in the order of the help.
func (o *showOptions) views(snap *handoff.Snapshot) []showView {
	all := []struct {
		on bool
		v  showView
	}{
		{o.decisions, showView{"decisions", snap.Decisions, func(w io.Writer) error { return printDecisions(w, snap.Decisions) }}},
		{o.errors, showView{"errors", snap.Errors, func(w io.Writer) error { return printErrors(w, snap.Errors) }}},
		{o.tasks, showView{"tasks", snap.Tasks, func(w io.Writer) error { return printTasks(w, snap) }}},
		{o.files, showView{"files", snap.FilesModified, func(w io.Writer) error { return printFiles(w, snap.FilesModified) }}},
		{o.git, showView{"git", snap.GitState, func(w io.Writer) error { return printGit(w, snap.GitState) }}},
		{o.tests, showView{"tests", snap.TestState, func(w io.Writer) error { return printTests(w, snap.TestState, snap.Checks) }}},
	}
	var out []showView
	for _, c := range all {
		if c.on {
			out = append(out, c.v)
		}
	}
	return out
}

// printViews prints the chosen views: one as it is; several each under
// a "== name" line, a blank line apart (--json: one object keyed by name).
func printViews(w io.Writer, views []showView, asJSON bool) error {
	if len(views) == 1 {
		if asJSON {
			return writeJSON(w, views[0].data)
		}
		return views[0].text(w)
	}
	if asJSON {
		obj := make(map[string]any, len(views))
		for _, v := range views {
			obj[v.name] = v.data
		}
		return writeJSON(w, obj)
	}
	for i, v := range views {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "== %s\n", v.name)
		if err := v.text(w); err != nil {
			return err
		}
	}
	return nil
}

// printFiles lists the files modified, one a line: path, edits, operations.
func printFiles(w io.Writer, files []handoff.FileChange) error {
	for _, f := range files {
		if _, err := fmt.Fprintf(w, "%s\t%d edit%s\t%s\n", f.Path, f.Edits, plural(f.Edits), strings.Join(f.Operations, ",")); err != nil {
			return err
		}
	}
	return nil
}

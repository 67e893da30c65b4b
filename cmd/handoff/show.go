package main

import (
	"context"
	"fmt"
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
		return printTests(a.stdout, snap.TestState, snap.Checks)
	case o.files:
		if o.json {
			return writeJSON(a.stdout, snap.FilesModified)
		}
		for _, f := range snap.FilesModified {
			fmt.Fprintf(a.stdout, "%s\t%d edit(s)\t%s\n", f.Path, f.Edits, strings.Join(f.Operations, ","))
		}
		return nil
	}
	if o.json {
		return writeJSON(a.stdout, snap)
	}
	return printSummary(a.stdout, snap)
}

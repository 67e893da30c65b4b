package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/compiler"
	"github.com/handoff-cli/handoff/prompts"
	"github.com/handoff-cli/handoff/session"
)

// resumeOptions are the flags of `handoff resume`.
type resumeOptions struct {
	app *app

	workflow     string
	snapshot     string
	dir          string
	force        bool
	budget       int
	encoding     string
	templatePath string
	format       string
	json         bool
	out          string
}

// Output formats of `handoff resume`.
const (
	resumePrompt   = "prompt"
	resumeMarkdown = "resume-md"
	resumeJSON     = "json"
)

func (a *app) newResumeCmd() *cobra.Command {
	o := &resumeOptions{app: a}
	cmd := &cobra.Command{
		Use:   "resume",
		Short: "Print the resume prompt of a workflow's latest snapshot and mark it in progress",
		Long: `resume compiles the resume prompt of the workflow's latest snapshot (or of
--snapshot), prints it, moves the workflow to in_progress, counts the new
session, and records WORKFLOW_RESUMED.

The workflow is --workflow, the workflow of --snapshot, else the one whose
directory is the current directory (or --dir) or the nearest one above it.

Before printing, the snapshot's git state is compared with the working
tree; differences are reported on stderr. resume refuses (exit 6) when the
tree is on another branch, when HEAD does not descend from the snapshot's
commit, or when the repository lacks that commit; --force resumes anyway.
Completed and cancelled workflows cannot be resumed (exit 6).

Resuming is a claim: a workflow already in progress (another session
resumed it and has not paused since) is refused with exit 7; --force takes
it over.`,
		Example: `  handoff resume
  handoff resume --workflow wf_1a2b3c --budget 4000
  handoff resume --snapshot snap_7k2m --format resume-md --out _resume.md`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.workflow, "workflow", "", "workflow `id` to resume (default: resolved from the directory)")
	f.StringVar(&o.snapshot, "snapshot", "", "resume from this snapshot `id` (or unique prefix) instead of the latest")
	f.StringVarP(&o.dir, "dir", "C", "", "working tree to resolve the workflow from and compare git state with (default: current directory)")
	f.BoolVar(&o.force, "force", false, "resume even when the working tree has diverged from the snapshot, or another session has claimed the workflow")
	f.IntVar(&o.budget, "budget", 2000, "resume prompt budget in `tokens`")
	f.StringVar(&o.encoding, "encoding", string(capacity.O200kBase), "tokenizer: o200k_base or cl100k_base")
	f.StringVar(&o.templatePath, "template", "", "resume prompt text/template `file` overriding the built-in one")
	f.StringVar(&o.format, "format", resumePrompt, "output: prompt, resume-md (YAML front matter + prompt) or json (the snapshot)")
	f.BoolVar(&o.json, "json", false, "print the snapshot as JSON (= --format json)")
	f.StringVarP(&o.out, "out", "o", "", "write the output to `file` (atomically) instead of stdout")
	return cmd
}

func (o *resumeOptions) run(ctx context.Context) error {
	a := o.app
	if o.budget <= 0 {
		return handoff.Errorf(handoff.EINVALID, "--budget must be a positive number of tokens, got %d", o.budget)
	}
	if o.json {
		if o.format != resumePrompt && o.format != resumeJSON {
			return handoff.Errorf(handoff.EINVALID, "--json and --format %s do not go together", o.format)
		}
		o.format = resumeJSON
	}
	switch o.format {
	case resumePrompt, resumeMarkdown, resumeJSON:
	default:
		return handoff.Errorf(handoff.EINVALID, "unknown --format %q: use prompt, resume-md or json", o.format)
	}
	var tmpl string
	if o.templatePath != "" {
		var err error
		if tmpl, err = prompts.LoadTemplate(o.templatePath); err != nil {
			return err
		}
	}
	counter, err := capacity.NewCounter(capacity.Encoding(o.encoding))
	if err != nil {
		return err
	}
	counter.Warm() // resuming compiles a prompt: build the tokenizer while the store is read
	dir, err := dirOrWD(o.dir)
	if err != nil {
		return err
	}
	s, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()

	plan, err := session.PrepareResume(ctx, s, session.ResumeOptions{
		Snapshot:     o.snapshot,
		Ref:          session.Ref{Workflow: o.workflow, Dir: dir},
		WorkDir:      dir,
		WorkDirGiven: o.dir != "",
		Force:        o.force,
		Compile:      compiler.Options{Budget: o.budget, Template: tmpl, Counter: counter},
		Warn:         func(w string) { a.status("warning: %s", w) },
	})
	if err != nil {
		return err
	}
	if plan.Overridden != nil {
		a.status("warning: resuming anyway (--force): %s", plan.Overridden)
	}
	snap, res := plan.Snapshot, plan.Prompt
	if o.format != resumeJSON {
		if err := tooSmall(res); err != nil {
			return err
		}
	}
	body, err := resumeBody(o.format, snap, res)
	if err != nil {
		return err
	}

	// The output file is staged before the workflow changes and published
	// after, so a failure on either side leaves no half-done resume.
	var publish func() error
	discard := func() {}
	if o.out != "" {
		if publish, discard, err = stageFile(o.out, body); err != nil {
			return err
		}
	}
	r, err := plan.Commit(ctx, s)
	if err != nil {
		discard()
		return err
	}
	if publish != nil {
		if err := publish(); err != nil {
			return err
		}
	} else if _, err := a.stdout.Write(body); err != nil {
		return fmt.Errorf("write resume prompt: %w", err)
	}
	where := ""
	if o.out != "" {
		where = " · written to " + o.out
	}
	a.status("resumed workflow %s as session %d from snapshot %s (session %d) · prompt %d/%d tokens%s",
		r.Workflow.ID, r.Session, snap.ID, snap.SessionNumber, res.Tokens, res.Budget, where)
	return nil
}

package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/transcript"
)

// pauseOptions are the flags of `handoff pause`.
type pauseOptions struct {
	app *app

	target        targetFlags
	reason        string
	dir           string
	format        string
	strict        bool
	encoding      string
	model         string
	contextWindow int
	noGit         bool
	json          bool
}

func (a *app) newPauseCmd() *cobra.Command {
	o := &pauseOptions{app: a}
	cmd := &cobra.Command{
		Use:   "pause [FILE]",
		Short: "Snapshot a session (FILE or stdin) and mark its workflow paused",
		Long: `pause builds a snapshot from the transcript in FILE or on standard input,
with trigger "pause", and marks its workflow paused: the snapshot, the
status and the WORKFLOW_PAUSED event are stored in one transaction, so
either all of it is recorded or none.

The workflow is --workflow (an existing workflow's id or unique prefix;
--new-workflow ID starts a new one), else the one the transcript's session id names,
else the open workflow of the session's directory (or --dir, or the
current directory, searched upwards like git finds a repository), else a
new one. A completed or cancelled workflow cannot be paused (exit 6).`,
		Example: `  handoff pause --reason "end of day" session.jsonl
  cat session.jsonl | handoff pause --workflow wf_1a2b3c`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd.Context(), args)
		},
	}
	f := cmd.Flags()
	o.target.add(f, "resolved from the session, see above")
	f.StringVar(&o.reason, "reason", "", "why the work is paused, kept with the workflow and the snapshot")
	f.StringVarP(&o.dir, "dir", "C", "", "directory to resolve the workflow from (default: the session's, else the current one)")
	f.StringVar(&o.format, "format", "", "transcript format (default: detect; see 'handoff formats')")
	f.BoolVar(&o.strict, "strict", false, "fail on a malformed record instead of skipping it with a warning")
	f.StringVar(&o.encoding, "encoding", string(capacity.O200kBase), "tokenizer: o200k_base or cl100k_base")
	f.StringVar(&o.model, "model", "", "model whose context window to measure against (default: from the transcript)")
	f.IntVar(&o.contextWindow, "context-window", 0, "context window in `tokens`, overriding the model table")
	f.BoolVar(&o.noGit, "no-git", false, "do not read git state from the session's working directory")
	f.BoolVar(&o.json, "json", false, "print the stored snapshot as JSON")
	return cmd
}

func (o *pauseOptions) run(ctx context.Context, args []string) error {
	a := o.app
	format, err := parseFormatFlag(o.format)
	if err != nil {
		return err
	}
	counter, err := capacity.NewCounter(capacity.Encoding(o.encoding))
	if err != nil {
		return err
	}
	counter.Warm() // a pause compiles a prompt: build the tokenizer while the transcript is read
	t, err := a.readTranscript(ctx, args, transcript.Options{Format: format, Strict: o.strict, Logger: a.log()})
	if err != nil {
		return err
	}
	s, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	wfID, err := o.target.resolve(ctx, s)
	if err != nil {
		return err
	}
	if wfID == "" {
		dir := ""
		if o.dir != "" || t.Session.CWD == "" {
			if dir, err = dirOrWD(o.dir); err != nil {
				return err
			}
		}
		if wfID, err = session.WorkflowFor(ctx, s, t, dir); err != nil {
			return err
		}
	}
	cp, err := session.Checkpoint(ctx, s, t, session.CheckpointOptions{
		Build: session.BuildOptions{
			Counter:     counter,
			Extractor:   extractor.NewHeuristic(a.log()),
			Measure:     capacity.MeasureOptions{Model: o.model, ContextWindow: o.contextWindow},
			Trigger:     handoff.TriggerPause,
			PauseReason: o.reason,
			ReadGit:     !o.noGit,
			Workflow:    wfID,
		},
		Pause:  session.PauseRequired,
		Logger: a.log(),
	})
	if err != nil {
		return err
	}
	snap := cp.Snapshot
	if o.json {
		return writeJSON(a.stdout, snap)
	}
	fmt.Fprintf(a.stdout, "%s\n", snap.ID)
	at := "at snapshot"
	if cp.Unchanged {
		at = "at its unchanged snapshot" // nothing new was stored
	}
	a.status("paused workflow %s %s %s (session %d) · context %.1f%% · extractor heuristic · resume with 'handoff resume --workflow %s'",
		snap.WorkflowID, at, snap.ID, snap.SessionNumber, 100*snap.Usage.ContextUtilization, snap.WorkflowID)
	return nil
}

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/follow"
	"github.com/handoff-cli/handoff/transcript"
)

// watchOptions are the flags of `handoff watch`.
type watchOptions struct {
	app *app

	format        string
	budget        int
	encoding      string
	model         string
	contextWindow int
	warn          float64
	checkpoint    float64
	poll          time.Duration
	out           string
	onPause       string
	keepGoing     bool
	noGit         bool
	target        targetFlags
	// workflow is target resolved when the watch starts ("": the default).
	workflow string
}

func (a *app) newWatchCmd() *cobra.Command {
	o := &watchOptions{app: a}
	cmd := &cobra.Command{
		Use:   "watch FILE",
		Short: "Follow a live transcript and checkpoint it before the context window fills",
		Long: `watch follows a transcript as the agent appends to it and keeps its context
utilization current (the provider's reported usage when the transcript has
it, else a tokenizer estimate). When utilization reaches --checkpoint it
saves a snapshot (trigger exhaustion), marks the workflow paused, writes the
resume prompt to stdout (and --out), runs --on-pause, and exits with code 10
unless --keep-going. Crossing --warn prints a warning on stderr.

Thresholds are fractions (0.85) or percentages (85).`,
		Example: `  handoff watch ~/.claude/projects/<project>/<session>.jsonl --out resume.md
  handoff watch session.jsonl --checkpoint 80 --on-pause 'notify-send "handoff: $HANDOFF_SNAPSHOT_ID"'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd.Context(), args[0])
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "", "transcript format (default: detect; see 'handoff formats')")
	f.IntVar(&o.budget, "budget", 2000, "resume prompt budget in `tokens`")
	f.StringVar(&o.encoding, "encoding", string(capacity.O200kBase), "tokenizer: o200k_base or cl100k_base")
	f.StringVar(&o.model, "model", "", "model whose context window to measure against (default: from the transcript)")
	f.IntVar(&o.contextWindow, "context-window", 0, "context window in `tokens`, overriding the model table")
	f.Float64Var(&o.warn, "warn", capacity.DefaultThresholds().Warn, "warn on stderr at this utilization (fraction or percent)")
	f.Float64Var(&o.checkpoint, "checkpoint", capacity.DefaultThresholds().Checkpoint, "checkpoint at this utilization (fraction or percent)")
	f.DurationVar(&o.poll, "poll", follow.DefaultPoll, "check the file this often where file events are unavailable (with events: on each, and every 5s as a safety net)")
	f.StringVar(&o.out, "out", "", "also write the resume prompt to `file` (atomically: temp file + rename)")
	f.StringVar(&o.onPause, "on-pause", "", "shell `command` to run after a checkpoint, with HANDOFF_SNAPSHOT_ID, HANDOFF_PROMPT_FILE and HANDOFF_WORKFLOW_ID set")
	f.BoolVar(&o.keepGoing, "keep-going", false, "keep watching after a checkpoint instead of exiting with code 10")
	f.BoolVar(&o.noGit, "no-git", false, "do not read git state from the session's working directory")
	o.target.add(f, "the session id, else the working directory")
	return cmd
}

// fraction reads a threshold flag given as 0.85 or as 85.
func fraction(v float64) float64 {
	if v > 1 && v <= 100 {
		return v / 100
	}
	return v
}

// validate checks the flags and returns the thresholds.
func (o *watchOptions) validate() (capacity.Thresholds, error) {
	if o.budget <= 0 {
		return capacity.Thresholds{}, handoff.Errorf(handoff.EINVALID, "--budget must be a positive number of tokens, got %d", o.budget)
	}
	if o.contextWindow < 0 {
		return capacity.Thresholds{}, handoff.Errorf(handoff.EINVALID, "--context-window must not be negative, got %d", o.contextWindow)
	}
	if o.poll <= 0 {
		return capacity.Thresholds{}, handoff.Errorf(handoff.EINVALID, "--poll must be a positive duration, got %s", o.poll)
	}
	th := capacity.Thresholds{Warn: fraction(o.warn), Checkpoint: fraction(o.checkpoint)}
	if err := th.Validate(); err != nil {
		return capacity.Thresholds{}, fmt.Errorf("--warn/--checkpoint: %w", err)
	}
	return th, nil
}

func (o *watchOptions) run(ctx context.Context, path string) error {
	a := o.app
	th, err := o.validate()
	if err != nil {
		return err
	}
	format, err := parseFormatFlag(o.format)
	if err != nil {
		return err
	}
	counter, err := capacity.NewCounter(capacity.Encoding(o.encoding))
	if err != nil {
		return err
	}
	if err := counter.BuildFull(); err != nil {
		a.log().Warn("watch: token counts stay exact, but each new word costs lookups", "err", err)
	}
	if err := o.resolveWorkflow(ctx); err != nil {
		return err
	}
	fl, err := follow.Open(path, follow.Options{Poll: o.poll, MaxLineBytes: transcript.DefaultMaxLineBytes, Logger: a.log()})
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return handoff.Errorf(handoff.ENOTFOUND, "watch: %v", err)
		}
		return handoff.Errorf(handoff.EINVALID, "watch: %v", err)
	}
	defer fl.Close()
	if format == "" {
		if format, err = detectHead(path); err != nil {
			return err
		}
	}

	w := &watchRun{
		o:       o,
		path:    path,
		counter: counter,
		th:      th,
		status:  newStatusLine(a.stderr, a.quiet),
	}
	// The monitor measures every line: its notices (an unknown model,
	// the 1M beta assumed) are logged once per watch, not once a line.
	once := slog.New(newOnceHandler(a.log().Handler()))
	w.monOpts = capacity.MonitorOptions{Model: o.model, ContextWindow: o.contextWindow, Thresholds: th, Logger: once}
	if format != "" {
		if err := w.start(format); err != nil {
			return err
		}
	}
	defer w.status.done()
	return w.loop(ctx, fl)
}

// resolveWorkflow checks --workflow/--new-workflow before watching, so a
// mistyped id fails now, not at the checkpoint hours later.
func (o *watchOptions) resolveWorkflow(ctx context.Context) error {
	if ref, _, err := o.target.named(); err != nil || ref == "" {
		return err
	}
	s, err := o.app.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	o.workflow, err = o.target.resolve(ctx, s)
	return err
}

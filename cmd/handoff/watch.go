package main

import (
	"context"
	"errors"
	"fmt"
	"io"
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
	workflow      string
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
	f.DurationVar(&o.poll, "poll", follow.DefaultPoll, "check the file at least this often (file events, where available, wake it sooner)")
	f.StringVar(&o.out, "out", "", "also write the resume prompt to `file` (atomically: temp file + rename)")
	f.StringVar(&o.onPause, "on-pause", "", "shell `command` to run after a checkpoint, with HANDOFF_SNAPSHOT_ID, HANDOFF_PROMPT_FILE and HANDOFF_WORKFLOW_ID set")
	f.BoolVar(&o.keepGoing, "keep-going", false, "keep watching after a checkpoint instead of exiting with code 10")
	f.BoolVar(&o.noGit, "no-git", false, "do not read git state from the session's working directory")
	f.StringVar(&o.workflow, "workflow", "", "workflow `id` to file snapshots under (default: the session id, else the working directory)")
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
	w.monOpts = capacity.MonitorOptions{Model: o.model, ContextWindow: o.contextWindow, Thresholds: th, Logger: a.log()}
	if format != "" {
		if err := w.start(format); err != nil {
			return err
		}
	}
	defer w.status.done()
	return w.loop(ctx, fl)
}

// detectHead detects the format from what the file already holds (up to
// the last complete line of its first 64 KiB), or returns "" for an empty
// file, whose format is then detected from its first line.
func detectHead(path string) (transcript.Format, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("watch: %w", err)
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("watch: read %s: %w", path, err)
	}
	head = head[:n]
	if i := lastNewline(head); i >= 0 {
		head = head[:i+1]
	} else {
		return "", nil
	}
	if len(trimSpace(head)) == 0 {
		return "", nil
	}
	format, err := transcript.Detect(head)
	if err != nil {
		return "", fmt.Errorf("watch %s: %w", path, err)
	}
	return format, nil
}

func lastNewline(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '\n' {
			return i
		}
	}
	return -1
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\n' || b[0] == '\r' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// watchRun is one run of `handoff watch`.
type watchRun struct {
	o       *watchOptions
	path    string
	counter *capacity.Counter
	th      capacity.Thresholds
	monOpts capacity.MonitorOptions
	status  *statusLine

	sess  *liveSession
	lines int // lines of the current file consumed
}

func (w *watchRun) start(format transcript.Format) error {
	sess, err := newLiveSession(format, transcript.Options{Format: format, Source: w.path, Logger: w.o.app.log()}, w.counter, w.monOpts)
	if err != nil {
		return err
	}
	w.sess = sess
	return nil
}

// loop follows the file until a checkpoint (without --keep-going) or ctx
// ends. An interrupted watch is not a failure: it returns nil.
func (w *watchRun) loop(ctx context.Context, fl *follow.Follower) error {
	a := w.o.app
	for {
		ev, err := fl.Next(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("watch %s: %w", w.path, err)
		}
		switch ev.Kind {
		case follow.Truncated, follow.Rotated:
			a.status("%s was %s; reading it again from the start", w.path, ev.Kind)
			w.lines = 0
			if w.sess != nil {
				if err := w.sess.reset(); err != nil {
					return err
				}
			}
			continue
		case follow.TooLong:
			w.lines++
			if w.sess != nil {
				w.sess.skip(ev.Size)
			}
			continue
		}
		w.lines++
		if w.sess == nil {
			if len(trimSpace(ev.Data)) == 0 {
				continue // blank lines cannot be detected, and carry nothing
			}
			format, err := transcript.Detect(ev.Data)
			if err != nil {
				return fmt.Errorf("watch %s: %w", w.path, err)
			}
			if err := w.start(format); err != nil {
				return err
			}
		}
		st, err := w.sess.line(ev.Data)
		if err != nil {
			return err
		}
		w.status.show(st)
		switch st.Action() {
		case capacity.Warn:
			w.status.clear()
			a.status("context window %.0f%% full (%d of %d tokens) at line %d of %s; checkpoint at %.0f%%",
				100*st.Utilization, st.TokensUsed, st.ContextWindow, w.lines, w.path, 100*w.th.Checkpoint)
		case capacity.Checkpoint:
			w.status.clear()
			snapID, err := w.checkpoint(ctx, st)
			if err != nil {
				return err
			}
			if !w.o.keepGoing {
				return &exitError{code: exitCheckpoint, quiet: true,
					err: fmt.Errorf("checkpoint taken: snapshot %s", snapID)}
			}
		}
	}
}

package main

import (
	"context"
	"fmt"

	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/follow"
	"github.com/handoff-cli/handoff/transcript"
)

// The follow loop of `handoff watch`.

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

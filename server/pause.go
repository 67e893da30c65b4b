package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/redact"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/transcript"
)

// pause pauses workflow wf by id, the way `handoff pause` does but without
// a transcript in hand: the snapshot is built from the transcript its
// latest snapshot was read from when that file is still readable here,
// else it repeats the latest snapshot's content with trigger pause. Either
// way snapshot, status and event are stored in one transaction
// (session.Checkpoint / Store.PauseSnapshot). A workflow the lifecycle
// does not let pause is ECONFLICT; one without any snapshot is paused
// without one (the returned snapshot is nil).
//
// This belongs in package session (a "pause by reference" use case); it
// lives here until it moves there.
func pause(ctx context.Context, s session.Store, wf *handoff.Workflow, reason string, build session.BuildOptions, log *slog.Logger) (*handoff.Snapshot, error) {
	if err := wf.Status.Transition(handoff.WorkflowPaused); err != nil {
		return nil, fmt.Errorf("pause workflow %s: %w", wf.ID, err)
	}
	latest, err := s.LatestSnapshot(ctx, wf.ID)
	if handoff.ErrorCode(err) == handoff.ENOTFOUND {
		if err := s.SetWorkflowStatus(ctx, wf.ID, handoff.WorkflowPaused, redact.String(reason)); err != nil {
			return nil, err
		}
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	build.Workflow = wf.ID
	build.Trigger = handoff.TriggerPause
	build.PauseReason = reason
	if t := reread(ctx, latest.Source, log); t != nil {
		cp, err := session.Checkpoint(ctx, s, t, session.CheckpointOptions{
			Build: build, Pause: session.PauseRequired, Dir: wf.Dir, Logger: log,
		})
		if err != nil {
			return nil, err
		}
		return cp.Snapshot, nil
	}
	snap := *latest
	snap.ID, snap.SessionNumber, snap.CreatedAt = "", 0, time.Time{} // the store assigns them
	snap.Trigger = handoff.TriggerPause
	snap.PauseReason = redact.String(reason)
	if err := s.PauseSnapshot(ctx, &snap, store.WorkflowInfo{Name: wf.Name, Dir: wf.Dir}, snap.PauseReason); err != nil {
		return nil, fmt.Errorf("pause workflow %s: %w", wf.ID, err)
	}
	return &snap, nil
}

// reread parses the transcript a snapshot was built from, or returns nil
// when it is gone, unreadable or was never a file (standard input, an API
// upload).
func reread(ctx context.Context, src handoff.SourceInfo, log *slog.Logger) *handoff.Transcript {
	if src.Path == "" || src.Path == "-" {
		return nil
	}
	if fi, err := os.Stat(src.Path); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	format, _ := transcript.ParseFormat(src.Format)
	t, err := transcript.ParseFile(ctx, src.Path, transcript.Options{Format: format, Source: src.Path, Logger: log})
	if err != nil {
		log.Info("pause: the recorded transcript does not read; repeating the latest snapshot", "path", src.Path, "err", err)
		return nil
	}
	return t
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

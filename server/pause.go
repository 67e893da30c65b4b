package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/redact"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/store"
)

// pause pauses workflow wf by id, the way `handoff pause` does but without
// a transcript in hand: the new snapshot repeats the latest snapshot's
// content with trigger pause and the reason, stored with the paused
// status and the event in one transaction (Store.PauseSnapshot). A
// workflow the lifecycle does not let pause is ECONFLICT; one without any
// snapshot is paused without one (the returned snapshot is nil).
//
// It never reads a file: a stored snapshot's transcript path was written
// by whoever pushed the snapshot, relative to their machine, and reading
// it here would let any token holder make the server store a local file
// of its own (TestPauseNeverOpensStoredPaths).
func pause(ctx context.Context, s session.Store, wf *handoff.Workflow, reason string) (*handoff.Snapshot, error) {
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
	snap := *latest
	snap.ID, snap.SessionNumber, snap.CreatedAt = "", 0, time.Time{} // the store assigns them
	snap.Trigger = handoff.TriggerPause
	snap.PauseReason = redact.String(reason)
	info := store.WorkflowInfo{Name: wf.Name, Dir: wf.Dir, Session: store.SessionKey(latest)}
	if err := s.PauseSnapshot(ctx, &snap, info, snap.PauseReason); err != nil {
		return nil, fmt.Errorf("pause workflow %s: %w", wf.ID, err)
	}
	return &snap, nil
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

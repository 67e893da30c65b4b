package session

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/redact"
	"github.com/handoff-cli/handoff/store"
)

// PauseMode says whether a checkpoint pauses its workflow.
type PauseMode int

const (
	// NoPause stores the snapshot and leaves the workflow's status alone
	// (a snapshot before an agent compacts its context).
	NoPause PauseMode = iota
	// PauseRequired pauses the workflow with the snapshot; a workflow
	// that may not be paused (completed, cancelled, failed) is ECONFLICT
	// and nothing is stored (`handoff pause`, the API's pause).
	PauseRequired
	// PauseIfAllowed pauses the workflow when the lifecycle allows it,
	// and otherwise stores the snapshot alone: an automatic checkpoint
	// (watch, a hook) must not lose the session because someone already
	// marked the work completed.
	PauseIfAllowed
)

// CheckpointOptions configure Checkpoint.
type CheckpointOptions struct {
	// Build builds the snapshot; its PauseReason is the pause's reason.
	Build BuildOptions
	// Pause says whether the workflow is paused with the snapshot.
	Pause PauseMode
	// Dir places a workflow the snapshot creates when the transcript
	// names no working directory (a hook knows the agent's).
	Dir string
	// Logger receives what is worth knowing but not an error; nil
	// discards it.
	Logger *slog.Logger
}

// Checkpointed is what Checkpoint stored.
type Checkpointed struct {
	// Snapshot as stored: ID, SessionNumber and CreatedAt filled in.
	Snapshot *handoff.Snapshot
	// Paused reports whether the workflow was paused with it.
	Paused bool
	// Unchanged reports that the agent session's newest stored snapshot
	// was built from the same content: nothing new was stored and
	// Snapshot is that stored one.
	Unchanged bool
}

// Checkpoint builds a snapshot of t and stores it, pausing its workflow as
// opts.Pause says: the one way a transcript's snapshot reaches the store
// (compile and extract use it with NoPause). The snapshot joins the
// session of its agent session (SessionKey) — a new agent session is the
// workflow's next session — and when that session's newest snapshot was
// built from the same content (Digest) nothing new is stored: the result
// is that snapshot, Unchanged (a pause still applies to it). The snapshot, its SNAPSHOT_CREATED event, the status
// change and the WORKFLOW_PAUSED event are written in one transaction:
// either all of it is recorded or none. The slow part (measuring,
// extracting, reading git) runs before the transaction, so the database
// is locked only for the writes.
func Checkpoint(ctx context.Context, s Store, t *handoff.Transcript, opts CheckpointOptions) (*Checkpointed, error) {
	opts.Build.PauseReason = redact.String(opts.Build.PauseReason)
	snap, err := Build(ctx, t, opts.Build)
	if err != nil {
		return nil, err
	}
	info := WorkflowInfo(t)
	if info.Dir == "" {
		info.Dir = opts.Dir
	}
	info.Session = SessionKey(t)
	extractedBy := ""
	if u := snap.Usage.Extraction; u != nil {
		extractedBy = u.Extractor + " " + u.Model
	}
	info.Digest = Digest(t, opts.Build, extractedBy)
	// The id is chosen here so that a store answering with the snapshot it
	// already holds (unchanged content) is told apart by its id.
	if snap.ID == "" {
		snap.ID = store.NewID("snap_")
	}
	fresh := snap.ID
	done := func(paused bool) *Checkpointed {
		return &Checkpointed{Snapshot: snap, Paused: paused, Unchanged: snap.ID != fresh}
	}
	reason := opts.Build.PauseReason
	switch opts.Pause {
	case NoPause:
		if err := s.SaveSnapshot(ctx, snap, info); err != nil {
			return nil, fmt.Errorf("save snapshot: %w", err)
		}
		return done(false), nil
	case PauseRequired:
		if err := s.PauseSnapshot(ctx, snap, info, reason); err != nil {
			return nil, fmt.Errorf("pause workflow %s: %w", snap.WorkflowID, err)
		}
		return done(true), nil
	case PauseIfAllowed:
		err := s.PauseSnapshot(ctx, snap, info, reason)
		if err == nil {
			return done(true), nil
		}
		// Nothing was stored. Only the lifecycle's refusal is worked
		// around, never another failure that happens to be a conflict.
		if handoff.ErrorCode(err) != handoff.ECONFLICT || !unpausable(ctx, s, snap.WorkflowID) {
			return nil, fmt.Errorf("save snapshot: %w", err)
		}
		logger(opts.Logger).Warn("could not mark the workflow paused", "workflow", snap.WorkflowID, "err", err)
		if err := s.SaveSnapshot(ctx, snap, info); err != nil {
			return nil, fmt.Errorf("save snapshot: %w", err)
		}
		return done(false), nil
	}
	return nil, handoff.Errorf(handoff.EINTERNAL, "checkpoint: unknown pause mode %d", opts.Pause)
}

// unpausable reports whether the lifecycle forbids pausing workflow id as
// it is now stored.
func unpausable(ctx context.Context, s Store, id string) bool {
	wf, err := s.Workflow(ctx, id)
	return err == nil && !wf.Status.CanTransition(handoff.WorkflowPaused)
}

func logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	return l
}

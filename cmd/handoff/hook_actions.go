package main

import (
	"context"
	"fmt"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/compiler"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/hooks"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/transcript"
)

// What a hook event's plan asks for: checkpoint the session, reopen its
// workflow, give the new context the resume prompt (through the session
// layer).

func (h *hookRun) readTranscript(ctx context.Context, path string) (*handoff.Transcript, error) {
	t, err := transcript.ParseFile(ctx, path, transcript.Options{Source: path, Logger: h.o.app.log()})
	if err != nil {
		return nil, fmt.Errorf("read transcript %s: %w", path, err)
	}
	return t, nil
}

// snapshot checkpoints the session as the plan says: the snapshot, and
// the pause when the plan asks for one, in one transaction. The workflow is the agent's session id, which a compacted or
// resumed session keeps.
func (h *hookRun) snapshot(ctx context.Context, in *hooks.ClaudeInput, plan hooks.Plan, t *handoff.Transcript) error {
	o := h.o
	counter, err := h.tokens()
	if err != nil {
		return err
	}
	s, err := h.store(ctx)
	if err != nil {
		return err
	}
	pause := session.NoPause
	if plan.PauseWorkflow {
		pause = session.PauseIfAllowed
	}
	_, err = session.Checkpoint(ctx, s, t, session.CheckpointOptions{
		Build: session.BuildOptions{
			Counter:     counter,
			Extractor:   extractor.NewHeuristic(o.app.log()),
			Measure:     capacity.MeasureOptions{Model: o.model, ContextWindow: o.contextWindow},
			Trigger:     plan.Trigger,
			PauseReason: plan.PauseReason,
			ReadGit:     !o.noGit,
			Workflow:    in.SessionID,
			Now:         o.app.now,
		},
		Pause:  pause,
		Dir:    in.CWD,
		Logger: o.app.log(),
	})
	return err
}

// resume marks the session's workflow in progress again if it was paused.
// It is bookkeeping: a failure is logged, not fatal to the hook.
func (h *hookRun) resume(ctx context.Context, in *hooks.ClaudeInput) {
	log := h.o.app.log()
	s, err := h.store(ctx)
	if err != nil {
		log.Warn("could not open the database to resume the workflow", "err", err)
		return
	}
	wf, err := session.Resolve(ctx, s, session.Ref{SessionID: in.SessionID})
	if err != nil {
		if handoff.ErrorCode(err) != handoff.ENOTFOUND {
			log.Warn("could not load the workflow", "workflow", in.SessionID, "err", err)
		}
		return
	}
	if wf.Status != handoff.WorkflowPaused {
		return
	}
	if err := s.SetWorkflowStatus(ctx, wf.ID, handoff.WorkflowInProgress, "session started from "+in.Source); err != nil {
		log.Warn("could not resume the workflow", "workflow", wf.ID, "err", err)
	}
}

// resumePrompt compiles the latest snapshot of the session's workflow, or
// of the workflow of its directory (a resumed session can carry a new id),
// or returns "" when there is none.
func (h *hookRun) resumePrompt(ctx context.Context, in *hooks.ClaudeInput) (string, error) {
	s, err := h.store(ctx)
	if err != nil {
		return "", err
	}
	snap, err := session.SnapshotFor(ctx, s, "", session.Ref{SessionID: in.SessionID, Dir: in.CWD})
	if handoff.ErrorCode(err) == handoff.ENOTFOUND {
		h.o.app.log().Debug("no snapshot to resume from", "session", in.SessionID, "cwd", in.CWD)
		return "", nil
	}
	if err != nil {
		return "", err
	}
	counter, err := h.tokens()
	if err != nil {
		return "", err
	}
	res, err := compiler.Compile(snap, compiler.Options{Budget: h.o.budget, Counter: counter})
	if err != nil {
		return "", fmt.Errorf("compile resume prompt: %w", err)
	}
	return res.Prompt, nil
}

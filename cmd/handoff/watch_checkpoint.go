package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/compiler"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/transcript"
)

// checkpoint does what the checkpoint threshold asks: snapshot the whole
// transcript (trigger exhaustion) and pause the workflow (session.Checkpoint,
// one transaction), compile the resume prompt to stdout and --out, and run
// --on-pause.
func (w *watchRun) checkpoint(ctx context.Context, st capacity.Status) (string, error) {
	a, o := w.o.app, w.o
	// The file's name, not its path: the reason heads every resume prompt
	// of the workflow, and the snapshot's source keeps the full path.
	reason := fmt.Sprintf("context window %.0f%% full (%d of %d tokens) at line %d of %s",
		100*st.Utilization, st.TokensUsed, st.ContextWindow, w.lines, filepath.Base(w.path))
	t := w.sess.transcript()
	if len(t.Messages) == 0 {
		// A format whose records span lines (a pretty-printed OpenAI
		// document) yields its messages only at the end of input: read
		// the file whole, once.
		whole, err := transcript.ParseFile(ctx, w.path, transcript.Options{Format: w.sess.format, Source: w.path, Logger: a.log()})
		if err != nil {
			return "", fmt.Errorf("checkpoint: read %s: %w", w.path, err)
		}
		t = whole
	}
	s, err := a.openStore(ctx)
	if err != nil {
		return "", err
	}
	defer s.Close()
	cp, err := session.Checkpoint(ctx, s, t, session.CheckpointOptions{
		Build: session.BuildOptions{
			Counter:     w.counter,
			Extractor:   extractor.NewHeuristic(a.log()),
			Measure:     capacity.MeasureOptions{Model: o.model, ContextWindow: o.contextWindow},
			Trigger:     handoff.TriggerExhaustion,
			PauseReason: reason,
			ReadGit:     !o.noGit,
			Workflow:    o.workflow,
			Now:         a.now,
		},
		Pause:  session.PauseIfAllowed,
		Logger: a.log(),
	})
	if err != nil {
		return "", fmt.Errorf("checkpoint: %w", err)
	}
	snap := cp.Snapshot

	res, err := compiler.Compile(snap, compiler.Options{Budget: o.budget, Counter: w.counter})
	if err != nil {
		return "", fmt.Errorf("checkpoint: compile resume prompt: %w", err)
	}
	promptFile := o.out
	if promptFile == "" && o.onPause != "" {
		// The command is promised a file; keep one where temp files go.
		promptFile = filepath.Join(os.TempDir(), "handoff-resume-"+snap.ID+".md")
	}
	if promptFile != "" {
		if err := writeFileAtomic(promptFile, []byte(res.Prompt)); err != nil {
			return "", fmt.Errorf("checkpoint: %w", err)
		}
	}
	if _, err := io.WriteString(a.stdout, res.Prompt); err != nil {
		return "", fmt.Errorf("checkpoint: write resume prompt: %w", err)
	}
	kept := ""
	if cp.Unchanged {
		kept = " unchanged, nothing new stored"
	}
	a.status("checkpoint at line %d of %s: %s · snapshot %s%s (workflow %s, paused) · extractor heuristic · prompt %d/%d tokens",
		w.lines, w.path, fillText(st), snap.ID, kept, snap.WorkflowID, res.Tokens, res.Budget)

	if o.onPause != "" {
		if err := w.runOnPause(ctx, snap, promptFile); err != nil {
			if !o.keepGoing {
				return "", fmt.Errorf("checkpoint saved as snapshot %s, but --on-pause failed: %w", snap.ID, err)
			}
			a.status("--on-pause failed: %v", err)
		}
	}
	return snap.ID, nil
}

func fillText(st capacity.Status) string {
	return fmt.Sprintf("context %d/%d tokens (%.1f%%, %s)", st.TokensUsed, st.ContextWindow, 100*st.Utilization, usageSourceText(st.Source))
}

// runOnPause runs the --on-pause command through the shell, its output on
// stderr (stdout is the prompt's).
func (w *watchRun) runOnPause(ctx context.Context, snap *handoff.Snapshot, promptFile string) error {
	a := w.o.app
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", w.o.onPause)
	cmd.Env = append(os.Environ(),
		"HANDOFF_SNAPSHOT_ID="+snap.ID,
		"HANDOFF_PROMPT_FILE="+promptFile,
		"HANDOFF_WORKFLOW_ID="+snap.WorkflowID,
	)
	cmd.Stdout, cmd.Stderr = a.stderr, a.stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", w.o.onPause, err)
	}
	return nil
}

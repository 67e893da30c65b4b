package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/extractor/rulebook"
	"github.com/handoff-cli/handoff/gitstate"
	"github.com/handoff-cli/handoff/redact"
	"github.com/handoff-cli/handoff/store"
)

// BuildOptions are the collaborators and settings that turn a parsed
// transcript into a snapshot.
type BuildOptions struct {
	// Counter counts what no provider figure covers; required.
	Counter *capacity.Counter
	// Extractor finds the decisions, errors, plan and the rest; required.
	Extractor extractor.Extractor
	// Measure says how the context window is found.
	Measure capacity.MeasureOptions
	// Trigger says why the snapshot is taken.
	Trigger handoff.Trigger
	// PauseReason is kept with a snapshot that pauses its workflow.
	PauseReason string
	// ReadGit reads git state from the session's working directory.
	ReadGit bool
	// Workflow files the snapshot under this id; "" is DefaultWorkflowID.
	Workflow string
	// Now stamps the snapshot; nil is time.Now.
	Now func() time.Time
	// Rules switches extractor rules off by id (the rulebook's ablation).
	Rules rulebook.Switches
}

// Build is the pipeline of DESIGN.md and the only place a snapshot is
// assembled: redact, measure, extract, then the fields no extractor knows
// (usage, ids, source, git), then redact the result. Redaction runs first
// so no later stage, store or output ever sees a secret.
func Build(ctx context.Context, t *handoff.Transcript, opts BuildOptions) (*handoff.Snapshot, error) {
	if opts.Counter == nil || opts.Extractor == nil {
		return nil, handoff.Errorf(handoff.EINTERNAL, "build snapshot: a counter and an extractor are required")
	}
	redact.Transcript(t)
	usage := capacity.Measure(t, opts.Counter, opts.Measure)
	snap, err := extractor.BuildWith(ctx, t, opts.Extractor, extractor.Options{Rules: opts.Rules})
	if err != nil {
		return nil, fmt.Errorf("extract: %w", err)
	}
	extraction := snap.Usage.Extraction
	snap.Usage = usage
	snap.Usage.Extraction = extraction
	snap.SchemaVersion = handoff.SnapshotSchemaVersion
	snap.Trigger = opts.Trigger
	snap.PauseReason = opts.PauseReason
	snap.SessionID = t.Session.ID
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	snap.CreatedAt = now().UTC()
	snap.WorkflowID = opts.Workflow
	if snap.WorkflowID == "" {
		snap.WorkflowID = DefaultWorkflowID(t)
	}
	snap.Source = handoff.SourceInfo{
		Path:      t.Session.Source,
		Format:    t.Session.Format,
		Agent:     t.Session.Agent,
		Model:     usage.Model,
		CWD:       t.Session.CWD,
		Messages:  len(t.Messages),
		Warnings:  len(t.Warnings),
		GitBranch: t.Session.GitBranch,
		EndedAt:   t.Session.EndedAt,

		Title:          t.Session.Title,
		Worktree:       t.Session.Worktree,
		WorktreeBranch: t.Session.WorktreeBranch,
		PullRequests:   t.Session.PullRequests,
	}
	if opts.ReadGit {
		snap.GitState = gitstate.Read(ctx, t.Session.CWD)
	}
	redact.Snapshot(snap)
	return snap, nil
}

// DefaultWorkflowID names the workflow a transcript belongs to: the
// agent's session id when it has one (a session that compacts and
// continues keeps it), else a hash of the working directory, else of the
// source path, else (standard input, an API upload) of its content key
// (SessionKey: its format and opening messages), so unrelated pastes are
// separate workflows and a grown paste joins its own ("stdin_…").
func DefaultWorkflowID(t *handoff.Transcript) string {
	if t.Session.ID != "" {
		return t.Session.ID
	}
	key := t.Session.CWD
	if key == "" {
		if t.Session.Source != "" && t.Session.Source != "-" {
			if abs, err := filepath.Abs(t.Session.Source); err == nil {
				key = abs
			}
		}
	}
	if key == "" {
		sum := sha256.Sum256([]byte(SessionKey(t)))
		return "stdin_" + hex.EncodeToString(sum[:])[:12]
	}
	sum := sha256.Sum256([]byte(key))
	return "wf_" + hex.EncodeToString(sum[:])[:12]
}

// WorkflowInfo names and places the workflow a transcript's first
// snapshot creates.
func WorkflowInfo(t *handoff.Transcript) store.WorkflowInfo {
	name := filepath.Base(t.Session.CWD)
	if t.Session.CWD == "" {
		name = filepath.Base(t.Session.Source)
	}
	if name == "-" || name == "." {
		name = "pasted session" // standard input or an upload: no file to name it by
	}
	return store.WorkflowInfo{Name: name, Dir: t.Session.CWD}
}

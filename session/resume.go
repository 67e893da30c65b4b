package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/compiler"
	"github.com/handoff-cli/handoff/gitstate"
	"github.com/handoff-cli/handoff/store"
)

// ResumeOptions say what to resume and how to check it.
type ResumeOptions struct {
	// Snapshot resumes from this snapshot (an id or unique prefix)
	// instead of the workflow's latest.
	Snapshot string
	// Ref finds the workflow when Snapshot is empty (and, when it names
	// one, checks that Snapshot belongs to it).
	Ref Ref
	// WorkDir is the working tree the resume happens in; the snapshot's
	// git state is compared with it (or with the workflow's directory when
	// WorkDir lies outside it and WorkDirGiven is false).
	WorkDir string
	// WorkDirGiven says WorkDir was named explicitly, so it is compared
	// wherever it is.
	WorkDirGiven bool
	// Force resumes even when the working tree has diverged from the
	// snapshot (another branch, HEAD not descending from its commit), and
	// takes over a workflow another session has claimed (in progress).
	Force bool
	// Compile compiles the resume prompt.
	Compile compiler.Options
	// Warn receives what a person should know but that does not stop the
	// resume, in order; nil discards it.
	Warn func(string)
}

// ResumePlan is a checked resume, not yet recorded: the snapshot it starts
// from and its compiled prompt. Commit records it.
type ResumePlan struct {
	Snapshot *handoff.Snapshot
	Workflow *handoff.Workflow
	Prompt   *compiler.Result
	// Overridden is the divergence Force resumed past, if any.
	Overridden error
	// force takes over another session's claim at Commit.
	force bool
}

// PrepareResume finds the snapshot to resume, checks that its workflow may
// be resumed (not completed or cancelled: ECONFLICT) and that the working
// tree still matches it (ECONFLICT unless Force), and compiles the resume
// prompt. Nothing is changed: an adapter stages its output, then Commits.
func PrepareResume(ctx context.Context, s Store, opts ResumeOptions) (*ResumePlan, error) {
	warn := opts.Warn
	if warn == nil {
		warn = func(string) {}
	}
	snap, err := SnapshotFor(ctx, s, opts.Snapshot, opts.Ref)
	if err != nil {
		return nil, err
	}
	wf, err := s.Workflow(ctx, snap.WorkflowID)
	if err != nil {
		return nil, err
	}
	if err := wf.Status.Transition(handoff.WorkflowInProgress); err != nil {
		return nil, fmt.Errorf("resume workflow %s: %w", wf.ID, err)
	}
	if wf.Status == handoff.WorkflowInProgress {
		if !opts.Force {
			return nil, fmt.Errorf("resume: %w", store.Claimable(wf.ID, wf.Status, false))
		}
		warn(fmt.Sprintf("workflow %s is already in progress; resuming anyway (--force): another session's claim is taken over", wf.ID))
	}
	plan := &ResumePlan{Snapshot: snap, Workflow: wf, force: opts.Force}
	div := gitstate.Compare(ctx, compareDir(opts.WorkDirGiven, opts.WorkDir, wf.Dir), snap.GitState)
	for _, w := range div.Warnings() {
		warn(w)
	}
	if err := div.Conflict(); err != nil {
		if !opts.Force {
			return nil, err
		}
		plan.Overridden = err
	}
	if plan.Prompt, err = compiler.Compile(snap, opts.Compile); err != nil {
		return nil, fmt.Errorf("compile resume prompt: %w", err)
	}
	return plan, nil
}

// Commit records the resume in one transaction: the claim (ECLAIMED when
// another session resumed the workflow since PrepareResume, unless
// Force), the workflow becomes in_progress, its session count covers the
// new session, and WORKFLOW_RESUMED names the snapshot.
func (p *ResumePlan) Commit(ctx context.Context, s Store) (*store.Resumed, error) {
	r, err := s.Resume(ctx, p.Snapshot.WorkflowID, p.Snapshot.ID, p.force)
	if err != nil {
		return nil, fmt.Errorf("resume workflow %s: %w", p.Snapshot.WorkflowID, err)
	}
	return r, nil
}

// Resume prepares and commits a resume at once, for an adapter with
// nothing to stage in between.
func Resume(ctx context.Context, s Store, opts ResumeOptions) (*ResumePlan, *store.Resumed, error) {
	plan, err := PrepareResume(ctx, s, opts)
	if err != nil {
		return nil, nil, err
	}
	r, err := plan.Commit(ctx, s)
	if err != nil {
		return nil, nil, err
	}
	return plan, r, nil
}

// compareDir picks the working tree a resume checks the snapshot against:
// the given directory when named explicitly; else the working directory
// when it lies inside the workflow's directory (or the workflow has none,
// or it is gone here); else the workflow's directory, since that is where
// its work lives.
func compareDir(given bool, wd, wfDir string) string {
	if given || wfDir == "" || within(wd, wfDir) {
		return wd
	}
	if fi, err := os.Stat(wfDir); err != nil || !fi.IsDir() {
		return wd
	}
	return wfDir
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

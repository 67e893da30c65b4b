package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/handoff-cli/handoff"
)

// Ref names a workflow in the ways an adapter can: a flag or URL gives an
// id, an agent hook gives its session id and working directory, a person
// in a terminal gives a directory. The first one set that finds a workflow
// wins, in the order of the fields.
type Ref struct {
	// Workflow is a workflow id or a unique prefix of one. When set it
	// must resolve: the other fields are not tried.
	Workflow string
	// SessionID is an agent's session id, which names the workflow its
	// snapshots are filed under (DefaultWorkflowID).
	SessionID string
	// Dir is a directory: the workflow recorded for it or for the nearest
	// directory above it, an open one before a finished one.
	Dir string
}

// Resolve is the one way to find a workflow. ENOTFOUND when ref names
// none, EINVALID when a prefix matches more than one.
func Resolve(ctx context.Context, s Store, ref Ref) (*handoff.Workflow, error) {
	if ref.Workflow != "" {
		return byIDOrPrefix(ctx, s, ref.Workflow)
	}
	if ref.SessionID != "" {
		wf, err := s.Workflow(ctx, ref.SessionID)
		if err == nil {
			return wf, nil
		}
		if handoff.ErrorCode(err) != handoff.ENOTFOUND {
			return nil, fmt.Errorf("resolve workflow of session %s: %w", ref.SessionID, err)
		}
	}
	if ref.Dir != "" {
		return s.ResolveWorkflow(ctx, ref.Dir)
	}
	if ref.SessionID != "" {
		return nil, handoff.Errorf(handoff.ENOTFOUND, "no workflow for session %s", ref.SessionID)
	}
	return nil, handoff.Errorf(handoff.EINVALID, "resolve workflow: no id, session or directory given")
}

// byIDOrPrefix loads the workflow with this exact id, else the only one
// whose id starts with it.
func byIDOrPrefix(ctx context.Context, s Store, id string) (*handoff.Workflow, error) {
	wf, err := s.Workflow(ctx, id)
	if handoff.ErrorCode(err) != handoff.ENOTFOUND {
		return wf, err
	}
	all, lerr := s.Workflows(ctx)
	if lerr != nil {
		return nil, fmt.Errorf("resolve workflow %s: %w", id, lerr)
	}
	var found []handoff.Workflow
	for _, w := range all {
		if strings.HasPrefix(w.ID, id) {
			found = append(found, w)
		}
	}
	switch len(found) {
	case 0:
		return nil, err
	case 1:
		return &found[0], nil
	}
	ids := make([]string, 0, 3)
	for _, w := range found[:min(3, len(found))] {
		ids = append(ids, w.ID)
	}
	return nil, handoff.Errorf(handoff.EINVALID, "workflow prefix %q is ambiguous: %d workflows match (%s…)", id, len(found), strings.Join(ids, ", "))
}

// WorkflowFor picks the workflow a new snapshot of t is filed under when
// the caller names none: the one its session id names, else the open
// workflow of dir (the session's own directory when dir is ""), else a new
// one (DefaultWorkflowID). A finished workflow of the directory is not
// continued: new work there starts a new workflow.
func WorkflowFor(ctx context.Context, s Store, t *handoff.Transcript, dir string) (string, error) {
	if dir == "" {
		dir = t.Session.CWD
	}
	wf, err := Resolve(ctx, s, Ref{SessionID: t.Session.ID, Dir: dir})
	switch {
	case err == nil && (wf.ID == t.Session.ID || !wf.Status.Terminal()):
		return wf.ID, nil
	case err == nil, handoff.ErrorCode(err) == handoff.ENOTFOUND:
		return DefaultWorkflowID(t), nil
	}
	return "", err
}

// SnapshotFor finds the snapshot a resume or a prompt starts from:
// snapshot (an id or unique prefix) when given — it must belong to the
// workflow ref.Workflow names, if any — else the latest snapshot of the
// workflow ref resolves to.
func SnapshotFor(ctx context.Context, s Store, snapshot string, ref Ref) (*handoff.Snapshot, error) {
	if snapshot != "" {
		snap, err := s.Snapshot(ctx, snapshot)
		if err != nil {
			return nil, err
		}
		if ref.Workflow != "" && snap.WorkflowID != ref.Workflow {
			if wf, err := byIDOrPrefix(ctx, s, ref.Workflow); err != nil || wf.ID != snap.WorkflowID {
				return nil, handoff.Errorf(handoff.EINVALID, "snapshot %s belongs to workflow %s, not %s", snap.ID, snap.WorkflowID, ref.Workflow)
			}
		}
		return snap, nil
	}
	wf, err := Resolve(ctx, s, ref)
	if err != nil {
		return nil, err
	}
	return s.LatestSnapshot(ctx, wf.ID)
}

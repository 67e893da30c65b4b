package session

import (
	"context"
	"fmt"

	"github.com/handoff-cli/handoff"
)

// WorkflowForNew turns a workflow reference given for a new snapshot (the
// API's ?workflow=, `pause --workflow`) into the id to file it under: the
// workflow it names (an id or a unique prefix, through Resolve), else,
// when no workflow matches, the reference itself as the id of a new
// workflow. An ambiguous prefix is EINVALID, never a new workflow.
func WorkflowForNew(ctx context.Context, s Store, ref string) (string, error) {
	if ref == "" {
		return "", handoff.Errorf(handoff.EINVALID, "workflow reference is empty")
	}
	wf, err := Resolve(ctx, s, Ref{Workflow: ref})
	switch {
	case err == nil:
		return wf.ID, nil
	case handoff.ErrorCode(err) == handoff.ENOTFOUND:
		return ref, nil
	}
	return "", fmt.Errorf("workflow %s: %w", ref, err)
}

// SnapshotOf loads snapshot id (or a unique prefix) through SnapshotFor
// and checks it belongs to workflow wfID: another workflow's snapshot is
// ENOTFOUND, so a URL naming a workflow and a snapshot names one thing.
func SnapshotOf(ctx context.Context, s Store, wfID, id string) (*handoff.Snapshot, error) {
	snap, err := SnapshotFor(ctx, s, id, Ref{})
	if err != nil {
		return nil, err
	}
	if snap.WorkflowID != wfID {
		return nil, handoff.Errorf(handoff.ENOTFOUND, "workflow %s has no snapshot %s", wfID, id)
	}
	return snap, nil
}

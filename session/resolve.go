package session

// The reference resolver: the one way a snapshot or workflow named by a
// person or a client (a CLI argument or flag, a REST path, an MCP tool
// argument) becomes a stored record. Every adapter calls it, so an id a
// person copies from any listing means the same thing everywhere.
//
// API (kept small and stable; the server and MCP call it too):
//
//	ResolveSnapshot(ctx, s, ref)        ref → a snapshot (a workflow ref: its latest)
//	Resolve(ctx, s, Ref{Workflow: ref}) ref → a workflow (a snapshot ref: its workflow)
//	Resolve(ctx, s, Ref{SessionID, Dir}) an agent session or a directory → its workflow
//	SnapshotFor(ctx, s, snapshot, ref)  a resume's starting snapshot
//	TargetWorkflow(ctx, s, ref, create) the workflow a new snapshot is filed under
//	WorkflowFor(ctx, s, t, dir)         the same when the caller names none
//
// A reference, in the order it is tried:
//
//  1. a whole snapshot id ("snap_v1mzyyerre21") or workflow id
//     ("7f3c2a1e-5b6d-…", "wf_0c1d2e3f4a5b");
//  2. a prefix of one, with or without its kind's "snap_" or "wf_"
//     ("snap_v1mz", "v1mz", "7f3c", "wf_0c1d", "0c1d"), like a git hash.
//
// Outcomes, as error codes (the CLI's exit codes in brackets):
//
//   - one match: that record;
//   - no match: ENOTFOUND [3];
//   - more than one: an *AmbiguousError, code EINVALID [2], listing the
//     candidates (a snapshot and its own workflow's latest snapshot count
//     once);
//   - an empty reference: EINVALID [2].
//
// Nothing here creates a workflow: TargetWorkflow returns a new id only
// when the caller asks for one (create), the CLI's --new-workflow.

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
)

// Id prefixes a person may leave out of a reference.
const (
	snapshotPrefix = "snap_"
	workflowPrefix = "wf_"
)

// maxListed is how many candidates an ambiguity error names.
const maxListed = 5

// AmbiguousError is a reference that names more than one record. Its code
// is EINVALID (handoff.ErrorCode reads it through Unwrap).
type AmbiguousError struct {
	// Ref is the reference as given.
	Ref string
	// Snapshots and Workflows are the ids it matches, at most maxListed
	// in all, snapshots first.
	Snapshots, Workflows []string
	// More says there were more matches than listed.
	More bool
}

// Error names the reference and its candidates.
func (e *AmbiguousError) Error() string {
	more := ""
	if e.More {
		more = ", …"
	}
	kind := "prefix"
	switch {
	case len(e.Workflows) == 0:
		kind = "snapshot prefix"
	case len(e.Snapshots) == 0:
		kind = "workflow prefix"
	}
	cands := slices.Clone(e.Snapshots)
	for _, w := range e.Workflows {
		cands = append(cands, "workflow "+w)
	}
	return fmt.Sprintf("%s %q is ambiguous: it matches %s%s; type more of the id", kind, e.Ref, strings.Join(cands, ", "), more)
}

// Unwrap gives the error its EINVALID code.
func (e *AmbiguousError) Unwrap() error {
	return &handoff.Error{Code: handoff.EINVALID, Message: e.Error()}
}

// Ref names a workflow in the ways an adapter can: a flag or URL gives a
// reference, an agent hook gives its session id and working directory, a
// person in a terminal gives a directory. The first one set that finds a
// workflow wins, in the order of the fields.
type Ref struct {
	// Workflow is a reference (see above): a workflow id or prefix, or a
	// snapshot id or prefix meaning its workflow. When set it must
	// resolve: the other fields are not tried.
	Workflow string
	// SessionID is an agent's session id, which names the workflow its
	// snapshots are filed under (DefaultWorkflowID).
	SessionID string
	// Dir is a directory: the workflow recorded for it or for the nearest
	// directory above it, an open one before a finished one.
	Dir string
}

// Resolve is the one way to find a workflow. ENOTFOUND when ref names
// none, EINVALID (an *AmbiguousError) when a reference matches more than
// one.
func Resolve(ctx context.Context, s Store, ref Ref) (*handoff.Workflow, error) {
	if ref.Workflow != "" {
		m, err := match(ctx, s, ref.Workflow)
		if handoff.ErrorCode(err) == handoff.ENOTFOUND {
			return nil, handoff.Errorf(handoff.ENOTFOUND, "no workflow %q (see 'handoff status')", ref.Workflow)
		}
		if err != nil {
			return nil, err
		}
		return m.workflow(ctx, s)
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

// ResolveSnapshot finds the snapshot ref names: a snapshot id or prefix,
// or a workflow id or prefix meaning that workflow's latest snapshot.
func ResolveSnapshot(ctx context.Context, s Store, ref string) (*handoff.Snapshot, error) {
	m, err := match(ctx, s, ref)
	if err != nil {
		return nil, err
	}
	if m.snap != nil {
		return m.snap, nil
	}
	return s.LatestSnapshot(ctx, m.wf.ID)
}

// TargetWorkflow is the workflow id a new snapshot is filed under when the
// caller names one: ref resolved like Resolve's Workflow, or, with create,
// ref itself as the id of a workflow the save creates (ECONFLICT when a
// workflow has that id already: a person asking for a new workflow should
// not add to an old one unknowingly).
func TargetWorkflow(ctx context.Context, s Store, ref string, create bool) (string, error) {
	if ref == "" {
		return "", handoff.Errorf(handoff.EINVALID, "no workflow named")
	}
	if !create {
		wf, err := Resolve(ctx, s, Ref{Workflow: ref})
		if handoff.ErrorCode(err) == handoff.ENOTFOUND {
			return "", handoff.Errorf(handoff.ENOTFOUND, "no workflow %q (see 'handoff status'); to start a new one with this id, use --new-workflow %s", ref, ref)
		}
		if err != nil {
			return "", err
		}
		return wf.ID, nil
	}
	_, err := s.Workflow(ctx, ref)
	switch handoff.ErrorCode(err) {
	case handoff.ENOTFOUND:
		return ref, nil
	case "":
		return "", handoff.Errorf(handoff.ECONFLICT, "workflow %s exists already; use --workflow %s to add to it", ref, ref)
	}
	return "", fmt.Errorf("check workflow %s: %w", ref, err)
}

// WorkflowFor picks the workflow a new snapshot of t is filed under when
// the caller names none: the one its session id names, else the open
// workflow of dir (the session's own directory when dir is ""), else a new
// one (DefaultWorkflowID). A finished or imported workflow of the
// directory is not continued: new work there starts a new workflow.
func WorkflowFor(ctx context.Context, s Store, t *handoff.Transcript, dir string) (string, error) {
	if dir == "" {
		dir = t.Session.CWD
	}
	wf, err := Resolve(ctx, s, Ref{SessionID: t.Session.ID, Dir: dir})
	switch {
	case err == nil && (wf.ID == t.Session.ID || wf.Status.Live()):
		return wf.ID, nil
	case err == nil, handoff.ErrorCode(err) == handoff.ENOTFOUND:
		return DefaultWorkflowID(t), nil
	}
	return "", err
}

// SnapshotFor finds the snapshot a resume or a prompt starts from:
// snapshot (a reference, see ResolveSnapshot) when given — it must belong
// to the workflow ref.Workflow names, if any — else the latest snapshot of
// the workflow ref resolves to.
func SnapshotFor(ctx context.Context, s Store, snapshot string, ref Ref) (*handoff.Snapshot, error) {
	if snapshot == "" {
		wf, err := Resolve(ctx, s, ref)
		if err != nil {
			return nil, err
		}
		return s.LatestSnapshot(ctx, wf.ID)
	}
	snap, err := ResolveSnapshot(ctx, s, snapshot)
	if err != nil {
		return nil, err
	}
	if ref.Workflow != "" && snap.WorkflowID != ref.Workflow {
		if wf, err := Resolve(ctx, s, Ref{Workflow: ref.Workflow}); err != nil || wf.ID != snap.WorkflowID {
			return nil, handoff.Errorf(handoff.EINVALID, "snapshot %s belongs to workflow %s, not %s", snap.ID, snap.WorkflowID, ref.Workflow)
		}
	}
	return snap, nil
}

// matched is the one record a reference names: a snapshot or a workflow.
type matched struct {
	snap *handoff.Snapshot
	wf   *handoff.Workflow
}

// workflow is the matched workflow, or the matched snapshot's.
func (m matched) workflow(ctx context.Context, s Store) (*handoff.Workflow, error) {
	if m.wf != nil {
		return m.wf, nil
	}
	return s.Workflow(ctx, m.snap.WorkflowID)
}

// snapshotIDRe finds the snapshot ids a store's ambiguity message lists.
var snapshotIDRe = regexp.MustCompile(`snap_[0-9a-z]+`)

// match finds the one snapshot or workflow ref names: a whole id first,
// then a prefix of either kind, with or without its kind's prefix.
func match(ctx context.Context, s Store, ref string) (matched, error) {
	if strings.TrimSpace(ref) == "" {
		return matched{}, handoff.Errorf(handoff.EINVALID, "empty snapshot or workflow reference")
	}
	// Whole ids: a snapshot's, then a workflow's.
	snap, snapErr := s.Snapshot(ctx, ref)
	if snapErr == nil && snap.ID == ref {
		return matched{snap: snap}, nil
	}
	wf, err := s.Workflow(ctx, ref)
	if err == nil {
		return matched{wf: wf}, nil
	}
	if handoff.ErrorCode(err) != handoff.ENOTFOUND {
		return matched{}, fmt.Errorf("resolve %s: %w", ref, err)
	}

	// Prefixes. Snapshots: ref as given and with "snap_" in front.
	var snaps []*handoff.Snapshot
	var snapIDs []string
	more := false
	addSnap := func(sn *handoff.Snapshot, err error) error {
		switch code := handoff.ErrorCode(err); {
		case err == nil:
			if !slices.Contains(snapIDs, sn.ID) {
				snaps, snapIDs = append(snaps, sn), append(snapIDs, sn.ID)
			}
		case code == handoff.ENOTFOUND:
		case code == handoff.EINVALID && strings.Contains(err.Error(), "ambiguous"):
			// The store lists the first few candidates; it found more
			// than one, which is all an ambiguity needs.
			_, listed, _ := strings.Cut(err.Error(), "ambiguous:")
			for _, id := range snapshotIDRe.FindAllString(listed, -1) {
				if !slices.Contains(snapIDs, id) {
					snapIDs = append(snapIDs, id)
				}
			}
			more = more || strings.Contains(err.Error(), "…")
			snaps = append(snaps, nil, nil) // at least two
		default:
			return fmt.Errorf("resolve %s: %w", ref, err)
		}
		return nil
	}
	if err := addSnap(snap, snapErr); err != nil {
		return matched{}, err
	}
	if !strings.HasPrefix(ref, snapshotPrefix) {
		if err := addSnap(s.Snapshot(ctx, snapshotPrefix+ref)); err != nil {
			return matched{}, err
		}
	}
	// Workflows: ref as given and with "wf_" in front.
	all, err := s.Workflows(ctx)
	if err != nil {
		return matched{}, fmt.Errorf("resolve %s: %w", ref, err)
	}
	var wfs []*handoff.Workflow
	for i := range all {
		id := all[i].ID
		if strings.HasPrefix(id, ref) || (!strings.HasPrefix(ref, workflowPrefix) && strings.HasPrefix(id, workflowPrefix+ref)) {
			wfs = append(wfs, &all[i])
		}
	}

	// A workflow whose latest snapshot is the one snapshot matched names
	// the same thing: count it once.
	if len(snaps) == 1 && len(wfs) > 0 {
		wfs = slices.DeleteFunc(wfs, func(w *handoff.Workflow) bool {
			if w.ID != snaps[0].WorkflowID {
				return false
			}
			latest, err := s.LatestSnapshot(ctx, w.ID)
			return err == nil && latest.ID == snaps[0].ID
		})
	}
	switch {
	case len(snaps)+len(wfs) == 0:
		return matched{}, handoff.Errorf(handoff.ENOTFOUND, "no snapshot or workflow %q (see 'handoff list' and 'handoff status')", ref)
	case len(snaps) == 1 && len(wfs) == 0:
		return matched{snap: snaps[0]}, nil
	case len(snaps) == 0 && len(wfs) == 1:
		return matched{wf: wfs[0]}, nil
	}
	amb := &AmbiguousError{Ref: ref, More: more}
	for _, id := range snapIDs {
		if len(amb.Snapshots) < maxListed {
			amb.Snapshots = append(amb.Snapshots, id)
		} else {
			amb.More = true
		}
	}
	for _, w := range wfs {
		if len(amb.Snapshots)+len(amb.Workflows) < maxListed {
			amb.Workflows = append(amb.Workflows, w.ID)
		} else {
			amb.More = true
		}
	}
	return matched{}, amb
}

package session

import (
	"context"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// Store is what the use cases need from a database, declared here by its
// consumer: *store.Store (SQLite) satisfies it, and so can a second
// backend or a test fake. Every write method is one transaction: it
// stores all of what it documents or nothing.
type Store interface {
	// SaveSnapshot stores snap in the session of its agent session
	// (wf.Session; a new agent session is the workflow's next session),
	// creating the workflow (status unchanged), and fills in what the
	// store assigns (ID, SessionNumber, CreatedAt). When that session's
	// newest snapshot has wf.Digest nothing is stored and snap becomes
	// the stored snapshot (its ID is not the one passed).
	SaveSnapshot(ctx context.Context, snap *handoff.Snapshot, wf store.WorkflowInfo) error
	// PauseSnapshot is SaveSnapshot plus pausing the workflow and its
	// WORKFLOW_PAUSED event, together; ECONFLICT (nothing stored) when
	// the workflow may not be paused.
	PauseSnapshot(ctx context.Context, snap *handoff.Snapshot, wf store.WorkflowInfo, reason string) error
	// Resume claims a workflow: it moves to in_progress from snapshotID,
	// counts the new session and records WORKFLOW_RESUMED. A workflow
	// already in progress is ECLAIMED unless force.
	Resume(ctx context.Context, workflowID, snapshotID string, force bool) (*store.Resumed, error)
	// SetWorkflowStatus moves a workflow through the lifecycle check and
	// records the event.
	SetWorkflowStatus(ctx context.Context, id string, to handoff.WorkflowStatus, reason string) error

	// Snapshot loads a snapshot by id or unique id prefix.
	Snapshot(ctx context.Context, idOrPrefix string) (*handoff.Snapshot, error)
	// LatestSnapshot loads a workflow's newest snapshot: the last stored,
	// whichever session holds it.
	LatestSnapshot(ctx context.Context, workflowID string) (*handoff.Snapshot, error)
	// Workflow loads a workflow by exact id; ENOTFOUND when missing.
	Workflow(ctx context.Context, id string) (*handoff.Workflow, error)
	// Workflows lists the workflows, most recently active first.
	Workflows(ctx context.Context) ([]handoff.Workflow, error)
	// ResolveWorkflow finds the workflow of dir or the nearest directory
	// above it.
	ResolveWorkflow(ctx context.Context, dir string) (*handoff.Workflow, error)

	// CacheGet and CachePut keep small values between runs (the
	// extraction marks of ExtractAll, the LLM extractor's answers).
	CacheGet(ctx context.Context, key string) ([]byte, bool, error)
	CachePut(ctx context.Context, key string, value []byte) error
	// CacheUpdate reads, changes and writes back one value in one write
	// transaction (Observe's monitor state).
	CacheUpdate(ctx context.Context, key string, fn func(old []byte, found bool) ([]byte, error)) error
}

// The SQLite store is a Store.
var _ Store = (*store.Store)(nil)

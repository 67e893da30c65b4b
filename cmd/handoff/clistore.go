package main

import (
	"context"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/postgres"
)

// cliStore is what the commands need of a database: the use cases'
// session.Store plus the listings, records, fork and GC the commands read
// and write. Declared here, by the consumer, so every command runs on the
// local SQLite file or on a team PostgreSQL database alike.
type cliStore interface {
	session.Store
	ListSnapshots(ctx context.Context, f store.ListFilter) ([]store.SnapshotSummary, []error, error)
	ListWorkflows(ctx context.Context) ([]handoff.Workflow, []error, error)
	Events(ctx context.Context, workflowID string) ([]handoff.Event, error)
	ListEvents(ctx context.Context, workflowID string) ([]handoff.Event, []error, error)
	Overview(ctx context.Context) ([]store.WorkflowOverview, []error, error)
	Decisions(ctx context.Context, f store.DecisionFilter) ([]store.StoredDecision, []error, error)
	Errors(ctx context.Context, f store.ErrorFilter) ([]store.StoredError, []error, error)
	Fork(ctx context.Context, snap *handoff.Snapshot, wf store.WorkflowInfo, sourceID, note string) error
	GC(ctx context.Context, cutoff time.Time, dryRun bool) ([]store.GCCandidate, error)
	Close() error
}

// Both backends serve every command.
var (
	_ cliStore = (*store.Store)(nil)
	_ cliStore = (*postgres.Store)(nil)
)

// postgresLabel names the team database in messages: never its URL, which
// may carry a password.
const postgresLabel = "the PostgreSQL team store"

// storeLabel names s for a person: the SQLite file's path, or
// postgresLabel.
func storeLabel(s cliStore) string {
	if l, ok := s.(*store.Store); ok {
		return l.Path()
	}
	return postgresLabel
}

// dbLabel names the database target for a person: a SQLite path as is, a
// PostgreSQL URL as postgresLabel.
func dbLabel(target string) string {
	if postgres.IsURL(target) {
		return postgresLabel
	}
	return target
}

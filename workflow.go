package handoff

import (
	"fmt"
	"slices"
	"time"
)

// WorkflowStatus is where a piece of work stands across sessions.
type WorkflowStatus string

// The workflow statuses.
const (
	WorkflowPending    WorkflowStatus = "pending"
	WorkflowInProgress WorkflowStatus = "in_progress"
	WorkflowPaused     WorkflowStatus = "paused"
	WorkflowBlocked    WorkflowStatus = "blocked"
	WorkflowCompleted  WorkflowStatus = "completed"
	WorkflowFailed     WorkflowStatus = "failed"
	WorkflowCancelled  WorkflowStatus = "cancelled"
	// WorkflowImported is history `handoff extract` filed: a past
	// session, not live work. It is listed after the live workflows, a
	// new session in its directory does not join it, and pausing or
	// resuming it makes it live again.
	WorkflowImported WorkflowStatus = "imported"
)

// WorkflowStatuses lists every status, in lifecycle order.
func WorkflowStatuses() []WorkflowStatus {
	return []WorkflowStatus{WorkflowPending, WorkflowInProgress, WorkflowPaused, WorkflowBlocked, WorkflowCompleted, WorkflowFailed, WorkflowCancelled, WorkflowImported}
}

// workflowTransitions is the one place the lifecycle is defined. Terminal
// states (completed, cancelled) allow no way out; failed can be retried.
func workflowTransitions(from WorkflowStatus) []WorkflowStatus {
	switch from {
	case WorkflowPending:
		return []WorkflowStatus{WorkflowInProgress, WorkflowPaused, WorkflowCancelled}
	case WorkflowInProgress:
		return []WorkflowStatus{WorkflowPaused, WorkflowBlocked, WorkflowCompleted, WorkflowFailed, WorkflowCancelled, WorkflowImported}
	case WorkflowPaused:
		return []WorkflowStatus{WorkflowInProgress, WorkflowCancelled, WorkflowCompleted}
	case WorkflowBlocked:
		return []WorkflowStatus{WorkflowInProgress, WorkflowPaused, WorkflowCancelled, WorkflowFailed}
	case WorkflowFailed:
		return []WorkflowStatus{WorkflowInProgress, WorkflowCancelled}
	case WorkflowImported:
		return []WorkflowStatus{WorkflowInProgress, WorkflowPaused, WorkflowCompleted, WorkflowCancelled}
	}
	return nil
}

// Valid reports whether s is a known status.
func (s WorkflowStatus) Valid() bool {
	return slices.Contains(WorkflowStatuses(), s)
}

// Live reports whether s is work someone may still be doing: neither
// finished (Terminal) nor imported history.
func (s WorkflowStatus) Live() bool {
	return s.Valid() && !s.Terminal() && s != WorkflowImported
}

// Terminal reports whether no transition leaves s.
func (s WorkflowStatus) Terminal() bool {
	return s.Valid() && len(workflowTransitions(s)) == 0
}

// CanTransition reports whether a workflow may move from s to next.
// Staying in the same state is always allowed (a repeated pause is not an
// error).
func (s WorkflowStatus) CanTransition(next WorkflowStatus) bool {
	return s == next || slices.Contains(workflowTransitions(s), next)
}

// Transition returns an ECONFLICT error when s may not move to next.
func (s WorkflowStatus) Transition(next WorkflowStatus) error {
	if !next.Valid() {
		return Errorf(EINVALID, "unknown workflow status %q", next)
	}
	if !s.CanTransition(next) {
		return Errorf(ECONFLICT, "workflow is %s and cannot become %s", s, next)
	}
	return nil
}

// Workflow is a piece of work that spans sessions: each session adds a
// snapshot, numbered in order.
type Workflow struct {
	ID     string         `json:"id" db:"id"`
	Name   string         `json:"name" db:"name"`
	Status WorkflowStatus `json:"status" db:"status"`
	// Dir is the working directory the workflow was resolved from.
	Dir          string     `json:"dir,omitempty" db:"dir"`
	SessionCount int        `json:"session_count" db:"session_count"`
	PausedAt     *time.Time `json:"paused_at,omitempty" db:"paused_at"`
	PauseReason  string     `json:"pause_reason,omitempty" db:"pause_reason"`
	// StartCommit is the git commit the workflow's first snapshot was
	// taken at, so later ones can say how far the work has moved.
	StartCommit string    `json:"start_commit,omitempty" db:"start_commit"`
	CreatedAt   time.Time `json:"created_at" db:"created_at"`
	UpdatedAt   time.Time `json:"updated_at" db:"updated_at"`
}

// EventType names a workflow event.
type EventType string

// Workflow events recorded in workflow_events.
const (
	EventWorkflowCreated  EventType = "WORKFLOW_CREATED"
	EventSnapshotCreated  EventType = "SNAPSHOT_CREATED"
	EventWorkflowPaused   EventType = "WORKFLOW_PAUSED"
	EventWorkflowResumed  EventType = "WORKFLOW_RESUMED"
	EventStatusChanged    EventType = "WORKFLOW_STATUS_CHANGED"
	EventWorkflowForked   EventType = "WORKFLOW_FORKED"
	EventCheckpointWarned EventType = "CHECKPOINT_WARNED"
)

// Event is one thing that happened to a workflow.
type Event struct {
	ID         int64     `json:"id" db:"id"`
	WorkflowID string    `json:"workflow_id" db:"workflow_id"`
	Type       EventType `json:"type" db:"type"`
	SnapshotID string    `json:"snapshot_id,omitempty" db:"snapshot_id"`
	Detail     string    `json:"detail,omitempty" db:"detail"`
	CreatedAt  time.Time `json:"created_at" db:"created_at"`
}

// String renders the event for logs.
func (e Event) String() string {
	return fmt.Sprintf("%s %s %s", e.CreatedAt.Format(time.RFC3339), e.WorkflowID, e.Type)
}

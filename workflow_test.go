package handoff

import (
	"errors"
	"fmt"
	"testing"
)

func TestWorkflowTransitions(t *testing.T) {
	tests := []struct {
		from, to WorkflowStatus
		ok       bool
	}{
		{WorkflowPending, WorkflowInProgress, true},
		{WorkflowInProgress, WorkflowPaused, true},
		{WorkflowPaused, WorkflowInProgress, true},
		{WorkflowPaused, WorkflowPaused, true},
		{WorkflowInProgress, WorkflowBlocked, true},
		{WorkflowBlocked, WorkflowInProgress, true},
		{WorkflowInProgress, WorkflowCompleted, true},
		{WorkflowFailed, WorkflowInProgress, true},
		{WorkflowCompleted, WorkflowInProgress, false},
		{WorkflowCancelled, WorkflowPaused, false},
		{WorkflowPending, WorkflowCompleted, false},
		{WorkflowPaused, WorkflowFailed, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s→%s", tt.from, tt.to), func(t *testing.T) {
			err := tt.from.Transition(tt.to)
			if (err == nil) != tt.ok {
				t.Fatalf("Transition err = %v, want ok=%v", err, tt.ok)
			}
			if err != nil && ErrorCode(err) != ECONFLICT {
				t.Errorf("code = %q, want %q", ErrorCode(err), ECONFLICT)
			}
		})
	}
	if err := WorkflowPaused.Transition("bogus"); ErrorCode(err) != EINVALID {
		t.Errorf("unknown status: code = %q, want %q", ErrorCode(err), EINVALID)
	}
	for _, s := range []WorkflowStatus{WorkflowCompleted, WorkflowCancelled} {
		if !s.Terminal() {
			t.Errorf("%s is not terminal", s)
		}
	}
	if WorkflowPaused.Terminal() {
		t.Error("paused is terminal")
	}
}

func TestErrorCodeSurvivesWrapping(t *testing.T) {
	cause := errors.New("disk on fire")
	err := fmt.Errorf("save snapshot: %w", Errorf(EUNAVAILABLE, "database busy: %w", cause))
	if got := ErrorCode(err); got != EUNAVAILABLE {
		t.Errorf("ErrorCode = %q, want %q", got, EUNAVAILABLE)
	}
	if !errors.Is(err, cause) {
		t.Error("cause lost through Errorf")
	}
	if got, want := err.Error(), "save snapshot: database busy: disk on fire"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if ErrorCode(errors.New("plain")) != EINTERNAL || ErrorCode(nil) != "" {
		t.Error("ErrorCode of a plain error or nil is wrong")
	}
}

func TestSnapshotViews(t *testing.T) {
	s := &Snapshot{
		Decisions: []Decision{{ID: "d1", SupersededBy: "d2"}, {ID: "d2"}},
		Errors: []ErrorRecord{
			{ID: "e1", Resolution: ResolutionFixed},
			{ID: "e2", Resolution: ResolutionUnresolved},
			{ID: "e3", Resolution: ResolutionDeferred},
		},
	}
	if got := s.CurrentDecisions(); len(got) != 1 || got[0].ID != "d2" {
		t.Errorf("CurrentDecisions = %+v, want only d2", got)
	}
	if got := s.UnresolvedErrors(); len(got) != 2 || got[0].ID != "e2" || got[1].ID != "e3" {
		t.Errorf("UnresolvedErrors = %+v, want e2, e3", got)
	}
	code := 2
	if !(ToolResult{ExitCode: &code}).Failed() || (ToolResult{}).Failed() {
		t.Error("ToolResult.Failed is wrong")
	}
}

package session

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// openStore opens a real SQLite store in a fresh temporary directory.
func openStore(t *testing.T) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "h.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func eventTypes(t *testing.T, s *store.Store, wf string) []handoff.EventType {
	t.Helper()
	evs, err := s.Events(context.Background(), wf)
	if err != nil {
		t.Fatal(err)
	}
	var out []handoff.EventType
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out
}

func TestCheckpointModes(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name       string
		mode       PauseMode
		before     handoff.WorkflowStatus // "" for a new workflow
		wantCode   string
		wantPaused bool
		wantStatus handoff.WorkflowStatus
		wantSnaps  int
	}{
		{"no pause, new workflow", NoPause, "", "", false, handoff.WorkflowInProgress, 1},
		{"pause, new workflow", PauseRequired, "", "", true, handoff.WorkflowPaused, 1},
		{"pause, completed workflow", PauseRequired, handoff.WorkflowCompleted, handoff.ECONFLICT, false, handoff.WorkflowCompleted, 1},
		// The same transcript again is unchanged content: nothing new is
		// stored, but the pause still applies where the lifecycle allows.
		{"pause if allowed, in progress", PauseIfAllowed, handoff.WorkflowInProgress, "", true, handoff.WorkflowPaused, 1},
		{"pause if allowed, completed", PauseIfAllowed, handoff.WorkflowCompleted, "", false, handoff.WorkflowCompleted, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openStore(t)
			tr := sample(t)
			wf := DefaultWorkflowID(tr)
			if tt.before != "" {
				if _, err := Checkpoint(ctx, s, tr, CheckpointOptions{Build: buildOpts(t)}); err != nil {
					t.Fatal(err)
				}
				if tt.before != handoff.WorkflowInProgress {
					if err := s.SetWorkflowStatus(ctx, wf, tt.before, "done"); err != nil {
						t.Fatal(err)
					}
				}
			}
			opts := CheckpointOptions{Build: buildOpts(t), Pause: tt.mode}
			opts.Build.Trigger, opts.Build.PauseReason = handoff.TriggerPause, "token sk-proj-FAKEfakeFAKEfake1234567890abcdefABCDEF expired"
			cp, err := Checkpoint(ctx, s, sample(t), opts)
			if handoff.ErrorCode(err) != tt.wantCode && !(err == nil && tt.wantCode == "") {
				t.Fatalf("err %v, want code %q", err, tt.wantCode)
			}
			if err == nil {
				if cp.Paused != tt.wantPaused || cp.Snapshot.ID == "" {
					t.Errorf("paused %v id %q, want paused %v", cp.Paused, cp.Snapshot.ID, tt.wantPaused)
				}
				if cp.Unchanged != (tt.before != "") {
					t.Errorf("unchanged %v after a checkpoint before: %v", cp.Unchanged, tt.before != "")
				}
				if cp.Snapshot.PauseReason == opts.Build.PauseReason {
					t.Error("the pause reason was stored with its secret")
				}
			}
			w, err := s.Workflow(ctx, wf)
			if err != nil {
				t.Fatal(err)
			}
			if w.Status != tt.wantStatus {
				t.Errorf("status %s, want %s", w.Status, tt.wantStatus)
			}
			list, _, err := s.ListSnapshots(ctx, store.ListFilter{WorkflowID: wf})
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != tt.wantSnaps {
				t.Errorf("%d snapshots stored, want %d (events %v)", len(list), tt.wantSnaps, eventTypes(t, s, wf))
			}
		})
	}
}

// TestCheckpointAtomicSQLite makes the WORKFLOW_PAUSED event's insert fail
// inside the real database: the snapshot, its event and the status change
// written before it in the same transaction must all be gone.
func TestCheckpointAtomicSQLite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := Checkpoint(ctx, s, sample(t), CheckpointOptions{Build: buildOpts(t)}); err != nil {
		t.Fatal(err)
	}
	wf := DefaultWorkflowID(sample(t))
	before := eventTypes(t, s, wf)
	failPausedEvents(t, path)

	for _, mode := range []PauseMode{PauseRequired, PauseIfAllowed} {
		opts := CheckpointOptions{Build: buildOpts(t), Pause: mode}
		opts.Build.Trigger = handoff.TriggerPause
		if _, err := Checkpoint(ctx, s, sample(t), opts); err == nil {
			t.Fatalf("mode %d: checkpoint succeeded with the event insert failing", mode)
		}
		w, err := s.Workflow(ctx, wf)
		if err != nil {
			t.Fatal(err)
		}
		list, _, err := s.ListSnapshots(ctx, store.ListFilter{WorkflowID: wf})
		if err != nil {
			t.Fatal(err)
		}
		if w.Status != handoff.WorkflowInProgress || len(list) != 1 || len(eventTypes(t, s, wf)) != len(before) {
			t.Errorf("mode %d: status %s, %d snapshots, events %v; want in_progress, 1, %v", mode, w.Status, len(list), eventTypes(t, s, wf), before)
		}
	}
}

// failPausedEvents installs a trigger, in the test's database only, that
// aborts any WORKFLOW_PAUSED event insert.
func failPausedEvents(t *testing.T, path string) {
	t.Helper()
	db, err := sqlOpen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TRIGGER fail_paused BEFORE INSERT ON workflow_events
		WHEN NEW.type = 'WORKFLOW_PAUSED' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`); err != nil {
		t.Fatal(err)
	}
}

// fakeStore is a Store whose writes fail as told and that records which
// of them were called, to check what Checkpoint does on a failure.
type fakeStore struct {
	Store             // nil: a method the test does not expect panics
	pauseErr, saveErr error
	status            handoff.WorkflowStatus // what Workflow reports
	calls             []string
}

func (f *fakeStore) Workflow(_ context.Context, id string) (*handoff.Workflow, error) {
	f.calls = append(f.calls, "Workflow")
	return &handoff.Workflow{ID: id, Status: f.status}, nil
}

func (f *fakeStore) PauseSnapshot(_ context.Context, snap *handoff.Snapshot, _ store.WorkflowInfo, _ string) error {
	f.calls = append(f.calls, "PauseSnapshot")
	return f.pauseErr
}

func (f *fakeStore) SaveSnapshot(_ context.Context, snap *handoff.Snapshot, _ store.WorkflowInfo) error {
	f.calls = append(f.calls, "SaveSnapshot")
	return f.saveErr
}

func (f *fakeStore) SetWorkflowStatus(context.Context, string, handoff.WorkflowStatus, string) error {
	f.calls = append(f.calls, "SetWorkflowStatus")
	return nil
}

// TestCheckpointFailurePaths: a failing pause transaction is never
// patched up with separate writes (a save, then a status change), except
// the one documented fallback — a workflow that may not be paused keeps
// the snapshot under PauseIfAllowed.
func TestCheckpointFailurePaths(t *testing.T) {
	busy := handoff.Errorf(handoff.EUNAVAILABLE, "database is locked")
	conflict := handoff.Errorf(handoff.ECONFLICT, "workflow is completed and cannot become paused")
	tests := []struct {
		name      string
		mode      PauseMode
		pauseErr  error
		saveErr   error
		status    handoff.WorkflowStatus
		wantCalls []string
		wantErr   error
		paused    bool
	}{
		{"required, store busy", PauseRequired, busy, nil, "", []string{"PauseSnapshot"}, busy, false},
		{"required, conflict", PauseRequired, conflict, nil, handoff.WorkflowCompleted, []string{"PauseSnapshot"}, conflict, false},
		{"if allowed, store busy", PauseIfAllowed, busy, nil, "", []string{"PauseSnapshot"}, busy, false},
		{"if allowed, completed", PauseIfAllowed, conflict, nil, handoff.WorkflowCompleted, []string{"PauseSnapshot", "Workflow", "SaveSnapshot"}, nil, false},
		// A conflict the lifecycle does not explain (a constraint) is
		// an error, not a reason to store the snapshot unpaused.
		{"if allowed, other conflict", PauseIfAllowed, conflict, nil, handoff.WorkflowInProgress, []string{"PauseSnapshot", "Workflow"}, conflict, false},
		{"if allowed, completed then busy", PauseIfAllowed, conflict, busy, handoff.WorkflowCompleted, []string{"PauseSnapshot", "Workflow", "SaveSnapshot"}, busy, false},
		{"if allowed, ok", PauseIfAllowed, nil, nil, "", []string{"PauseSnapshot"}, nil, true},
		{"no pause, busy", NoPause, nil, busy, "", []string{"SaveSnapshot"}, busy, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeStore{pauseErr: tt.pauseErr, saveErr: tt.saveErr, status: tt.status}
			cp, err := Checkpoint(context.Background(), f, sample(t), CheckpointOptions{Build: buildOpts(t), Pause: tt.mode})
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("err %v, want %v", err, tt.wantErr)
			}
			if len(f.calls) != len(tt.wantCalls) {
				t.Fatalf("calls %v, want %v", f.calls, tt.wantCalls)
			}
			for i := range f.calls {
				if f.calls[i] != tt.wantCalls[i] {
					t.Fatalf("calls %v, want %v", f.calls, tt.wantCalls)
				}
			}
			if err == nil && cp.Paused != tt.paused {
				t.Errorf("paused %v, want %v", cp.Paused, tt.paused)
			}
		})
	}
}

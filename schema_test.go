package handoff

import (
	"strings"
	"testing"
)

func TestDecodeSnapshot(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		code    string
		trigger Trigger
		goal    string
	}{
		{name: "current", body: `{"schema_version":1,"id":"s","trigger":"pause","goal":"g"}`, trigger: TriggerPause, goal: "g"},
		{name: "version 0, no trigger", body: `{"id":"s","goal":"old"}`, trigger: TriggerManual, goal: "old"},
		{name: "version 0 keeps its trigger", body: `{"schema_version":0,"id":"s","trigger":"crash"}`, trigger: TriggerCrash},
		{name: "newer build", body: `{"schema_version":7,"id":"s"}`, code: ECONFLICT},
		{name: "negative version", body: `{"schema_version":-1}`, code: ECORRUPT},
		{name: "truncated", body: `{"schema_version":1,"id":"s","goal":"g`, code: ECORRUPT},
		{name: "wrong type", body: `{"schema_version":1,"tasks":"not a list"}`, code: ECORRUPT},
		{name: "not an object", body: `[1,2]`, code: ECORRUPT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap, err := DecodeSnapshot([]byte(tt.body))
			if tt.code != "" {
				if ErrorCode(err) != tt.code {
					t.Fatalf("err = %v (code %q), want code %q", err, ErrorCode(err), tt.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if snap.SchemaVersion != SnapshotSchemaVersion || snap.Trigger != tt.trigger || snap.Goal != tt.goal {
				t.Errorf("decoded %+v", snap)
			}
		})
	}
	_, err := DecodeSnapshot([]byte(`{"schema_version":9}`))
	if err == nil || !strings.Contains(err.Error(), "upgrade handoff") {
		t.Errorf("newer version error %v does not say what to do", err)
	}
}

// TestTransitionMatrix pins the whole lifecycle: every (from, to) pair of
// statuses, allowed or refused, in one table.
func TestTransitionMatrix(t *testing.T) {
	all := []WorkflowStatus{WorkflowPending, WorkflowInProgress, WorkflowPaused, WorkflowBlocked, WorkflowCompleted, WorkflowFailed, WorkflowCancelled}
	// allowed[from] lists the targets other than from itself.
	allowed := map[WorkflowStatus]string{
		WorkflowPending:    "in_progress paused cancelled",
		WorkflowInProgress: "paused blocked completed failed cancelled",
		WorkflowPaused:     "in_progress cancelled completed",
		WorkflowBlocked:    "in_progress paused cancelled failed",
		WorkflowFailed:     "in_progress cancelled",
		WorkflowCompleted:  "",
		WorkflowCancelled:  "",
	}
	for _, from := range all {
		targets := strings.Fields(allowed[from])
		for _, to := range all {
			want := from == to
			for _, x := range targets {
				want = want || string(to) == x
			}
			err := from.Transition(to)
			if (err == nil) != want || from.CanTransition(to) != want {
				t.Errorf("%s → %s: err %v, want allowed=%v", from, to, err, want)
			}
			if err != nil && ErrorCode(err) != ECONFLICT {
				t.Errorf("%s → %s: code %q", from, to, ErrorCode(err))
			}
		}
		if from.Terminal() != (len(targets) == 0) {
			t.Errorf("%s: Terminal() = %v", from, from.Terminal())
		}
	}
}

// FuzzDecodeSnapshot: any stored bytes either decode to a snapshot of the
// current schema version or fail with ECORRUPT or ECONFLICT — never a
// panic, never another code.
func FuzzDecodeSnapshot(f *testing.F) {
	for _, seed := range []string{
		`{"schema_version":1,"id":"s","trigger":"pause","goal":"g","tasks":[{"id":"1","content":"c","status":"pending"}]}`,
		`{"id":"s"}`, `{"schema_version":2}`, `{"schema_version":-3}`, `null`, `[]`, `{"schema_version":"1"}`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		snap, err := DecodeSnapshot(body)
		if err != nil {
			if c := ErrorCode(err); c != ECORRUPT && c != ECONFLICT {
				t.Fatalf("code %q for %q: %v", c, body, err)
			}
			return
		}
		if snap.SchemaVersion != SnapshotSchemaVersion {
			t.Fatalf("decoded version %d from %q", snap.SchemaVersion, body)
		}
	})
}

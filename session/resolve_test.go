package session

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// seed stores one snapshot per workflow id, in dir, returning the store.
func seed(t *testing.T, workflows map[string]string) *store.Store {
	t.Helper()
	ctx := context.Background()
	s := openStore(t)
	for id, dir := range workflows {
		snap := &handoff.Snapshot{WorkflowID: id, Trigger: handoff.TriggerManual, Goal: "work in " + dir}
		if err := s.SaveSnapshot(ctx, snap, store.WorkflowInfo{Name: id, Dir: dir}); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func TestResolve(t *testing.T) {
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	s := seed(t, map[string]string{
		"wf_aaa111": proj,
		"wf_aab222": filepath.Join(root, "other"),
		"sess-42":   filepath.Join(root, "elsewhere"),
	})
	tests := []struct {
		name     string
		ref      Ref
		want     string
		wantCode string
	}{
		{"exact id", Ref{Workflow: "wf_aaa111"}, "wf_aaa111", ""},
		{"unique prefix", Ref{Workflow: "wf_aaa"}, "wf_aaa111", ""},
		{"ambiguous prefix", Ref{Workflow: "wf_aa"}, "", handoff.EINVALID},
		{"unknown id", Ref{Workflow: "wf_zzz"}, "", handoff.ENOTFOUND},
		{"an id does not fall back to the directory", Ref{Workflow: "wf_zzz", Dir: proj}, "", handoff.ENOTFOUND},
		{"session id", Ref{SessionID: "sess-42", Dir: proj}, "sess-42", ""},
		{"unknown session falls back to the directory", Ref{SessionID: "sess-new", Dir: proj}, "wf_aaa111", ""},
		{"directory below a workflow's", Ref{Dir: filepath.Join(proj, "cmd", "api")}, "wf_aaa111", ""},
		{"directory with none", Ref{Dir: filepath.Join(root, "nothing")}, "", handoff.ENOTFOUND},
		{"unknown session, no directory", Ref{SessionID: "sess-new"}, "", handoff.ENOTFOUND},
		{"nothing given", Ref{}, "", handoff.EINVALID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wf, err := Resolve(context.Background(), s, tt.ref)
			if tt.wantCode != "" {
				if handoff.ErrorCode(err) != tt.wantCode {
					t.Fatalf("got %v, %v; want code %s", wf, err, tt.wantCode)
				}
				return
			}
			if err != nil || wf.ID != tt.want {
				t.Fatalf("got %v, %v; want %s", wf, err, tt.want)
			}
		})
	}
}

func TestWorkflowFor(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	open, done := filepath.Join(root, "open"), filepath.Join(root, "done")
	s := seed(t, map[string]string{"wf_open": open, "wf_done": done, "sess-known": filepath.Join(root, "known")})
	if err := s.SetWorkflowStatus(ctx, "wf_done", handoff.WorkflowCompleted, "shipped"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		sess handoff.SessionInfo
		dir  string
		want string
	}{
		{"session id of a stored workflow", handoff.SessionInfo{ID: "sess-known", CWD: open}, "", "sess-known"},
		{"open workflow of the session's directory", handoff.SessionInfo{ID: "sess-new", CWD: open}, "", "wf_open"},
		{"dir overrides the session's directory", handoff.SessionInfo{ID: "sess-new", CWD: done}, open, "wf_open"},
		{"a finished workflow is not continued", handoff.SessionInfo{ID: "sess-new", CWD: done}, "", "sess-new"},
		{"nothing found: the default id", handoff.SessionInfo{ID: "sess-new", CWD: filepath.Join(root, "x")}, "", "sess-new"},
	}
	for _, tt := range tests {
		got, err := WorkflowFor(ctx, s, &handoff.Transcript{Session: tt.sess}, tt.dir)
		if err != nil || got != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}

func TestSnapshotFor(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	s := seed(t, map[string]string{"wf_one": filepath.Join(root, "one"), "wf_two": filepath.Join(root, "two")})
	second := &handoff.Snapshot{WorkflowID: "wf_one", Trigger: handoff.TriggerPause, Goal: "later"}
	if err := s.SaveSnapshot(ctx, second, store.WorkflowInfo{}); err != nil {
		t.Fatal(err)
	}
	two, err := s.LatestSnapshot(ctx, "wf_two")
	if err != nil {
		t.Fatal(err)
	}
	got, err := SnapshotFor(ctx, s, "", Ref{Dir: filepath.Join(root, "one")})
	if err != nil || got.ID != second.ID {
		t.Errorf("latest of the directory's workflow: %v, %v; want %s", got, err, second.ID)
	}
	if got, err = SnapshotFor(ctx, s, two.ID[:10], Ref{Workflow: "wf_tw"}); err != nil || got.ID != two.ID {
		t.Errorf("snapshot prefix within a workflow prefix: %v, %v", got, err)
	}
	if _, err = SnapshotFor(ctx, s, two.ID, Ref{Workflow: "wf_one"}); handoff.ErrorCode(err) != handoff.EINVALID {
		t.Errorf("another workflow's snapshot: %v, want EINVALID", err)
	}
}

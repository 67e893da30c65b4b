package session

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
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
		{"unique prefix without wf_", Ref{Workflow: "aab"}, "wf_aab222", ""},
		{"ambiguous prefix", Ref{Workflow: "wf_aa"}, "", handoff.EINVALID},
		{"ambiguous prefix without wf_", Ref{Workflow: "aa"}, "", handoff.EINVALID},
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

func TestResolveSnapshot(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	save := func(id, wf string) {
		t.Helper()
		snap := &handoff.Snapshot{ID: id, WorkflowID: wf, Trigger: handoff.TriggerManual, Goal: id}
		if err := s.SaveSnapshot(ctx, snap, store.WorkflowInfo{Name: wf}); err != nil {
			t.Fatal(err)
		}
	}
	save("snap_k7m2aaaaaaaa", "wf_one111111111")
	save("snap_k7m2bbbbbbbb", "wf_one111111111") // the latest of wf_one
	save("snap_q9zzcccccccc", "7f3c2a1e-5b6d-4c3b-9a8f-000000000001")
	save("snap_7f3cdddddddd", "wf_two222222222") // clashes with the workflow 7f3c…
	tests := []struct {
		ref      string
		want     string // snapshot id
		wantCode string
		cands    []string // snapshots, then workflows
	}{
		{"snap_k7m2aaaaaaaa", "snap_k7m2aaaaaaaa", "", nil},
		{"snap_k7m2a", "snap_k7m2aaaaaaaa", "", nil},
		{"k7m2b", "snap_k7m2bbbbbbbb", "", nil},
		{"wf_one111111111", "snap_k7m2bbbbbbbb", "", nil}, // a workflow: its latest
		{"one1", "snap_k7m2bbbbbbbb", "", nil},
		{"wf_tw", "snap_7f3cdddddddd", "", nil},
		{"7f3c2a1e", "snap_q9zzcccccccc", "", nil},
		{"k7m2", "", handoff.EINVALID, []string{"snap_k7m2aaaaaaaa", "snap_k7m2bbbbbbbb"}},
		{"7f3c", "", handoff.EINVALID, []string{"snap_7f3cdddddddd", "7f3c2a1e-5b6d-4c3b-9a8f-000000000001"}},
		{"zzzz", "", handoff.ENOTFOUND, nil},
		{"", "", handoff.EINVALID, nil},
	}
	for _, tt := range tests {
		got, err := ResolveSnapshot(ctx, s, tt.ref)
		if tt.wantCode != "" {
			if handoff.ErrorCode(err) != tt.wantCode {
				t.Errorf("%q: %v, %v; want code %s", tt.ref, got, err, tt.wantCode)
			}
			if tt.cands != nil {
				amb, ok := errors.AsType[*AmbiguousError](err)
				if !ok || !slices.Equal(append(amb.Snapshots, amb.Workflows...), tt.cands) {
					t.Errorf("%q: candidates of %v; want %v", tt.ref, err, tt.cands)
				}
			}
			continue
		}
		if err != nil || got.ID != tt.want {
			t.Errorf("%q: %v, %v; want %s", tt.ref, got, err, tt.want)
		}
	}
	// A workflow reference that is a snapshot's names its workflow.
	if wf, err := Resolve(ctx, s, Ref{Workflow: "snap_q9zz"}); err != nil || wf.ID != "7f3c2a1e-5b6d-4c3b-9a8f-000000000001" {
		t.Errorf("workflow of a snapshot ref: %v, %v", wf, err)
	}
}

func TestTargetWorkflow(t *testing.T) {
	ctx := context.Background()
	s := seed(t, map[string]string{"wf_aaa111": t.TempDir()})
	tests := []struct {
		ref      string
		create   bool
		want     string
		wantCode string
	}{
		{"wf_aaa111", false, "wf_aaa111", ""},
		{"aaa", false, "wf_aaa111", ""},
		{"wf_new", false, "", handoff.ENOTFOUND}, // never created silently
		{"wf_new", true, "wf_new", ""},
		{"wf_aaa111", true, "", handoff.ECONFLICT},
		{"", true, "", handoff.EINVALID},
	}
	for _, tt := range tests {
		got, err := TargetWorkflow(ctx, s, tt.ref, tt.create)
		if handoff.ErrorCode(err) != tt.wantCode || got != tt.want {
			t.Errorf("TargetWorkflow(%q, %t) = %q, %v; want %q, code %q", tt.ref, tt.create, got, err, tt.want, tt.wantCode)
		}
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

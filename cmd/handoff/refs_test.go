package main

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// Seeded ids for TestReferences: two workflows sharing the prefix k7m2,
// two snapshots of the first sharing q4xw, one snapshot of the second.
const (
	refWorkflowA = "wf_k7m2aa0000001"
	refWorkflowB = "wf_k7m2bb0000002"
	refSnapOld   = "snap_q4xw11111111"
	refSnapNew   = "snap_q4xw22222222" // the latest of refWorkflowA
	refSnapB     = "snap_h8rt33333333"
)

// refsDB stores the seeded snapshots directly (no transcript to compile),
// each with a decision and an error so the record listings have rows.
func refsDB(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "h.db")
	s, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, sn := range []struct{ id, wf string }{{refSnapOld, refWorkflowA}, {refSnapNew, refWorkflowA}, {refSnapB, refWorkflowB}} {
		snap := &handoff.Snapshot{
			ID: sn.id, WorkflowID: sn.wf, Trigger: handoff.TriggerManual, Goal: "goal of " + sn.id,
			CreatedAt: time.Date(2026, 1, 2, 3, 4, i, 0, time.UTC),
			Decisions: []handoff.Decision{{ID: "d1", Type: handoff.DecisionApproach, Description: "use a token bucket"}},
			Errors:    []handoff.ErrorRecord{{ID: "e1", Type: "build", Message: "undefined: limiter", Resolution: handoff.ResolutionUnresolved}},
		}
		if err := s.SaveSnapshot(ctx, snap, store.WorkflowInfo{Name: sn.wf, Dir: t.TempDir(), Session: "id:" + sn.id}); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// copyDB copies the closed SQLite database src (with its -wal and -shm
// files, when they are left) into a fresh temporary directory: one
// seeded database per case without creating and migrating each one.
func copyDB(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	for _, suffix := range []string{"", "-wal", "-shm"} {
		raw, err := os.ReadFile(src + suffix)
		if suffix != "" && errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst+suffix, raw, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// TestReferences drives every command that takes a snapshot or workflow
// reference through the resolver: a whole id, a prefix, a prefix without
// "snap_"/"wf_" (exit 0), an ambiguous prefix (exit 2, the candidates
// listed) and an unknown one (exit 3). --workflow of the commands that
// file a snapshot never creates a workflow; --new-workflow does.
func TestReferences(t *testing.T) {
	t.Parallel()
	sample := readFile(t, sampleTranscript)
	watched := filepath.Join(t.TempDir(), "session.jsonl")
	if err := os.WriteFile(watched, []byte(sample), 0o644); err != nil {
		t.Fatal(err)
	}

	seeded := refsDB(t) // copied for each case, which may change it
	snapRefs := map[string]string{"full": refSnapB, "prefix": "snap_h8r", "bare": "h8r", "ambiguous": "q4xw", "unknown": "zzzz"}
	wfRefs := map[string]string{"full": refWorkflowB, "prefix": "wf_k7m2b", "bare": "k7m2b", "ambiguous": "k7m2", "unknown": "zzzz"}
	commands := []struct {
		name  string
		refs  map[string]string
		args  func(ref string) []string
		stdin string
		// want is in stdout on success (a whole id the reference resolved to).
		want string
	}{
		{"show", snapRefs, func(r string) []string { return []string{"show", r, "--json"} }, "", refSnapB},
		{"show workflow", wfRefs, func(r string) []string { return []string{"show", r, "--json"} }, "", refSnapB},
		{"diff", snapRefs, func(r string) []string { return []string{"diff", r, refSnapB, "--json"} }, "", refSnapB},
		{"diff second", snapRefs, func(r string) []string { return []string{"diff", refSnapOld, r, "--json"} }, "", refSnapB},
		{"fork", snapRefs, func(r string) []string { return []string{"fork", r, "--json"} }, "", "forked from " + refSnapB},
		{"resume --snapshot", snapRefs, func(r string) []string { return []string{"resume", "--snapshot", r, "--force", "--format", "json"} }, "", refSnapB},
		{"resume --workflow", wfRefs, func(r string) []string { return []string{"resume", "--workflow", r, "--force", "--format", "json"} }, "", refSnapB},
		{"pause --workflow", wfRefs, func(r string) []string { return []string{"pause", "--workflow", r, "--no-git", "--json"} }, sample, refWorkflowB},
		{"compile --workflow", wfRefs, func(r string) []string { return []string{"compile", "--workflow", r, "--no-git", "--json"} }, sample, refWorkflowB},
		{"status --set --workflow", wfRefs, func(r string) []string { return []string{"status", "--set", "blocked", "--workflow", r} }, "", refWorkflowB},
		{"status --events --workflow", wfRefs, func(r string) []string { return []string{"status", "--events", "--workflow", r, "--json"} }, "", refWorkflowB},
		{"list --workflow", wfRefs, func(r string) []string { return []string{"list", "--workflow", r, "--json"} }, "", refSnapB},
		{"decisions --workflow", wfRefs, func(r string) []string { return []string{"decisions", "--workflow", r, "--json"} }, "", refWorkflowB},
		{"errors --workflow", wfRefs, func(r string) []string { return []string{"errors", "--workflow", r, "--json"} }, "", refWorkflowB},
		{"watch --workflow", wfRefs, func(r string) []string { return []string{"watch", watched, "--workflow", r, "--no-git", "-q"} }, "", ""},
	}
	kinds := []struct {
		kind string
		code int
		say  string // in stderr on failure
	}{
		{"full", exitOK, ""},
		{"prefix", exitOK, ""},
		{"bare", exitOK, ""},
		{"ambiguous", exitInvalid, "ambiguous"},
		{"unknown", exitNotFound, "no "},
	}
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, k := range kinds {
				db := copyDB(t, seeded)
				ctx := context.Background()
				if c.name == "watch --workflow" && k.code == exitOK {
					// A watch that started runs until stopped: stop it.
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, 300*time.Millisecond)
					defer cancel()
				}
				ref := c.refs[k.kind]
				r := runEnv(ctx, t, db, nil, c.stdin, c.args(ref)...)
				if got := exitCode(r.err); got != k.code {
					t.Errorf("%s (%s %q): exit %d, want %d\n%s", c.name, k.kind, ref, got, k.code, r.stderr)
					continue
				}
				if k.code != exitOK {
					if !strings.Contains(r.stderr, k.say) || !strings.Contains(r.stderr, ref) {
						t.Errorf("%s (%s %q): stderr lacks %q:\n%s", c.name, k.kind, ref, k.say, r.stderr)
					}
					if k.kind == "ambiguous" {
						wantCandidates(t, c.name, r.stderr, c.refs["ambiguous"])
					}
					continue
				}
				if !strings.Contains(r.stdout, c.want) {
					t.Errorf("%s (%s %q): stdout lacks %s:\n%s", c.name, k.kind, ref, c.want, r.stdout)
				}
			}
		})
	}
}

// wantCandidates checks that an ambiguity error lists what the prefix
// matched.
func wantCandidates(t *testing.T, name, stderr, ref string) {
	t.Helper()
	want := []string{refSnapOld, refSnapNew}
	if ref == "k7m2" {
		want = []string{refWorkflowA, refWorkflowB}
	}
	for _, id := range want {
		if !strings.Contains(stderr, id) {
			t.Errorf("%s: the ambiguity does not list %s:\n%s", name, id, stderr)
		}
	}
}

// TestNewWorkflowFlag: only --new-workflow starts a workflow, and not one
// whose id is taken.
func TestNewWorkflowFlag(t *testing.T) {
	t.Parallel()
	sample := readFile(t, sampleTranscript)
	db := refsDB(t)
	r := mustRun(t, db, sample, "pause", "--new-workflow", "wf_fresh", "--no-git", "--json")
	if !strings.Contains(r.stdout, `"workflow_id": "wf_fresh"`) {
		t.Errorf("pause --new-workflow filed elsewhere:\n%s", r.stdout)
	}
	wantExit(t, runCLI(t, db, sample, "pause", "--new-workflow", refWorkflowA, "--no-git"), exitConflict, "exists already")
	wantExit(t, runCLI(t, db, sample, "pause", "--workflow", "d7d3", "--no-git"), exitNotFound, "--new-workflow d7d3")
	wantExit(t, runCLI(t, db, sample, "compile", "--workflow", "a", "--new-workflow", "b"), exitInvalid, "do not go together")
	if n := len(strings.Split(strings.TrimSpace(mustRun(t, db, "", "status").stdout), "\n")); n != 1+3 {
		t.Errorf("status lists %d lines, want a header and 3 workflows (no silent new one)", n)
	}
}

package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// sampleCWD is the working directory the sample transcript records.
const sampleCWD = "/home/dev/ratelimit-api"

// sampleWorkflow is the sample transcript's session id, its default workflow.
const sampleWorkflow = "7f3c2a1e-5b6d-4e8f-9a0b-1c2d3e4f5a6b"

func gitCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// sessionInRepo makes a git repository with one commit and returns it with
// the sample transcript rewritten to have run in it.
func sessionInRepo(t *testing.T) (repo, transcript string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo = t.TempDir()
	gitCmd(t, repo, "init", "-q", "-b", "feat/rate-limit")
	if err := os.WriteFile(filepath.Join(repo, "limiter.go"), []byte("package limiter\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitCmd(t, repo, "add", ".")
	gitCmd(t, repo, "commit", "-q", "-m", "start")
	return repo, strings.ReplaceAll(readFile(t, sampleTranscript), sampleCWD, repo)
}

// mustRun runs the CLI and fails the test on an error.
func mustRun(t *testing.T, db, stdin string, args ...string) result {
	t.Helper()
	r := runCLI(t, db, stdin, args...)
	if r.err != nil {
		t.Fatalf("handoff %s: %v\nstderr: %s", strings.Join(args, " "), r.err, r.stderr)
	}
	return r
}

// wantExit fails unless r failed with exit code code and stderr saying want.
func wantExit(t *testing.T, r result, code int, want string) {
	t.Helper()
	if r.err == nil {
		t.Fatalf("succeeded, want exit %d\nstdout: %s", code, r.stdout)
	}
	if got := exitCode(r.err); got != code {
		t.Errorf("exit code = %d, want %d (err: %v)", got, code, r.err)
	}
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}
}

// workflowState reads one workflow and its events straight from the store.
func workflowState(t *testing.T, db, id string) (*handoff.Workflow, []handoff.EventType) {
	t.Helper()
	s, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	wf, err := s.Workflow(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	events, err := s.Events(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var types []handoff.EventType
	for _, e := range events {
		types = append(types, e.Type)
	}
	return wf, types
}

func TestPauseStatusResume(t *testing.T) {
	t.Parallel()
	repo, session := sessionInRepo(t)
	db := filepath.Join(t.TempDir(), "h.db")

	p := mustRun(t, db, session, "pause", "--reason", "end of day")
	snapID := strings.TrimSpace(p.stdout)
	if !strings.HasPrefix(snapID, "snap_") {
		t.Fatalf("pause printed %q, want the snapshot id", p.stdout)
	}
	wf, events := workflowState(t, db, sampleWorkflow)
	if wf.Status != handoff.WorkflowPaused || wf.PauseReason != "end of day" || wf.SessionCount != 1 || wf.Dir != repo {
		t.Errorf("after pause: %+v", wf)
	}
	if want := []handoff.EventType{handoff.EventWorkflowCreated, handoff.EventSnapshotCreated, handoff.EventWorkflowPaused}; !equalEvents(events, want) {
		t.Errorf("events = %v, want %v", events, want)
	}

	// status: the table and the JSON agree.
	st := mustRun(t, db, "", "status")
	for _, want := range []string{sampleWorkflow, "paused (end of day)", snapID, "pause"} {
		if !strings.Contains(st.stdout, want) {
			t.Errorf("status lacks %q:\n%s", want, st.stdout)
		}
	}
	var ov []store.WorkflowOverview
	if err := json.Unmarshal([]byte(mustRun(t, db, "", "status", "--json").stdout), &ov); err != nil {
		t.Fatal(err)
	}
	if len(ov) != 1 || ov[0].Latest == nil || ov[0].Latest.ID != snapID || ov[0].Latest.Utilization <= 0 {
		t.Errorf("status --json = %+v", ov)
	}

	// show --git: the snapshot recorded the repository.
	g := mustRun(t, db, "", "show", snapID, "--git")
	if !strings.Contains(g.stdout, "branch: feat/rate-limit") {
		t.Errorf("show --git:\n%s", g.stdout)
	}

	// resume with no flag finds the workflow from a subdirectory.
	sub := filepath.Join(repo, "internal")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, db, "", "resume", "--dir", sub)
	if !strings.Contains(r.stdout, "TestRateLimitBurst") || !strings.Contains(r.stdout, snapID) {
		t.Errorf("resume prompt lacks the failing test or the snapshot id:\n%s", r.stdout)
	}
	if strings.Contains(r.stderr, "warning") {
		t.Errorf("unexpected warning on an unchanged tree:\n%s", r.stderr)
	}
	wf, events = workflowState(t, db, sampleWorkflow)
	if wf.Status != handoff.WorkflowInProgress || wf.SessionCount != 2 {
		t.Errorf("after resume: %+v", wf)
	}
	if events[len(events)-1] != handoff.EventWorkflowResumed {
		t.Errorf("last event = %s, want WORKFLOW_RESUMED", events[len(events)-1])
	}

	// The next agent session (another session id, same directory) pauses
	// as session 2 of the same workflow.
	next := strings.ReplaceAll(session, sampleWorkflow, "next-agent-session")
	p2 := mustRun(t, db, next, "pause", "--json")
	var snap2 handoff.Snapshot
	if err := json.Unmarshal([]byte(p2.stdout), &snap2); err != nil {
		t.Fatal(err)
	}
	if snap2.SessionNumber != 2 || snap2.WorkflowID != sampleWorkflow || snap2.Trigger != handoff.TriggerPause {
		t.Errorf("second pause = workflow %s session %d trigger %s", snap2.WorkflowID, snap2.SessionNumber, snap2.Trigger)
	}
}

func equalEvents(a, b []handoff.EventType) bool {
	return strings.Join(eventStrings(a), ",") == strings.Join(eventStrings(b), ",")
}

func eventStrings(in []handoff.EventType) []string {
	var out []string
	for _, e := range in {
		out = append(out, string(e))
	}
	return out
}

func TestResumeDivergence(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	tests := []struct {
		name    string
		change  func(t *testing.T, repo string)
		code    int    // 0: resumes
		stderr  string // expected on stderr
		forceOK bool
	}{
		{
			name: "moved ahead: warns, resumes",
			change: func(t *testing.T, repo string) {
				os.WriteFile(filepath.Join(repo, "limiter.go"), []byte("package limiter // more\n"), 0o644)
				gitCmd(t, repo, "commit", "-q", "-am", "more")
			},
			stderr: "HEAD moved 1 commit(s) ahead",
		},
		{
			name:    "another branch: refuses",
			change:  func(t *testing.T, repo string) { gitCmd(t, repo, "checkout", "-q", "-b", "other") },
			code:    exitConflict,
			stderr:  "taken on branch feat/rate-limit, the working tree is on other",
			forceOK: true,
		},
		{
			name:    "history rewritten: refuses",
			change:  func(t *testing.T, repo string) { gitCmd(t, repo, "commit", "-q", "--amend", "-m", "rewritten") },
			code:    exitConflict,
			stderr:  "does not descend",
			forceOK: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo, session := sessionInRepo(t)
			db := filepath.Join(t.TempDir(), "h.db")
			mustRun(t, db, session, "pause")
			tt.change(t, repo)
			r := runCLI(t, db, "", "resume", "--dir", repo)
			if tt.code == 0 {
				if r.err != nil || !strings.Contains(r.stderr, tt.stderr) {
					t.Fatalf("resume: %v\n%s", r.err, r.stderr)
				}
				return
			}
			wantExit(t, r, tt.code, tt.stderr)
			if !strings.Contains(r.stderr, "--force") || r.stdout != "" {
				t.Errorf("refusal: stdout %q, stderr %q", r.stdout, r.stderr)
			}
			if wf, _ := workflowState(t, db, sampleWorkflow); wf.Status != handoff.WorkflowPaused || wf.SessionCount != 1 {
				t.Errorf("refused resume changed the workflow: %+v", wf)
			}
			if tt.forceOK {
				f := mustRun(t, db, "", "resume", "--dir", repo, "--force")
				if f.stdout == "" || !strings.Contains(f.stderr, "resuming anyway") {
					t.Errorf("--force: stdout %d bytes, stderr %s", len(f.stdout), f.stderr)
				}
			}
		})
	}
}

func TestResumeMarkdownOut(t *testing.T) {
	t.Parallel()
	repo, session := sessionInRepo(t)
	db := filepath.Join(t.TempDir(), "h.db")
	snapID := strings.TrimSpace(mustRun(t, db, session, "pause").stdout)
	outDir := t.TempDir()
	out := filepath.Join(outDir, "_resume.md")
	if err := os.WriteFile(out, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, db, "", "resume", "--dir", repo, "--format", "resume-md", "--out", out)
	if r.stdout != "" {
		t.Errorf("stdout not empty with --out: %q", r.stdout)
	}
	doc := readFile(t, out)
	for _, want := range []string{"---\nhandoff_resume: 1\n", `snapshot_id: "` + snapID + `"`, `git_branch: "feat/rate-limit"`, "\n---\n\n# "} {
		if !strings.Contains(doc, want) {
			t.Errorf("_resume.md lacks %q:\n%s", want, doc)
		}
	}
	entries, _ := os.ReadDir(outDir)
	if len(entries) != 1 {
		t.Errorf("temp files left beside the output: %v", entries)
	}

	// A refused resume leaves the old file and no temp file.
	if err := os.WriteFile(out, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, db, "", "status", "--workflow", sampleWorkflow, "--set", "completed", "--reason", "merged")
	wantExit(t, runCLI(t, db, "", "resume", "--dir", repo, "--format", "resume-md", "--out", out), exitConflict, "cannot become in_progress")
	if got := readFile(t, out); got != "old" {
		t.Errorf("refused resume changed the output file: %q", got)
	}
	if entries, _ := os.ReadDir(outDir); len(entries) != 1 {
		t.Errorf("temp files left after a refused resume: %v", entries)
	}
}

func TestLifecycleRefusals(t *testing.T) {
	t.Parallel()
	repo, session := sessionInRepo(t)
	db := filepath.Join(t.TempDir(), "h.db")
	empty := filepath.Join(t.TempDir(), "empty.db")

	wantExit(t, runCLI(t, empty, "", "resume", "--dir", repo), exitNotFound, "no workflow for")
	wantExit(t, runCLI(t, empty, "", "resume", "--format", "pdf"), exitInvalid, "unknown --format")
	wantExit(t, runCLI(t, empty, "", "status", "--set", "sleeping", "--workflow", "x"), exitInvalid, "not a status")
	wantExit(t, runCLI(t, empty, "", "status", "--reason", "why"), exitInvalid, "goes with --set")

	mustRun(t, db, session, "pause")
	mustRun(t, db, "", "status", "--dir", repo, "--set", "cancelled", "--reason", "dropped")
	// A cancelled workflow cannot be paused again: nothing is stored.
	wantExit(t, runCLI(t, db, session, "pause"), exitConflict, "cannot become paused")
	wf, events := workflowState(t, db, sampleWorkflow)
	if wf.SessionCount != 1 || len(events) != 4 {
		t.Errorf("refused pause stored something: %+v, events %v", wf, events)
	}
	wantExit(t, runCLI(t, db, "", "resume", "--workflow", sampleWorkflow), exitConflict, "cancelled and cannot become in_progress")
	wantExit(t, runCLI(t, db, "", "status", "--workflow", sampleWorkflow, "--set", "in_progress"), exitConflict, "cannot become")
	wantExit(t, runCLI(t, db, "", "resume", "--snapshot", "snap_nope"), exitNotFound, "no snapshot")
}

// TestResumeFromWorkingDirectory resolves the workflow from the process's
// current directory, as a person typing `handoff resume` would.
func TestResumeFromWorkingDirectory(t *testing.T) {
	repo, session := sessionInRepo(t)
	db := filepath.Join(t.TempDir(), "h.db")
	mustRun(t, db, session, "pause")
	t.Chdir(repo)
	r := mustRun(t, db, "", "resume")
	if !strings.Contains(r.stderr, "resumed workflow "+sampleWorkflow) {
		t.Errorf("stderr: %s", r.stderr)
	}
}

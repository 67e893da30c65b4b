package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/history"
	"github.com/handoff-cli/handoff/store"
)

// pausedSample stores the sample session as a paused workflow (no git) and
// returns the database and the snapshot.
func pausedSample(t *testing.T) (string, handoff.Snapshot) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "h.db")
	var snap handoff.Snapshot
	out := mustRun(t, db, readFile(t, sampleTranscript), "pause", "--no-git", "--json").stdout
	if err := json.Unmarshal([]byte(out), &snap); err != nil {
		t.Fatal(err)
	}
	return db, snap
}

func TestForkDiffResume(t *testing.T) {
	t.Parallel()
	db, src := pausedSample(t)
	var pending handoff.Task // a task other than the recorded next one
	for _, task := range src.Tasks {
		if task.ID != src.NextTaskID && task.ID != src.CurrentTaskID {
			pending = task
		}
	}
	if pending.ID == "" {
		t.Fatal("sample has no other task")
	}

	f := mustRun(t, db, "", "fork", src.ID[:8], "--set", "next_task="+pending.ID, "--set", "goal=try a token bucket in Redis",
		"--note", "second approach", "--workflow", "wf_alt", "--json")
	var cp handoff.Snapshot
	if err := json.Unmarshal([]byte(f.stdout), &cp); err != nil {
		t.Fatal(err)
	}
	if cp.WorkflowID != "wf_alt" || cp.SessionNumber != 1 || cp.NextTaskID != pending.ID || cp.Goal != "try a token bucket in Redis" || cp.ID == src.ID {
		t.Errorf("fork = workflow %s session %d next %s goal %q id %s", cp.WorkflowID, cp.SessionNumber, cp.NextTaskID, cp.Goal, cp.ID)
	}
	wf, events := workflowState(t, db, "wf_alt")
	if wf.Status != handoff.WorkflowPaused || !strings.Contains(wf.Name, "fork of") {
		t.Errorf("forked workflow = %+v", wf)
	}
	if !strings.Contains(strings.Join(eventStrings(events), ","), string(handoff.EventWorkflowForked)) {
		t.Errorf("no WORKFLOW_FORKED event: %v", events)
	}
	// The source is unchanged.
	var again handoff.Snapshot
	if err := json.Unmarshal([]byte(mustRun(t, db, "", "show", src.ID, "--json").stdout), &again); err != nil {
		t.Fatal(err)
	}
	if again.Goal != src.Goal || again.NextTaskID != src.NextTaskID {
		t.Error("fork changed the source snapshot")
	}

	// diff: text and JSON name the changed goal.
	d := mustRun(t, db, "", "diff", src.ID, cp.ID)
	if !strings.Contains(d.stdout, "goal: ") || !strings.Contains(d.stdout, "try a token bucket in Redis") {
		t.Errorf("diff text:\n%s", d.stdout)
	}
	var dj history.Diff
	if err := json.Unmarshal([]byte(mustRun(t, db, "", "diff", src.ID, cp.ID, "--json").stdout), &dj); err != nil {
		t.Fatal(err)
	}
	if dj.From.ID != src.ID || dj.To.ID != cp.ID || dj.Goal.To != cp.Goal || len(dj.ErrorsNew) != 0 {
		t.Errorf("diff json = %+v", dj)
	}
	// One argument: against the latest of its own workflow (itself here).
	if one := mustRun(t, db, "", "diff", src.ID); !strings.Contains(one.stdout, "no changes") {
		t.Errorf("diff against itself:\n%s", one.stdout)
	}

	// The fork resumes like any paused workflow.
	r := mustRun(t, db, "", "resume", "--workflow", "wf_alt")
	if !strings.Contains(r.stdout, "token bucket in Redis") {
		t.Errorf("resumed fork prompt lacks the new goal:\n%s", r.stdout)
	}

	// Refusals.
	wantExit(t, runCLI(t, db, "", "fork", src.ID, "--workflow", "wf_alt"), exitConflict, "already exists")
	wantExit(t, runCLI(t, db, "", "fork", src.ID, "--set", "colour=blue"), exitInvalid, "unknown key")
	wantExit(t, runCLI(t, db, "", "fork", src.ID, "--set", "goal"), exitInvalid, "want key=value")
	wantExit(t, runCLI(t, db, "", "fork", src.ID, "--set", "next_task=no such task anywhere"), exitInvalid, "no task")
	wantExit(t, runCLI(t, db, "", "fork", "snap_missing"), exitNotFound, "no snapshot")
	wantExit(t, runCLI(t, db, "", "diff", src.ID, "snap_missing"), exitNotFound, "no snapshot")
}

func TestForkRedactsSetValues(t *testing.T) {
	t.Parallel()
	db, src := pausedSample(t)
	key := "sk-proj-" + strings.Repeat("A1b2C3d4", 6)
	f := mustRun(t, db, "", "fork", src.ID, "--set", "next_step=use key "+key, "--note", "token "+key, "--json")
	if strings.Contains(f.stdout, key) {
		t.Error("forked snapshot stores the secret")
	}
	out := mustRun(t, db, "", "status", "--json").stdout
	if strings.Contains(out, key) {
		t.Error("workflow listing shows the secret")
	}
}

func TestShowGitAndTests(t *testing.T) {
	t.Parallel()
	db, src := pausedSample(t)
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"--tests"}, []string{"command: go test ./...", "status: failing", "failing\tTestRateLimitBurst"}},
		{[]string{"--git"}, []string{"no git state recorded"}},
		{[]string{"--git", "--json"}, []string{"null"}},
	}
	for _, tt := range tests {
		r := mustRun(t, db, "", append([]string{"show", src.ID}, tt.args...)...)
		for _, w := range tt.want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("show %v lacks %q:\n%s", tt.args, w, r.stdout)
			}
		}
	}
	var ts handoff.TestState
	if err := json.Unmarshal([]byte(mustRun(t, db, "", "show", src.ID, "--tests", "--json").stdout), &ts); err != nil || ts.Status != handoff.TestsFailing {
		t.Errorf("show --tests --json = %+v, %v", ts, err)
	}
}

func TestGCCommand(t *testing.T) {
	t.Parallel()
	db, src := pausedSample(t)
	// A second, open workflow that must survive.
	mustRun(t, db, "", "fork", src.ID, "--workflow", "wf_open")

	// Finished but recent: an age of 7 days keeps it.
	mustRun(t, db, "", "status", "--workflow", src.WorkflowID, "--set", "completed")
	if r := mustRun(t, db, "", "gc", "--older-than", "7d", "--json"); strings.TrimSpace(r.stdout) != "[]" {
		t.Errorf("gc 7d removed something: %s", r.stdout)
	}
	dry := mustRun(t, db, "", "gc", "--older-than", "0s", "--dry-run")
	if !strings.Contains(dry.stdout, src.WorkflowID) || !strings.Contains(dry.stderr, "would remove 1 workflow(s), 1 snapshot(s)") {
		t.Errorf("dry run: %s / %s", dry.stdout, dry.stderr)
	}
	var removed []store.GCCandidate
	if err := json.Unmarshal([]byte(mustRun(t, db, "", "gc", "--older-than", "0s", "--json").stdout), &removed); err != nil {
		t.Fatal(err)
	}
	if len(removed) != 1 || removed[0].ID != src.WorkflowID {
		t.Errorf("gc removed %+v", removed)
	}
	wantExit(t, runCLI(t, db, "", "show", src.ID), exitNotFound, "no snapshot")
	var kept handoff.Snapshot
	if err := json.Unmarshal([]byte(mustRun(t, db, "", "resume", "--workflow", "wf_open", "--format", "json").stdout), &kept); err != nil || kept.WorkflowID != "wf_open" {
		t.Errorf("the open workflow lost its snapshot: %+v, %v", kept, err)
	}
	wantExit(t, runCLI(t, db, "", "gc", "--older-than", "soon"), exitInvalid, "--older-than")
	wantExit(t, runCLI(t, db, "", "gc", "--older-than", "-3d"), exitInvalid, "--older-than")
}

func TestParseAge(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"7d", "168h0m0s", true},
		{"2w", "336h0m0s", true},
		{"36h", "36h0m0s", true},
		{"0d", "0s", true},
		{"d", "", false},
		{"1.5d", "", false},
		{"-1h", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, err := parseAge(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got.String() != tt.want) {
			t.Errorf("parseAge(%q) = %v, %v; want %s ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestShowPromptResumeMarkdown(t *testing.T) {
	t.Parallel()
	db, src := pausedSample(t)
	out := filepath.Join(t.TempDir(), "_resume.md")
	r := mustRun(t, db, "", "show", src.ID, "--prompt", "--format", "resume-md", "--out", out)
	if r.stdout != "" {
		t.Errorf("stdout with --out: %q", r.stdout)
	}
	if doc := readFile(t, out); !strings.HasPrefix(doc, "---\nhandoff_resume: 1\n") || !strings.Contains(doc, `snapshot_id: "`+src.ID+`"`) {
		t.Errorf("_resume.md:\n%s", doc)
	}
	// show never changes the workflow.
	if wf, _ := workflowState(t, db, src.WorkflowID); wf.Status != handoff.WorkflowPaused {
		t.Errorf("show changed the workflow: %+v", wf)
	}
	wantExit(t, runCLI(t, db, "", "show", src.ID, "--out", out), exitInvalid, "go with --prompt")
	wantExit(t, runCLI(t, db, "", "show", src.ID, "--prompt", "--format", "html"), exitInvalid, "unknown --format")
}

func TestStatusEvents(t *testing.T) {
	t.Parallel()
	db, src := pausedSample(t)
	mustRun(t, db, "", "resume", "--workflow", src.WorkflowID)
	r := mustRun(t, db, "", "status", "--events", "--workflow", src.WorkflowID)
	for _, want := range []string{"WORKFLOW_CREATED", "SNAPSHOT_CREATED", "WORKFLOW_PAUSED", "WORKFLOW_RESUMED", src.ID} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("events lack %q:\n%s", want, r.stdout)
		}
	}
	var events []handoff.Event
	if err := json.Unmarshal([]byte(mustRun(t, db, "", "status", "--events", "--json").stdout), &events); err != nil || len(events) != 4 {
		t.Errorf("status --events --json: %d events, %v", len(events), err)
	}
	wantExit(t, runCLI(t, db, "", "status", "--events", "--workflow", "nope"), exitNotFound, "no workflow")
	wantExit(t, runCLI(t, db, "", "status", "--workflow", "x"), exitInvalid, "goes with --set or --events")
}

// TestDamagedRowsSkipped damages one row of each table behind handoff's
// back: every listing still prints the rest and names what it skipped.
func TestDamagedRowsSkipped(t *testing.T) {
	t.Parallel()
	db, src := pausedSample(t)
	mustRun(t, db, "", "fork", src.ID, "--workflow", "wf_good")
	s, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"DROP TRIGGER session_snapshots_immutable",
		"UPDATE session_snapshots SET snapshot_json = '{broken' WHERE id = '" + src.ID + "'",
		"UPDATE workflow_events SET created_at = 1.5 WHERE workflow_id = 'wf_good' AND type = 'WORKFLOW_FORKED'",
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()
	s.Close()

	tests := []struct {
		args []string
		want string
	}{
		{[]string{"status"}, "wf_good"},
		{[]string{"status", "--events", "--workflow", "wf_good"}, "SNAPSHOT_CREATED"},
		{[]string{"list"}, "wf_good"},
	}
	for _, tt := range tests {
		r := mustRun(t, db, "", tt.args...)
		if !strings.Contains(r.stdout, tt.want) {
			t.Errorf("%v lost the good rows:\n%s", tt.args, r.stdout)
		}
		if !strings.Contains(r.stderr, "skipped a damaged") {
			t.Errorf("%v did not report the damaged row:\n%s", tt.args, r.stderr)
		}
	}
	wantExit(t, runCLI(t, db, "", "show", src.ID), exitCorrupt, "damaged")
}

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff/store"
)

// storedSessions opens db and returns its workflows' session counts and
// every snapshot's session number, by workflow.
func storedSessions(t *testing.T, db string) (counts map[string]int, numbers map[string][]int) {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	wfs, err := s.Workflows(ctx)
	if err != nil {
		t.Fatal(err)
	}
	counts, numbers = map[string]int{}, map[string][]int{}
	for _, w := range wfs {
		counts[w.ID] = w.SessionCount
	}
	list, _, err := s.ListSnapshots(ctx, store.ListFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for i := len(list) - 1; i >= 0; i-- {
		numbers[list[i].WorkflowID] = append(numbers[list[i].WorkflowID], list[i].SessionNumber)
	}
	return counts, numbers
}

var unchangedLine = regexp.MustCompile(`unchanged since (snap_[0-9a-z]+) \(workflow \S+, session 1\); nothing stored`)

// TestSessionsCompileUnchanged: three compiles of one transcript file are
// one session with one snapshot; the second and third say so on stderr
// and still print the same prompt. The transcript growing adds a snapshot
// to the same session; the same from standard input.
func TestSessionsCompileUnchanged(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	tr := filepath.Join(dir, "session.jsonl")
	body := readFile(t, sampleTranscript)
	if err := os.WriteFile(tr, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var prompts []string
	for i := range 3 {
		r := runCLI(t, db, "", "compile", "--no-git", tr)
		if r.err != nil {
			t.Fatalf("compile %d: %v\n%s", i+1, r.err, r.stderr)
		}
		prompts = append(prompts, r.stdout)
		m := unchangedLine.FindStringSubmatch(r.stderr)
		if i == 0 && m != nil {
			t.Fatalf("first compile says unchanged: %s", r.stderr)
		}
		if i > 0 && (m == nil || !strings.Contains(prompts[0], m[1])) {
			t.Fatalf("compile %d: status line does not say unchanged since the first snapshot:\n%s", i+1, r.stderr)
		}
	}
	if prompts[1] != prompts[0] || prompts[2] != prompts[0] || prompts[0] == "" {
		t.Fatal("an unchanged re-compile printed another prompt")
	}
	counts, numbers := storedSessions(t, db)
	if len(counts) != 1 || len(numbers) != 1 {
		t.Fatalf("workflows %v, snapshots %v; want one workflow", counts, numbers)
	}
	for wf, n := range numbers {
		if counts[wf] != 1 || len(n) != 1 || n[0] != 1 {
			t.Fatalf("three compiles: session count %d, snapshots in sessions %v; want 1 session, 1 snapshot", counts[wf], n)
		}
	}

	// The transcript grows: a second snapshot of session 1.
	lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
	grown := body + lines[len(lines)-1] + "\n" // the last record again, as a new line
	if err := os.WriteFile(tr, []byte(grown), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, db, "", "compile", "--no-git", tr)
	if r.err != nil || unchangedLine.MatchString(r.stderr) || !strings.Contains(r.stderr, "session 1)") {
		t.Fatalf("grown transcript: %v\n%s", r.err, r.stderr)
	}
	counts, numbers = storedSessions(t, db)
	for wf, n := range numbers {
		if counts[wf] != 1 || len(n) != 2 || n[0] != 1 || n[1] != 1 {
			t.Fatalf("grown: session count %d, snapshots in sessions %v; want two snapshots of session 1", counts[wf], n)
		}
	}

	// Standard input: the same content twice is unchanged too.
	db2 := filepath.Join(dir, "stdin.db")
	for i := range 2 {
		r := runCLI(t, db2, body, "--no-git")
		if r.err != nil {
			t.Fatalf("stdin compile %d: %v", i+1, r.err)
		}
		if (i == 1) != unchangedLine.MatchString(r.stderr) {
			t.Fatalf("stdin compile %d: %s", i+1, r.stderr)
		}
	}
}

// TestSessionsHookOneSession: a Claude session firing PreCompact, Stop,
// Stop on one transcript is one session of its workflow, and a session
// with another agent session id in the same workflow is session 2.
func TestSessionsHookOneSession(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	tr := filepath.Join(dir, "session.jsonl")
	body := readFile(t, sampleTranscript)
	if err := os.WriteFile(tr, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	hook := func(name, window string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		a := &app{stdin: strings.NewReader(payload(t, name, tr)), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
		if err := a.execute(context.Background(), []string{"--db", db, "hook", "claude", "--no-git", "--context-window", window}); err != nil {
			t.Fatalf("hook %s: %v\n%s", name, err, stderr.String())
		}
	}
	// 44,000 tokens puts the sample past the checkpoint, so the Stops
	// snapshot too.
	for _, name := range []string{"precompact_auto.json", "stop_active_false.json", "stop_active_false.json"} {
		hook(name, "44000")
	}
	counts, numbers := storedSessions(t, db)
	if len(numbers) != 1 {
		t.Fatalf("snapshots in %d workflows, want 1: %v", len(numbers), numbers)
	}
	for wf, n := range numbers {
		if counts[wf] != 1 || len(n) != 1 || n[0] != 1 {
			t.Fatalf("PreCompact, Stop, Stop: session count %d, snapshots in sessions %v; want one session, one snapshot", counts[wf], n)
		}
	}
	// The same workflow (the payload's session), another agent session
	// in the transcript: session 2.
	const sampleSession = "7f3c2a1e-5b6d-4e8f-9a0b-1c2d3e4f5a6b"
	other := strings.ReplaceAll(body, sampleSession, "another-agent-session")
	if other == body {
		t.Fatalf("the sample transcript no longer names session %s", sampleSession)
	}
	if err := os.WriteFile(tr, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	hook("precompact_auto.json", "44000")
	counts, numbers = storedSessions(t, db)
	for wf, n := range numbers {
		if counts[wf] != 2 || len(n) != 2 || n[1] != 2 {
			t.Fatalf("another agent session: session count %d, snapshots in sessions %v; want sessions 1 and 2", counts[wf], n)
		}
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// goldenFile compares got with testdata/name, rewriting it with -update.
func goldenFile(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run with -update to create): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden\n got: %s\nwant: %s", name, got, want)
	}
}

const hookPayloads = "../../hooks/testdata/payloads"

// hookSession is the session id of the recorded payloads.
const hookSession = "5b0c8e2a-1f7d-4c2e-9a51-3f0e6d2b7c19"

// payload reads a recorded hook payload and points its transcript_path at
// transcript ("" keeps it as recorded).
func payload(t *testing.T, name, transcript string) string {
	t.Helper()
	raw := readFile(t, filepath.Join(hookPayloads, name))
	if transcript == "" {
		return raw
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		t.Fatal(err)
	}
	m["transcript_path"] = transcript
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

var snapIDPattern = regexp.MustCompile(`snap_[0-9a-z]+`)

// TestHookGolden feeds recorded payloads, in the order a session produces
// them, to `handoff hook` on one database and compares the exact stdout
// and exit code with golden files. The sample transcript reports 38,526
// tokens; a 44,000-token window puts it at 87.6% (past the checkpoint),
// a 1,000,000-token window far below any threshold.
func TestHookGolden(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	tr := filepath.Join(dir, "session.jsonl")
	if err := os.WriteFile(tr, []byte(readFile(t, sampleTranscript)), 0o644); err != nil {
		t.Fatal(err)
	}
	const full, roomy = "44000", "1000000"
	steps := []struct {
		name, agent, payload, transcript, window string
		wantCode                                 int
	}{
		{"precompact_auto", "claude", "precompact_auto.json", tr, full, 0},
		{"precompact_manual", "claude", "precompact_manual.json", tr, full, 0},
		{"stop_below_thresholds", "claude", "stop_active_false.json", tr, roomy, 0},
		// The first crossing is seen by UserPromptSubmit: advice, no block.
		{"userpromptsubmit_checkpoint", "claude", "userpromptsubmit.json", tr, full, 0},
		// Later hooks in the same crossing stay quiet, across processes.
		{"stop_same_crossing", "claude", "stop_active_false.json", tr, full, 0},
		{"posttooluse_same_crossing", "claude", "posttooluse_bash.json", tr, full, 0},
		// Falling far below re-arms; the next crossing blocks the stop.
		{"stop_rearm", "claude", "stop_active_false.json", tr, roomy, 0},
		{"stop_checkpoint", "claude", "stop_active_false.json", tr, full, 0},
		{"stop_after_wrap_up", "claude", "stop_active_true.json", tr, full, 0},
		{"sessionstart_compact", "claude", "sessionstart_compact.json", "", full, 0},
		{"sessionstart_startup", "claude", "sessionstart_startup.json", "", full, 0},
		{"unknown_event", "claude", "unknown_event.json", tr, full, 0},
		{"codex_stop_null_transcript", "codex", "codex_stop_null_transcript.json", "", full, 0},
		{"precompact_missing_transcript", "claude", "precompact_auto.json", filepath.Join(dir, "gone.jsonl"), full, 1},
		{"empty_input", "claude", "", "", full, 1},
	}
	now := time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)
	for _, s := range steps {
		stdin := ""
		if s.payload != "" {
			stdin = payload(t, s.payload, s.transcript)
		}
		var stdout, stderr bytes.Buffer
		a := &app{stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
		a.now = func() time.Time { return now } // a reproducible resume prompt
		err := a.execute(context.Background(), []string{"--db", db, "hook", s.agent, "--no-git", "--context-window", s.window})
		code := exitCode(err)
		if code != s.wantCode {
			t.Errorf("%s: exit %d, want %d (stderr %q)", s.name, code, s.wantCode, stderr.String())
		}
		if code == 2 {
			t.Errorf("%s: exit 2 would block the agent", s.name)
		}
		if code != 0 && !strings.Contains(stderr.String(), "handoff hook "+s.agent+":") {
			t.Errorf("%s: failure without a message on stderr: %q", s.name, stderr.String())
		}
		norm := func(s string) string {
			return strings.ReplaceAll(snapIDPattern.ReplaceAllString(s, "snap_ID"), dir, "$TMP")
		}
		goldenFile(t, filepath.Join("hook", s.name+".golden"),
			fmt.Appendf(nil, "exit %d\n--- stdout\n%s--- stderr\n%s", code, norm(stdout.String()), norm(stderr.String())))
	}

	// What the sequence stored: one snapshot, the first PreCompact's. Every
	// later checkpoint saw the same transcript, so it stored nothing new
	// (one agent session, unchanged content); the SessionStart after the
	// compaction resumed the paused workflow.
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sums, _, err := st.ListSnapshots(context.Background(), store.ListFilter{WorkflowID: hookSession})
	if err != nil {
		t.Fatal(err)
	}
	var triggers []string
	for i := len(sums) - 1; i >= 0; i-- {
		triggers = append(triggers, string(sums[i].Trigger))
	}
	if got, want := strings.Join(triggers, ","), "exhaustion"; got != want {
		t.Errorf("stored triggers %s, want %s", got, want)
	}
	wf, err := st.Workflow(context.Background(), hookSession)
	if err != nil {
		t.Fatal(err)
	}
	if wf.Status != handoff.WorkflowInProgress {
		t.Errorf("workflow status %s after SessionStart compact, want in_progress", wf.Status)
	}
	events, err := st.Events(context.Background(), hookSession)
	if err != nil {
		t.Fatal(err)
	}
	var paused, resumed int
	for _, e := range events {
		switch e.Type {
		case handoff.EventWorkflowPaused:
			paused++
		case handoff.EventWorkflowResumed:
			resumed++
		}
	}
	if paused != 1 || resumed != 1 {
		t.Errorf("%d paused and %d resumed events, want 1 and 1 (the second pause finds it already paused)", paused, resumed)
	}
}

// TestHookConcurrentProcesses starts 50 `handoff hook claude` processes at
// once on one database, as an agent with many sessions (or a burst of
// compactions) would: every one must succeed and store its snapshot.
// Five sessions share the 50 hooks, so snapshots of one workflow race for
// its next session number.
func TestHookConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	dir := t.TempDir()
	command := handoffCommand(t, dir)
	tr := filepath.Join(dir, "session.jsonl")
	if err := os.WriteFile(tr, []byte(readFile(t, sampleTranscript)), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "h.db")

	procs, sessions := 50, 5
	if raceEnabled {
		// The children are plain builds either way (handoffCommand), so
		// the race detector checks nothing in them: 15 processes, three
		// per workflow, still race for each workflow's snapshot; the
		// plain run starts all 50 (see raceEnabled).
		procs = 15
	}
	type outcome struct {
		code   int
		stderr string
	}
	results := make(chan outcome, procs)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range procs {
		in, err := json.Marshal(map[string]any{
			"session_id": fmt.Sprintf("sess-%d", i%sessions), "transcript_path": tr, "cwd": dir,
			"hook_event_name": "PreCompact", "trigger": "auto", "custom_instructions": "",
		})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := command("--db", db, "hook", "claude", "--no-git")
			cmd.Stdin = bytes.NewReader(in)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			<-start
			err := cmd.Run()
			code := 0
			if ee, ok := errors.AsType[*exec.ExitError](err); ok {
				code = ee.ExitCode()
			} else if err != nil {
				code = -1
			}
			results <- outcome{code, stderr.String()}
		}()
	}
	began := time.Now()
	close(start)
	wg.Wait()
	close(results)
	t.Logf("%d hook processes finished in %s", procs, time.Since(began).Round(time.Millisecond))
	for r := range results {
		if r.code != 0 || strings.Contains(r.stderr, "locked") || strings.Contains(r.stderr, "busy") {
			t.Errorf("hook exit %d, stderr %q", r.code, r.stderr)
		}
	}

	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sums, bad, err := st.ListSnapshots(context.Background(), store.ListFilter{})
	if err != nil || len(bad) > 0 {
		t.Fatal(err, bad)
	}
	// Ten processes (three under -race) per workflow checkpoint one unchanged transcript: each
	// workflow stores it once, however the writers interleave.
	if len(sums) != sessions {
		t.Fatalf("%d snapshots stored, want %d (one per workflow)", len(sums), sessions)
	}
	perSession := map[string]map[int]bool{}
	for _, s := range sums {
		if perSession[s.WorkflowID] == nil {
			perSession[s.WorkflowID] = map[int]bool{}
		}
		perSession[s.WorkflowID][s.SessionNumber] = true
	}
	for wf, numbers := range perSession {
		if len(numbers) != 1 || !numbers[1] {
			t.Errorf("workflow %s: session numbers %v, want only 1", wf, numbers)
		}
	}
}

// handoffCommand returns how to start handoff as a process. The plain
// run starts this test binary with TestHelperCLI as its main: there is
// nothing to build or link. Under -race that binary would run each child
// under the race detector, ten times slower, while the races to check are
// between processes: it builds a plain handoff into dir instead.
func handoffCommand(t *testing.T, dir string) func(args ...string) *exec.Cmd {
	t.Helper()
	if !raceEnabled {
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		return func(args ...string) *exec.Cmd {
			raw, _ := json.Marshal(args) // a []string always marshals
			cmd := exec.Command(self, "-test.run=^TestHelperCLI$")
			cmd.Env = append(os.Environ(), helperArgsEnv+"="+string(raw))
			return cmd
		}
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH to build the binary with")
	}
	bin := filepath.Join(dir, "handoff")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return func(args ...string) *exec.Cmd { return exec.Command(bin, args...) }
}

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestUsageErrors: a mistyped command line is the user's to fix (exit 2,
// one clear line), never an internal error (exit 1).
func TestUsageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"unknown flag on a subcommand", []string{"parse", "--nope", "x"}, "unknown flag: --nope"},
		{"unknown flag on the root", []string{"--nope"}, "unknown flag: --nope"},
		{"bad flag value", []string{"--budget", "many"}, `--budget "many" is not a whole number`},
		{"extra argument", []string{"errors", "extra"}, `unknown command "extra"`},
		{"too many files", []string{"compile", "a.jsonl", "b.jsonl"}, "accepts at most 1 arg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, filepath.Join(t.TempDir(), "h.db"), "", tt.args...)
			if got := exitCode(r.err); got != exitInvalid {
				t.Errorf("exit code = %d, want %d (err: %v)", got, exitInvalid, r.err)
			}
			if !strings.Contains(r.stderr, tt.wantErr) {
				t.Errorf("stderr lacks %q:\n%s", tt.wantErr, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout not empty: %s", r.stdout)
			}
		})
	}
}

// TestHookUsageErrorsDoNotBlock: a hook command line the binary does not
// understand (a flag from another version) exits 1, which agents treat as
// non-blocking, never 2, which would block the agent.
func TestHookUsageErrorsDoNotBlock(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"hook", "claude", "--nope"},
		{"hook", "codex", "--budget", "many"},
		{"hook", "claude", "extra"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			r := runCLI(t, filepath.Join(t.TempDir(), "h.db"), "{}", args...)
			if got := exitCode(r.err); got != exitInternal {
				t.Errorf("exit code = %d, want %d (err: %v)", got, exitInternal, r.err)
			}
			if !strings.Contains(r.stderr, "handoff hook") {
				t.Errorf("stderr does not say what failed:\n%s", r.stderr)
			}
		})
	}
}

// TestHookSameSessionConcurrentStops: several Stop hooks of one session
// that see the same crossing at the same moment take one checkpoint
// between them — exactly one blocks the stop — because the session's
// monitor state is advanced in one write transaction. In-process the race
// window is too narrow for this test alone to catch a plain get-then-put
// (it passed with one); store.TestCacheUpdateSerialises is the test that
// does (a plain get-then-put loses 30–75 of its 100 updates). This one
// checks the hook path end to end.
func TestHookSameSessionConcurrentStops(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	tr := filepath.Join(dir, "session.jsonl")
	if err := os.WriteFile(tr, []byte(readFile(t, sampleTranscript)), 0o644); err != nil {
		t.Fatal(err)
	}
	stdin := payload(t, "stop_active_false.json", tr)
	// Create the database first so the hooks race only on the crossing.
	if r := runCLI(t, db, "", "list"); r.err != nil {
		t.Fatal(r.err)
	}
	const hooks = 6
	outs := make([]result, hooks)
	var wg sync.WaitGroup
	for i := range outs {
		wg.Go(func() {
			var stdout, stderr bytes.Buffer
			a := &app{stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
			// 44,000 tokens puts the sample's 38,526 at 87.6%: a checkpoint.
			err := a.execute(context.Background(), []string{"--db", db, "hook", "claude", "--no-git", "--context-window", "44000"})
			outs[i] = result{stdout.String(), stderr.String(), err}
		})
	}
	wg.Wait()
	blocked := 0
	for i, r := range outs {
		if r.err != nil {
			t.Errorf("hook %d: %v\n%s", i, r.err, r.stderr)
		}
		if strings.Contains(r.stdout, `"decision":"block"`) || strings.Contains(r.stdout, `"decision": "block"`) {
			blocked++
		}
	}
	if blocked != 1 {
		t.Errorf("%d of %d concurrent Stop hooks blocked the stop, want exactly 1", blocked, hooks)
	}
}

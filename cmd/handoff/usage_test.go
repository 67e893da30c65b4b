package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestUsageErrors: a mistyped command line is the user's to fix (exit 2,
// one clear line), never an internal error (exit 1).
func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"unknown flag on a subcommand", []string{"parse", "--nope", "x"}, "unknown flag: --nope"},
		{"unknown flag on the root", []string{"--nope"}, "unknown flag: --nope"},
		{"bad flag value", []string{"--budget", "many"}, "invalid argument"},
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

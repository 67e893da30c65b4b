package main

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestSymlinkLoopIsBadInput: a transcript path that is a symlink loop is
// the person's input to fix (exit 2), not an internal error (exit 1).
func TestSymlinkLoopIsBadInput(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	if err := os.Symlink(b, a); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(a, b); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "h.db")
	for _, args := range [][]string{{"compile", a, "--no-git"}, {"parse", a}} {
		r := runEnv(context.Background(), t, db, map[string]string{}, "", args...)
		if got := exitCode(r.err); got != 2 {
			t.Errorf("%v: exit %d, want 2 (bad input): %v", args, got, r.err)
		}
	}
}

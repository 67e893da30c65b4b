package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff/hooks"
)

const handoffBin = "/usr/local/bin/handoff"

func TestHookInstallPrints(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "h.db")
	for _, agent := range []string{"claude", "codex"} {
		r := runCLI(t, db, "", "hook", agent, "--install", "--handoff-path", handoffBin)
		if r.err != nil {
			t.Fatalf("%s --install: %v (%s)", agent, r.err, r.stderr)
		}
		want, err := hooks.MergeClaudeSettings(nil, handoffBin)
		if agent == "codex" {
			want, err = hooks.MergeCodexHooks(nil, handoffBin)
		}
		if err != nil {
			t.Fatal(err)
		}
		if r.stdout != string(want) || !strings.Contains(r.stdout, `"`+handoffBin+` hook `+agent+`"`) {
			t.Errorf("%s --install printed:\n%s\nwant:\n%s", agent, r.stdout, want)
		}
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("--install touched the database: %v", err)
	}
}

// TestHookInstallWrite merges into a real settings file with unrelated
// keys and hooks: they survive, a second run changes nothing.
func TestHookInstallWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	settings := filepath.Join(dir, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	original := readFile(t, "../../hooks/testdata/settings/unrelated.json")
	if err := os.WriteFile(settings, []byte(original), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"hook", "claude", "--install", "--write", "--settings", settings, "--handoff-path", handoffBin}
	r := runCLI(t, db, "", args...)
	if r.err != nil || r.stdout != "" || !strings.Contains(r.stderr, "installed") {
		t.Fatalf("--install --write: %v, stdout %q, stderr %q", r.err, r.stdout, r.stderr)
	}
	got := readFile(t, settings)
	want, err := hooks.MergeClaudeSettings([]byte(original), handoffBin)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("settings after --write:\n%s\nwant:\n%s", got, want)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(got), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["model"] != "opus" || doc["statusLine"] == nil || doc["permissions"] == nil {
		t.Errorf("other settings lost: %v", doc)
	}
	if !strings.Contains(got, "notify-send 'Claude finished'") || !strings.Contains(got, "gofmt -l .") {
		t.Errorf("other hooks lost:\n%s", got)
	}
	if fi, err := os.Stat(settings); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("settings file mode changed: %v %v", fi.Mode(), err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".claude", ".settings.json.*"))
	if len(leftovers) > 0 {
		t.Errorf("temp files left behind: %v", leftovers)
	}

	r = runCLI(t, db, "", args...)
	if r.err != nil || !strings.Contains(r.stderr, "nothing changed") || readFile(t, settings) != got {
		t.Errorf("second --write: %v, stderr %q", r.err, r.stderr)
	}
}

func TestHookInstallWriteCreatesAndRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")

	// No file yet: created, with its directory.
	codex := filepath.Join(dir, "repo", ".codex", "hooks.json")
	r := runCLI(t, db, "", "hook", "codex", "--install", "--write", "--settings", codex, "--handoff-path", handoffBin)
	want, err := hooks.CodexHooks(handoffBin)
	if err != nil {
		t.Fatal(err)
	}
	if r.err != nil || readFile(t, codex) != string(want) {
		t.Errorf("codex --write to a new file: %v (%s)", r.err, r.stderr)
	}

	// A file that is not JSON is refused and left as it was, with exit 1:
	// nothing under hook exits 2, which Claude Code reads as "block".
	bad := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(bad, []byte("{ not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, db, "", "hook", "claude", "--install", "--write", "--settings", bad, "--handoff-path", handoffBin)
	if exitCode(r.err) != exitInternal || readFile(t, bad) != "{ not json" || !strings.Contains(r.stderr, "not a JSON object") {
		t.Errorf("bad settings: exit %d, stderr %q, file %q", exitCode(r.err), r.stderr, readFile(t, bad))
	}

	r = runCLI(t, db, "", "hook", "claude", "--write")
	if exitCode(r.err) != exitInternal || !strings.Contains(r.stderr, "--write only goes with --install") {
		t.Errorf("--write alone: exit %d, stderr %q", exitCode(r.err), r.stderr)
	}
}

// TestHookInstallFromSubfolder: run from deep inside a git repository,
// --install --write merges into the repository's .claude/settings.json
// (keeping the file's layout) and the hooks run plain "handoff" when it is
// on PATH; outside a repository the current directory is the root.
func TestHookInstallFromSubfolder(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	gitCmd(t, repo, "init", "-q")
	sub := filepath.Join(repo, "internal", "api")
	if err := os.MkdirAll(filepath.Join(repo, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	original := "{\n    \"model\": \"opus\",\n    \"permissions\": {\"allow\": [\"Bash(go test:*)\"]}\n}\n"
	settings := filepath.Join(repo, ".claude", "settings.json")
	if err := os.WriteFile(settings, []byte(original), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "handoff"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	env := map[string]string{"PATH": bin}
	r := runEnv(context.Background(), t, filepath.Join(t.TempDir(), "h.db"), env, "", "hook", "claude", "--install", "--write")
	if r.err != nil {
		t.Fatalf("install: %v\n%s", r.err, r.stderr)
	}
	got := readFile(t, settings)
	if !strings.HasPrefix(got, "{\n    \"model\": \"opus\",\n    \"permissions\": {\"allow\": [\"Bash(go test:*)\"]},\n    \"hooks\": {\n        \"PreCompact\": [") {
		t.Errorf("settings lost their layout or key order:\n%s", got)
	}
	if !strings.Contains(got, `"command": "handoff hook claude"`) {
		t.Errorf("hooks do not run plain handoff:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(sub, ".claude")); err == nil {
		t.Error("settings were written into the subfolder")
	}

	// Outside a repository: the current directory.
	plain := t.TempDir()
	t.Chdir(plain)
	r = runEnv(context.Background(), t, filepath.Join(t.TempDir(), "h.db"), env, "", "hook", "codex", "--install", "--write")
	if r.err != nil {
		t.Fatalf("install outside git: %v\n%s", r.err, r.stderr)
	}
	if !strings.Contains(readFile(t, filepath.Join(plain, ".codex", "hooks.json")), `"handoff hook codex"`) {
		t.Error("codex hooks not written in the current directory")
	}
}

// TestHookInstallRefusesBuildCache: with no handoff on PATH, a binary in
// Go's build cache (go run, go test) is refused with a hint, exit 1.
func TestHookInstallRefusesBuildCache(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil || !inBuildCache(exe, os.Getenv("GOCACHE")) {
		t.Skipf("the test binary %s is not in the build cache", exe)
	}
	r := runEnv(context.Background(), t, filepath.Join(t.TempDir(), "h.db"), map[string]string{"PATH": t.TempDir()}, "", "hook", "claude", "--install")
	if got := exitCode(r.err); got != exitInternal || !strings.Contains(r.stderr, "go install ./cmd/handoff") {
		t.Errorf("exit %d, stderr %q", got, r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("printed hooks running a build-cache binary:\n%s", r.stdout)
	}
}

func TestInBuildCache(t *testing.T) {
	t.Parallel()
	tests := []struct {
		exe, gocache string
		want         bool
	}{
		{"/tmp/go-build1234/b001/exe/handoff", "", true},
		{"/home/me/.cache/go-build/ab/handoff", "/home/me/.cache/go-build", true},
		{"/home/me/go/bin/handoff", "/home/me/.cache/go-build", false},
		{"/usr/local/bin/handoff", "", false},
	}
	for _, tt := range tests {
		if got := inBuildCache(tt.exe, tt.gocache); got != tt.want {
			t.Errorf("inBuildCache(%q, %q) = %v", tt.exe, tt.gocache, got)
		}
	}
}

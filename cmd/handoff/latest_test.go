package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeAt(t *testing.T, path, content string, mtime time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

// TestLatestSession: the newest session of the directory, or of the
// nearest directory above it, among Claude Code, Codex and Gemini CLI.
func TestLatestSession(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	proj := filepath.Join(t.TempDir(), "my.app")
	sub := filepath.Join(proj, "internal", "api")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	claudeDir := filepath.Join(home, ".claude", "projects", nonAlnum.ReplaceAllString(proj, "-"))
	writeAt(t, filepath.Join(claudeDir, "a.jsonl"), "{}\n", base)
	writeAt(t, filepath.Join(claudeDir, "b.jsonl"), "{}\n", base.Add(time.Hour))
	codexMeta := `{"type":"session_meta","payload":{"id":"x","cwd":"` + proj + `"}}` + "\n"
	writeAt(t, filepath.Join(home, ".codex", "sessions", "2026", "11", "20", "rollout-1.jsonl"), codexMeta, base.Add(2*time.Hour))
	writeAt(t, filepath.Join(home, ".codex", "sessions", "2026", "11", "20", "rollout-2.jsonl"),
		`{"type":"session_meta","payload":{"cwd":"/elsewhere"}}`+"\n", base.Add(5*time.Hour))
	sum := sha256.Sum256([]byte(sub))
	writeAt(t, filepath.Join(home, ".gemini", "tmp", hex.EncodeToString(sum[:]), "chats", "session-1.json"), "{}", base)

	tests := []struct {
		dir, want string
	}{
		{proj, "rollout-1.jsonl"}, // codex is newer than claude's b; rollout-2 is another directory's
		{sub, "session-1.json"},   // the nearest directory with a session wins, even if older
		{filepath.Join(sub, "x"), "session-1.json"},
	}
	for _, tt := range tests {
		got, err := latestSession(home, tt.dir)
		if err != nil || filepath.Base(got.path) != tt.want {
			t.Errorf("latestSession(%s) = %+v, %v; want %s", tt.dir, got, err, tt.want)
		}
	}
	if _, err := latestSession(home, t.TempDir()); exitCode(err) != exitNotFound {
		t.Errorf("a directory without sessions: %v", err)
	}
}

// TestCompileLatest: compile --latest and handoff latest compile the
// newest session of the current directory and say which.
func TestCompileLatest(t *testing.T) {
	sample := readFile(t, sampleTranscript)
	home := t.TempDir()
	proj := t.TempDir()
	writeAt(t, filepath.Join(home, ".claude", "projects", nonAlnum.ReplaceAllString(proj, "-"), "s.jsonl"), sample, time.Now())
	t.Chdir(proj)
	env := map[string]string{"HOME": home, "HANDOFF_DB": filepath.Join(t.TempDir(), "h.db")}
	for _, args := range [][]string{{"compile", "--latest", "--no-git"}, {"latest", "--no-git"}} {
		r := runNoDB(t, env, "", args...)
		if r.err != nil {
			t.Fatalf("%v: %v\n%s", args, r.err, r.stderr)
		}
		if !strings.Contains(r.stderr, "latest claude-code session: ") || !strings.Contains(r.stdout, "ratelimit") {
			t.Errorf("%v: stderr %q, stdout %.200q", args, r.stderr, r.stdout)
		}
	}
	if r := runNoDB(t, env, "", "compile", "--latest", "x.jsonl"); exitCode(r.err) != exitInvalid {
		t.Errorf("--latest with a FILE: %v", r.err)
	}
	empty := map[string]string{"HOME": t.TempDir(), "HANDOFF_DB": filepath.Join(t.TempDir(), "h.db")}
	if r := runNoDB(t, empty, "", "latest"); exitCode(r.err) != exitNotFound || !strings.Contains(r.stderr, "no agent session recorded") {
		t.Errorf("no session: exit %d\n%s", exitCode(r.err), r.stderr)
	}
}

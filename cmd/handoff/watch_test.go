package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/store"
)

const sharedClaude = "../../../shared/transcripts/claude-code"

// crossing is where a transcript's provider-reported usage first reaches
// 85% of a window chosen for the test.
type crossing struct {
	path   string
	lines  [][]byte
	window int
	line   int // 1-based
	used   int
}

// findCrossing reads the raw JSON of a real Claude Code transcript and
// picks a --context-window at which the reported usage crosses 85% on a
// known line, independently of handoff's parser and monitor.
//
// Between two usage reports watch adds the counted tokens of the messages
// in between; those are at most the bytes of the lines' message content
// JSON (a token is at least one byte, and JSON is never shorter than the
// text it holds) plus per-message and per-block overheads (contentBound). The window is chosen
// so that every earlier figure, even at that bound, is below 85%, and the
// report on the crossing line is at or above it: the checkpoint must fire
// exactly there.
func findCrossing(t *testing.T) crossing {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(sharedClaude, "*.jsonl"))
	if len(files) == 0 {
		t.Skipf("no shared Claude Code transcripts in %s", sharedClaude)
	}
	for _, path := range files {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.SplitAfter(raw, []byte("\n"))
		if len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		maxEarlier, figure := 0, 0
		for i, l := range lines {
			reported := reportedUsage(l)
			if reported > 0 && i >= len(lines)/3 {
				window := int(float64(reported) / 0.85)
				for ; window > 0 && float64(reported)/float64(window) < 0.85; window-- {
				}
				if window > 0 && float64(maxEarlier)/float64(window) < 0.85 && reported-maxEarlier > 1000 {
					return crossing{path: path, lines: lines, window: window, line: i + 1, used: reported}
				}
			}
			if reported > 0 {
				figure = reported
			} else {
				figure += contentBound(l)
			}
			maxEarlier = max(maxEarlier, figure)
		}
	}
	t.Skip("no shared transcript has a usage report that clears the bound")
	return crossing{}
}

// contentBound bounds the tokens watch can count for one line: the bytes
// of its message content (and of a system line's content) plus overheads.
func contentBound(line []byte) int {
	var l struct {
		Content json.RawMessage `json:"content"`
		Message struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &l) != nil {
		return len(line) // not JSON: the whole line, as if counted as text
	}
	blocks := bytes.Count(l.Message.Content, []byte(`"type"`))
	return len(l.Content) + len(l.Message.Content) + 2*capacity.MessageOverhead + blocks*capacity.ToolBlockOverhead
}

// reportedUsage is the context a main-thread assistant line reports:
// input + cache creation + cache read + output tokens, 0 for other lines.
func reportedUsage(line []byte) int {
	var l struct {
		Type        string `json:"type"`
		IsSidechain bool   `json:"isSidechain"`
		AgentID     string `json:"agentId"`
		Message     struct {
			Model string `json:"model"`
			Usage *struct {
				Input         int `json:"input_tokens"`
				CacheCreation int `json:"cache_creation_input_tokens"`
				CacheRead     int `json:"cache_read_input_tokens"`
				Output        int `json:"output_tokens"`
			} `json:"usage"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &l) != nil || l.Type != "assistant" || l.IsSidechain || l.AgentID != "" {
		return 0
	}
	u := l.Message.Usage
	if u == nil || strings.HasPrefix(l.Message.Model, "<") {
		return 0
	}
	return u.Input + u.CacheCreation + u.CacheRead + u.Output
}

// appendWhileWatching appends lines to f, each in two writes so watch sees
// partial lines, until watch (done) returns, and returns watch's error.
// It fails the test when watch is still running once ctx ends.
func appendWhileWatching(ctx context.Context, t *testing.T, f *os.File, lines [][]byte, done <-chan error, stderr fmt.Stringer) error {
	t.Helper()
	for _, l := range lines {
		half := len(l) / 2
		for _, part := range [][]byte{l[:half], l[half:]} {
			if _, err := f.Write(part); err != nil {
				t.Fatal(err)
			}
		}
		select {
		case err := <-done:
			return err
		default:
		}
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		t.Fatalf("watch did not checkpoint; stderr:\n%s", stderr.String())
		return nil
	}
}

// TestWatchCheckpointsOnceAtCrossing appends a real transcript to a file
// line by line (each line in two writes, so watch sees partial lines)
// while watch follows it in-process.
func TestWatchCheckpointsOnceAtCrossing(t *testing.T) {
	c := findCrossing(t)
	t.Logf("%s: --context-window %d, reported usage %d crosses 85%% at line %d of %d",
		filepath.Base(c.path), c.window, c.used, c.line, len(c.lines))

	dir := t.TempDir()
	live := filepath.Join(dir, "session.jsonl")
	if err := os.WriteFile(live, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "h.db")
	out := filepath.Join(dir, "resume.md")
	envFile := filepath.Join(dir, "env.txt")
	onPause := fmt.Sprintf(`printf '%%s\n%%s\n%%s\n' "$HANDOFF_SNAPSHOT_ID" "$HANDOFF_PROMPT_FILE" "$HANDOFF_WORKFLOW_ID" > %s`, envFile)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	done := make(chan error, 1)
	go func() {
		done <- a.execute(ctx, []string{"--db", db, "watch", live, "--no-git", "--poll", "5ms",
			"--context-window", fmt.Sprint(c.window), "--budget", "1500", "--out", out, "--on-pause", onPause})
	}()

	f, err := os.OpenFile(live, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	watchErr := appendWhileWatching(ctx, t, f, c.lines, done, &stderr)

	if got := exitCode(watchErr); got != exitCheckpoint {
		t.Fatalf("watch exit code %d (%v), want %d; stderr:\n%s", got, watchErr, exitCheckpoint, stderr.String())
	}
	wantAt := fmt.Sprintf("checkpoint at line %d of %s", c.line, live)
	if !strings.Contains(stderr.String(), wantAt) {
		t.Errorf("stderr does not say %q:\n%s", wantAt, stderr.String())
	}
	if strings.Contains(stderr.String(), "error") {
		t.Errorf("stderr reports an error:\n%s", stderr.String())
	}

	// Exactly one snapshot, trigger exhaustion, workflow paused.
	s, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	snaps, bad, err := s.ListSnapshots(context.Background(), store.ListFilter{})
	if err != nil || len(bad) > 0 {
		t.Fatal(err, bad)
	}
	if len(snaps) != 1 {
		t.Fatalf("%d snapshots stored, want exactly 1", len(snaps))
	}
	snap, err := s.Snapshot(context.Background(), snaps[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Trigger != handoff.TriggerExhaustion {
		t.Errorf("trigger %q, want exhaustion", snap.Trigger)
	}
	if snap.Usage.ContextWindow != c.window || snap.Usage.ContextUtilization < 0.85 {
		t.Errorf("snapshot usage %d/%d (%.3f), want window %d at >= 85%%",
			snap.Usage.TokensUsed, snap.Usage.ContextWindow, snap.Usage.ContextUtilization, c.window)
	}
	wf, err := s.Workflow(context.Background(), snap.WorkflowID)
	if err != nil {
		t.Fatal(err)
	}
	if wf.Status != handoff.WorkflowPaused || !strings.Contains(wf.PauseReason, fmt.Sprintf("at line %d", c.line)) {
		t.Errorf("workflow %s status %q reason %q, want paused at line %d", wf.ID, wf.Status, wf.PauseReason, c.line)
	}

	// The prompt: on stdout, in --out, within budget; --on-pause saw the ids.
	prompt := stdout.String()
	if prompt == "" || readFile(t, out) != prompt {
		t.Errorf("--out differs from stdout (stdout %d bytes)", len(prompt))
	}
	counter, err := capacity.NewCounter(capacity.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	if n := counter.Count(prompt); n > 1500 {
		t.Errorf("resume prompt is %d tokens, budget 1500", n)
	}
	env := strings.Split(strings.TrimSpace(readFile(t, envFile)), "\n")
	if want := []string{snap.ID, out, snap.WorkflowID}; strings.Join(env, "|") != strings.Join(want, "|") {
		t.Errorf("--on-pause saw %q, want %q", env, want)
	}
}

// TestWatchErrors: bad flags and files fail at once with the right code.
func TestWatchErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(file, []byte("{\"type\":\"user\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "h.db")
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"missing file", []string{"watch", filepath.Join(dir, "nope")}, exitNotFound, "no such file"},
		{"directory", []string{"watch", dir}, exitInvalid, "is a directory"},
		{"checkpoint below warn", []string{"watch", file, "--warn", "90", "--checkpoint", "80"}, exitInvalid, "thresholds"},
		{"threshold over 100", []string{"watch", file, "--checkpoint", "850"}, exitInvalid, "thresholds"},
		{"bad budget", []string{"watch", file, "--budget", "0"}, exitInvalid, "--budget"},
		{"bad poll", []string{"watch", file, "--poll", "0s"}, exitInvalid, "--poll"},
		{"no file", []string{"watch"}, exitInvalid, "accepts 1 arg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, db, "", tt.args...)
			if got := exitCode(r.err); got != tt.code || !strings.Contains(r.stderr, tt.msg) {
				t.Errorf("exit %d, stderr %q; want exit %d mentioning %q", got, r.stderr, tt.code, tt.msg)
			}
		})
	}
}

// TestWatchStopsOnCancel: an interrupted watch below the thresholds exits
// 0 and stores nothing.
func TestWatchStopsOnCancel(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.jsonl")
	line := `{"type":"user","sessionId":"s1","message":{"role":"user","content":"hello"}}` + "\n"
	if err := os.WriteFile(file, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	var stdout, stderr bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	err := a.execute(ctx, []string{"--db", filepath.Join(dir, "h.db"), "watch", file, "--poll", "10ms"})
	if err != nil || stdout.Len() != 0 {
		t.Fatalf("watch: %v, stdout %q, stderr %q", err, stdout.String(), stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "h.db")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("watch below the thresholds opened the database: %v", err)
	}
}

// syncBuffer is a bytes.Buffer safe to read while watch writes to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// ccAssistant is a Claude Code assistant line reporting used tokens.
func ccAssistant(id string, used int, text string) string {
	return fmt.Sprintf(`{"type":"assistant","sessionId":"sess-reset","uuid":"u-%s","message":{"id":"msg_%s","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":%q}],"usage":{"input_tokens":%d,"output_tokens":0}}}`+"\n", id, id, text, used)
}

func ccUser(id, text string) string {
	return fmt.Sprintf(`{"type":"user","sessionId":"sess-reset","uuid":"u-%s","message":{"role":"user","content":%q}}`+"\n", id, text)
}

// TestWatchStartsOverOnTruncationAndRotation: a file truncated or replaced
// under watch is read again from its start with a fresh transcript and
// monitor, so the checkpoint counts only the new file's lines.
func TestWatchStartsOverOnTruncationAndRotation(t *testing.T) {
	for _, how := range []string{"truncated", "rotated"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			live := filepath.Join(dir, "session.jsonl")
			// 750 of 1,000 tokens: past the warning, which tells the test
			// that watch has read it. The long text makes the old file
			// longer than the new one, as truncation detection needs.
			old := ccAssistant("old", 750, strings.Repeat("earlier work ", 200))
			if err := os.WriteFile(live, []byte(old), 0o644); err != nil {
				t.Fatal(err)
			}
			db := filepath.Join(dir, "h.db")
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var stdout bytes.Buffer
			stderr := &syncBuffer{}
			a := &app{stdin: strings.NewReader(""), stdout: &stdout, stderr: stderr, getenv: func(string) string { return "" }}
			done := make(chan error, 1)
			go func() {
				done <- a.execute(ctx, []string{"--db", db, "watch", live, "--no-git", "--poll", "5ms", "--context-window", "1000"})
			}()
			for !strings.Contains(stderr.String(), "at line 1 of") {
				select {
				case err := <-done:
					t.Fatalf("watch ended early: %v\n%s", err, stderr.String())
				case <-ctx.Done():
					t.Fatalf("watch did not warn:\n%s", stderr.String())
				case <-time.After(5 * time.Millisecond):
				}
			}

			fresh := ccUser("new1", "start again") + ccAssistant("new2", 900, "done")
			switch how {
			case "truncated":
				if err := os.WriteFile(live, []byte(fresh), 0o644); err != nil {
					t.Fatal(err)
				}
			case "rotated":
				tmp := filepath.Join(dir, "next.jsonl")
				if err := os.WriteFile(tmp, []byte(fresh), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(tmp, live); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			select {
			case err = <-done:
			case <-ctx.Done():
				t.Fatalf("no checkpoint after the file was %s:\n%s", how, stderr.String())
			}
			if exitCode(err) != exitCheckpoint {
				t.Fatalf("exit %d (%v):\n%s", exitCode(err), err, stderr.String())
			}
			for _, want := range []string{"was " + how, "checkpoint at line 2 of"} {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
				}
			}
			s, err := store.Open(context.Background(), db, store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			snap, err := s.LatestSnapshot(context.Background(), "sess-reset")
			if err != nil {
				t.Fatal(err)
			}
			if snap.Source.Messages != 2 || snap.Usage.TokensUsed != 900 {
				t.Errorf("snapshot has %d messages and %d tokens, want the new file's 2 and 900", snap.Source.Messages, snap.Usage.TokensUsed)
			}
		})
	}
}

// TestWatchKeepGoing: with --keep-going a checkpoint does not end the
// watch, and the next one waits until utilization has dropped below the
// re-arm margin (a compaction) and crossed again.
func TestWatchKeepGoing(t *testing.T) {
	dir := t.TempDir()
	live := filepath.Join(dir, "session.jsonl")
	lines := []string{
		ccAssistant("a1", 900, "one"),   // line 1: 90% — checkpoint
		ccAssistant("a2", 950, "two"),   // line 2: still above: quiet
		ccAssistant("a3", 100, "three"), // line 3: compacted: re-arms
		ccAssistant("a4", 880, "four"),  // line 4: checkpoint again
	}
	if err := os.WriteFile(live, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "h.db")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stdout bytes.Buffer
	stderr := &syncBuffer{}
	a := &app{stdin: strings.NewReader(""), stdout: &stdout, stderr: stderr, getenv: func(string) string { return "" }}
	done := make(chan error, 1)
	go func() {
		done <- a.execute(ctx, []string{"--db", db, "watch", live, "--no-git", "--poll", "5ms", "--context-window", "1000", "--keep-going", "--budget", "500"})
	}()
	for !strings.Contains(stderr.String(), "checkpoint at line 4 of") {
		select {
		case err := <-done:
			t.Fatalf("watch ended: %v\n%s", err, stderr.String())
		case <-ctx.Done():
			t.Fatalf("no second checkpoint:\n%s", stderr.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("interrupted --keep-going watch: %v", err)
	}
	if n := strings.Count(stderr.String(), "checkpoint at line"); n != 2 {
		t.Errorf("%d checkpoints, want 2 (lines 1 and 4):\n%s", n, stderr.String())
	}
	if n := strings.Count(stdout.String(), "# Handoff: "); n != 2 {
		t.Errorf("%d resume prompts on stdout, want 2", n)
	}
	s, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sums, _, err := s.ListSnapshots(context.Background(), store.ListFilter{WorkflowID: "sess-reset"})
	if err != nil || len(sums) != 2 {
		t.Fatalf("%d snapshots (%v), want 2", len(sums), err)
	}
}

// TestWatchOpenAIDocument: a pretty-printed OpenAI messages document has
// no record per line; watch estimates from each line's text and, at the
// checkpoint, reads the document whole.
func TestWatchOpenAIDocument(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "chat.json")
	content := `[
  {"role": "system", "content": "You are a coding agent."},
  {"role": "user", "content": "Fix the flaky retry test in client_test.go and keep the public API unchanged"},
  {"role": "assistant", "content": "I will look at the retry loop first, then the timeout handling in the client."}
]
`
	if err := os.WriteFile(doc, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, filepath.Join(dir, "h.db"), "", "watch", doc, "--no-git", "--context-window", "60", "--budget", "300")
	if exitCode(r.err) != exitCheckpoint {
		t.Fatalf("exit %d (%v): %s", exitCode(r.err), r.err, r.stderr)
	}
	if !strings.Contains(r.stdout, "Fix the flaky retry test") || !strings.Contains(r.stderr, "estimated") {
		t.Errorf("prompt lacks the goal or the status is not an estimate:\n%s\n%s", r.stdout, r.stderr)
	}
}

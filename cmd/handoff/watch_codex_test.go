package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/transcript"
)

const sharedCodex = sharedFixtures + "/agent-sessions-codex-small-trimmed.jsonl"

// findCodexCrossing reads the raw JSON of a Codex rollout and picks a
// --context-window at which a token_count's last_token_usage (input, which
// includes the cached part, plus output) crosses 85% on a known line,
// independently of handoff's parser and monitor. Between reports watch
// adds the counted tokens of the lines that carry content (response items,
// compacted, error events): at most their payload bytes plus the message
// and tool-block overheads. Metadata lines (session_meta, turn_context,
// other events) carry none. The window is chosen so that every earlier
// figure, even at that bound, stays below 85%. It also returns the bound
// on what watch adds to the report on the crossing line: the content lines
// after the assistant item the report attaches to.
func findCodexCrossing(t *testing.T, path string) (crossing, int) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		t.Skipf("%s not present", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(raw, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	maxEarlier, figure, assistant, sinceAssistant := 0, 0, false, 0
	for i, l := range lines {
		var rec struct {
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal(l, &rec); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		var p struct {
			Type string `json:"type"`
			Role string `json:"role"`
			Info *struct {
				Last *struct {
					Input  int `json:"input_tokens"`
					Output int `json:"output_tokens"`
				} `json:"last_token_usage"`
			} `json:"info"`
		}
		_ = json.Unmarshal(rec.Payload, &p)
		reported := 0
		if rec.Type == "event_msg" && p.Type == "token_count" && p.Info != nil && p.Info.Last != nil && p.Info.Last.Input > 0 && assistant {
			reported = p.Info.Last.Input + p.Info.Last.Output
		}
		bound := 0
		if rec.Type == "response_item" || rec.Type == "compacted" || (rec.Type == "event_msg" && p.Type == "error") {
			bound = len(rec.Payload) + capacity.MessageOverhead + capacity.ToolBlockOverhead
		}
		sinceAssistant += bound
		if rec.Type == "response_item" {
			switch p.Type {
			case "function_call", "custom_tool_call", "local_shell_call", "web_search_call", "tool_search_call":
				assistant, sinceAssistant = true, 0
			case "message":
				if p.Role == "assistant" {
					assistant, sinceAssistant = true, 0
				}
			}
		}
		if reported > 0 {
			window := int(float64(reported) / 0.85)
			for ; window > 0 && float64(reported)/float64(window) < 0.85; window-- {
			}
			if window > 0 && float64(maxEarlier)/float64(window) < 0.85 {
				return crossing{path: path, lines: lines, window: window, line: i + 1, used: reported}, sinceAssistant
			}
			figure = reported + sinceAssistant
		} else {
			figure += bound
		}
		maxEarlier = max(maxEarlier, figure)
	}
	t.Skip("no token_count in the rollout clears the bound")
	return crossing{}, 0
}

// TestLiveSessionCodexCheckpointsOnce: over the whole rollout the
// checkpoint fires exactly once, on the token_count line whose reported
// usage crosses, from the provider's figure.
func TestLiveSessionCodexCheckpointsOnce(t *testing.T) {
	t.Parallel()
	c, slack := findCodexCrossing(t, sharedCodex)
	s := newTestSession(t, transcript.FormatCodex, capacity.MonitorOptions{ContextWindow: c.window})
	var fired []capacity.Status
	var at []int
	for i, l := range c.lines {
		st, err := s.line(bytes.TrimSuffix(l, []byte("\n")))
		if err != nil {
			t.Fatal(err)
		}
		if st.Action() == capacity.Checkpoint {
			fired, at = append(fired, st), append(at, i+1)
		}
	}
	if len(fired) != 1 || at[0] != c.line {
		t.Fatalf("checkpoints at lines %v, want exactly one at line %d", at, c.line)
	}
	if st := fired[0]; st.Source != handoff.UsageProvider || st.TokensUsed < c.used || st.TokensUsed > c.used+slack {
		t.Errorf("checkpoint at %d tokens from %q, want the provider's %d plus at most %d counted after it", st.TokensUsed, st.Source, c.used, slack)
	}
}

// TestWatchCodexCheckpointsAtTokenCount appends a Codex rollout to a file
// line by line (each in two writes) while watch follows it: the checkpoint
// is taken at the token_count line whose last_token_usage crosses 85% of
// --context-window, once, measured from the provider's figure.
func TestWatchCodexCheckpointsAtTokenCount(t *testing.T) {
	t.Parallel()
	c, slack := findCodexCrossing(t, sharedCodex)
	t.Logf("--context-window %d: last_token_usage %d crosses 85%% at line %d of %d (plus at most %d counted after it)", c.window, c.used, c.line, len(c.lines), slack)

	dir := t.TempDir()
	live := filepath.Join(dir, "rollout.jsonl")
	if err := os.WriteFile(live, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "h.db")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var stdout bytes.Buffer
	stderr := &syncBuffer{}
	a := &app{stdin: strings.NewReader(""), stdout: &stdout, stderr: stderr, getenv: func(string) string { return "" }}
	done := make(chan error, 1)
	go func() {
		done <- a.execute(ctx, []string{"--db", db, "watch", live, "--no-git", "--poll", "5ms",
			"--context-window", fmt.Sprint(c.window), "--budget", "800"})
	}()
	f, err := os.OpenFile(live, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	watchErr := appendWhileWatching(ctx, t, f, c.lines, done, stderr)
	if got := exitCode(watchErr); got != exitCheckpoint {
		t.Fatalf("watch exit code %d (%v), want %d; stderr:\n%s", got, watchErr, exitCheckpoint, stderr.String())
	}
	wantAt := fmt.Sprintf("checkpoint at line %d of %s", c.line, live)
	if !strings.Contains(stderr.String(), wantAt) || !strings.Contains(stderr.String(), "provider-reported") ||
		strings.Count(stderr.String(), "checkpoint at line") != 1 {
		t.Errorf("stderr does not report one checkpoint %q:\n%s", wantAt, stderr.String())
	}

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
	if u := snap.Usage; snap.Trigger != handoff.TriggerExhaustion || u.Source != handoff.UsageProvider ||
		u.TokensUsed < c.used || u.TokensUsed > c.used+slack || u.ContextWindow != c.window {
		t.Errorf("snapshot trigger %q usage %d/%d from %q, want exhaustion at %d(+%d)/%d from the provider",
			snap.Trigger, u.TokensUsed, u.ContextWindow, u.Source, c.used, slack, c.window)
	}
	if stdout.Len() == 0 {
		t.Error("no resume prompt on stdout")
	}
}

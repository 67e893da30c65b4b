package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/transcript"
)

const sharedFixtures = "../../../shared/transcripts/schema-fixtures"

// TestLiveSessionMatchesMeasure feeds real transcripts of the line-based
// formats to a liveSession one line at a time and checks, after every
// line, that the incremental figure is exactly what capacity.Measure says
// of the whole transcript so far: metadata lines add nothing, provider
// reports that later lines attach to earlier messages (Codex token_count,
// Claude Code responses split over lines) are picked up, compaction
// summaries restart the estimate.
func TestLiveSessionMatchesMeasure(t *testing.T) {
	t.Parallel()
	tests := []struct {
		path   string
		format transcript.Format
	}{
		{filepath.Join(sharedFixtures, "agent-sessions-codex-small-trimmed.jsonl"), transcript.FormatCodex},
		{filepath.Join(sharedFixtures, "agent-sessions-claude-small-trimmed.jsonl"), transcript.FormatClaudeCode},
		{filepath.Join(sharedClaude, "vsla-069508a5-summaries-64lines.jsonl"), transcript.FormatClaudeCode},
		{filepath.Join(sharedClaude, "vsla-2cba43de-thinking-28lines.jsonl"), transcript.FormatClaudeCode},
		// Subagent runs between a main response and its tool result.
		{filepath.Join(sharedClaude, "vsla-5f8cbb78-sidechain-532lines.jsonl"), transcript.FormatClaudeCode},
		{filepath.Join(sharedClaude, "ccviewer-mock-orchestrator-todo-app-438lines.jsonl"), transcript.FormatClaudeCode},
		{filepath.Join(sharedFixtures, "agent-sessions-gemini-v040.jsonl"), transcript.FormatGemini},
	}
	counter, err := capacity.NewCounter(capacity.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			raw, err := os.ReadFile(tt.path)
			if os.IsNotExist(err) {
				t.Skipf("%s not present", tt.path)
			}
			if err != nil {
				t.Fatal(err)
			}
			const window = 1 << 30 // never fires; the figures are what is compared
			s := newTestSession(t, tt.format, capacity.MonitorOptions{ContextWindow: window})
			provider := 0
			lines := bytes.Split(bytes.TrimSuffix(raw, []byte("\n")), []byte("\n"))
			for i, l := range lines {
				if _, err := s.line(l); err != nil {
					t.Fatal(err)
				}
				if raceEnabled && i%8 != 0 && i != len(lines)-1 {
					// Every line is fed, but under -race, where measuring
					// the whole transcript after each line made this the
					// package's slowest test and nothing runs concurrently,
					// every 8th and the last are compared; the plain run
					// compares every line (see raceEnabled).
					continue
				}
				got := s.mon.Status()
				want := capacity.Measure(s.transcript(), counter, capacity.MeasureOptions{ContextWindow: window})
				if got.TokensUsed != want.TokensUsed || got.Source != want.Source {
					t.Fatalf("line %d: watch has %d tokens (%s), Measure %d (%s)", i+1, got.TokensUsed, got.Source, want.TokensUsed, want.Source)
				}
				if got.Source == handoff.UsageProvider {
					provider++
				}
			}
			t.Logf("%d lines, %d messages, %d lines measured from provider usage", s.dec.Lines(), s.dec.Len(), provider)
		})
	}
}

package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff/capacity"
)

// TestCompileDamagedInput checks the best-effort cases: input that is
// partly damaged still yields a prompt within budget, the damage is
// reported on stderr, and the snapshot is stored.
func TestCompileDamagedInput(t *testing.T) {
	t.Parallel()
	sample := readFile(t, sampleTranscript)
	lines := strings.SplitAfter(strings.TrimSuffix(sample, "\n"), "\n")
	// A tool result line in the middle of the session, to damage.
	victim := -1
	for i, l := range lines {
		if strings.Contains(l, `"tool_result"`) && i > 5 {
			victim = i
			break
		}
	}
	if victim < 0 {
		t.Fatal("sample has no tool_result line")
	}
	withLine := func(i int, l string) string {
		out := append([]string(nil), lines...)
		out[i] = l
		return strings.Join(out, "")
	}
	// One 50 MB line: a Claude Code tool result whose output is 50 MB.
	// Under -race (see raceEnabled) 8 MB, still far past every buffer and
	// clip limit: the race detector made the 50 MB parse the package's
	// slowest case, and the plain run keeps 50 MB.
	hugeBytes := 50 << 20
	if raceEnabled {
		hugeBytes = 8 << 20
	}
	huge := func() string {
		var b strings.Builder
		b.Grow(hugeBytes + 512)
		b.WriteString(`{"type":"user","sessionId":"7f3c2a1e-5b6d-4e8f-9a0b-1c2d3e4f5a6b","uuid":"huge-1","timestamp":"2026-11-20T09:30:00.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_huge","content":"`)
		chunk := strings.Repeat("log line with some words 0123456789 ", 1<<10)
		for b.Len() < hugeBytes {
			b.WriteString(chunk)
		}
		b.WriteString(`"}]}}` + "\n")
		return b.String()
	}

	tests := []struct {
		name       string
		stdin      func() string
		wantStderr string
		short      bool // runs in -short mode too
	}{
		{"malformed line", func() string { return withLine(victim, "{\"type\": \"user\", \"message\": {\n") }, "skipped or repaired 1 record", true},
		{"invalid UTF-8", func() string {
			return strings.Replace(sample, "miniredis", "mini\xff\xferedis", 1)
		}, "invalid UTF-8", true},
		{"truncated last line", func() string { return sample + `{"parentUuid": "x", "type": "assistant", "message": {"role": "assis` }, "skipped", true},
		{fmt.Sprintf("%d MB line", hugeBytes>>20), func() string { return withLine(victim, huge()) }, "", false},
	}
	counter, err := capacity.NewCounter(capacity.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if testing.Short() && !tt.short {
				t.Skip("large input skipped in -short mode")
			}
			db := filepath.Join(t.TempDir(), "h.db")
			r := runCLI(t, db, tt.stdin(), "--no-git")
			if r.err != nil {
				t.Fatalf("compile failed: %v\n%s", r.err, r.stderr)
			}
			if !strings.Contains(r.stdout, "TestRateLimitBurst") {
				t.Errorf("prompt lost the failing test:\n%s", r.stdout)
			}
			if n := counter.Count(r.stdout); n > 2000 {
				t.Errorf("prompt is %d tokens, budget 2000", n)
			}
			if !strings.Contains(r.stderr, tt.wantStderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.wantStderr, r.stderr)
			}
			if list := runCLI(t, db, "", "list", "--json"); !strings.Contains(list.stdout, "7f3c2a1e") {
				t.Errorf("snapshot not stored: %s %v", list.stdout, list.err)
			}
		})
	}
}

package extractor

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
)

// TestRealReRunsSettleErrors: on real sessions, the reruns and reports
// that settle an error are recognised: vsla-gpu-cuda reran a benchmark
// from the repository root and used python3 after `python: command not
// found`; youtube-mcp reported, long after, that the blocked pytest
// install was worked around with unittest.
func TestRealReRunsSettleErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rel, command string
		want         handoff.Resolution
	}{
		{"claude-code/vsla-gpu-cuda-727lines.jsonl", "python3 competitors/cupy_benchmark.py", handoff.ResolutionFixed},
		{"claude-code/vsla-gpu-cuda-727lines.jsonl", "python run_benchmarks.py --help", handoff.ResolutionWorkaround},
		{"codex/youtube-mcp-codex0.106-exec_command-tdd.jsonl", "pip install --user pytest fastapi", handoff.ResolutionWorkaround},
	}
	for _, tt := range tests {
		t.Run(tt.rel+" "+tt.command, func(t *testing.T) {
			t.Parallel()
			f := facts.Compute(realMessages(t, tt.rel))
			seen := false
			for _, e := range f.Errors {
				if strings.Contains(e.Command, tt.command) {
					seen = true
					if e.Resolution != tt.want {
						t.Errorf("%q: %s, want %s", e.Command, e.Resolution, tt.want)
					}
				}
			}
			if !seen {
				t.Errorf("no error for %q", tt.command)
			}
		})
	}
}

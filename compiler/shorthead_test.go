package compiler

import (
	"strings"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
)

// TestShortHeadUpToThousand checks the head's forms by budget: up to
// shortHeadBudget the header is when and on which branch the session
// ended and the data note is short; above it the model and context use
// come back with the long note.
func TestShortHeadUpToThousand(t *testing.T) {
	t.Parallel()
	s := &handoff.Snapshot{
		Source:   handoff.SourceInfo{EndedAt: time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC), GitBranch: "main", Model: "local/qwen-coder"},
		Usage:    handoff.Usage{Model: "local/qwen-coder", TokensUsed: 50000, ContextWindow: 200000, ContextUtilization: 0.25},
		NextStep: "Run the tests.",
	}
	tests := []struct {
		budget int
		long   bool
	}{{500, false}, {shortHeadBudget, false}, {shortHeadBudget + 1, true}, {2000, true}}
	for _, tt := range tests {
		res, err := Compile(s, Options{Budget: tt.budget, Counter: testCounter(t)})
		if err != nil {
			t.Fatal(err)
		}
		head := strings.SplitN(res.Prompt, "\n", 4)
		if len(head) < 3 || !strings.Contains(head[1], "branch main") {
			t.Fatalf("budget %d: no header line with the branch:\n%s", tt.budget, res.Prompt)
		}
		if got := strings.Contains(head[1], "model local/qwen-coder") && strings.Contains(head[1], "context"); got != tt.long {
			t.Errorf("budget %d: header %q, want the long form %v", tt.budget, head[1], tt.long)
		}
		if got := head[2] == dataNote; got != tt.long {
			t.Errorf("budget %d: data note %q, want the long form %v", tt.budget, head[2], tt.long)
		}
	}
}

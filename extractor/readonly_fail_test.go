package extractor

import (
	"encoding/json"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
)

// TestFailedLookIsNotFolded: a read-only call that failed keeps its own
// line (the fold says "ok" for every call in it), except a search that
// found nothing, whose empty answer is an answer.
func TestFailedLookIsNotFolded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, cmd, out string
		exit           int
		want           string
	}{
		{"listing that worked", "ls src", "a.go\nb.go", 0, facts.LookList},
		{"listing of a missing directory", "ls /non-existent-directory", "ls: cannot access '/non-existent-directory': No such file or directory", 2, ""},
		{"read of a missing file", "cat notes.txt", "cat: notes.txt: No such file or directory", 1, ""},
		{"search that found nothing", "grep -rn TODO src", "", 1, facts.LookSearch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, _ := json.Marshal(map[string]string{"command": tt.cmd})
			c := handoff.ToolCall{ID: "c1", Name: "Bash", Input: in}
			exit := tt.exit
			r := handoff.ToolResult{CallID: "c1", Content: tt.out, ExitCode: &exit, IsError: exit != 0}
			if got, _ := facts.ReadOnlyCall(c, (&facts.Shapes{}).Classify(c), r, true, nil); got != tt.want {
				t.Errorf("readOnlyCall = %q, want %q", got, tt.want)
			}
		})
	}
}

package facts

import (
	"encoding/json"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

// TestProbeBatch: a step that runs a script on an input it must accept
// and one it must reject records no error for the rejection, whichever
// result comes first; a failure of a script run alone, of a test runner
// run on several files at once, or of a step with no passing sibling is
// still an error.
func TestProbeBatch(t *testing.T) {
	t.Parallel()
	type run struct {
		command, output string
		exit            int
	}
	step := func(c *sessiontest.Convo, runs ...run) {
		var calls []handoff.ToolCall
		for i, r := range runs {
			in, _ := json.Marshal(map[string]string{"command": r.command})
			calls = append(calls, handoff.ToolCall{ID: "s" + sessiontest.Itoa(len(c.Msgs)) + "_" + sessiontest.Itoa(i), Name: "shell_command", Input: in})
		}
		c.Push(handoff.Message{Role: handoff.RoleAssistant, ToolCalls: calls})
		for i, r := range runs {
			exit := r.exit
			c.Push(handoff.Message{Role: handoff.RoleTool, ToolResults: []handoff.ToolResult{{CallID: calls[i].ID, Content: r.output, IsError: exit != 0, ExitCode: &exit}}})
		}
	}
	const reject = "::error::Git Flow violation: PR to 'main' must come from release/*"
	tests := []struct {
		name  string
		build func(c *sessiontest.Convo)
		want  int // errors recorded
	}{
		{"accepted case first", func(c *sessiontest.Convo) {
			step(c, run{"bash scripts/validate-pr.sh develop feature/login", "OK", 0}, run{"bash scripts/validate-pr.sh main feature/login", reject, 1})
		}, 0},
		{"rejected case first", func(c *sessiontest.Convo) {
			step(c, run{"bash scripts/validate-pr.sh main feature/login", reject, 1}, run{"./scripts/validate-pr.sh develop feature/login", "OK", 0})
		}, 1}, // ./x and bash x are different heads: not the same script run
		{"rejected case first, same invocation", func(c *sessiontest.Convo) {
			step(c, run{"bash scripts/validate-pr.sh main feature/login", reject, 1}, run{"bash scripts/validate-pr.sh develop feature/login", "OK", 0})
		}, 0},
		{"the script alone", func(c *sessiontest.Convo) {
			step(c, run{"bash scripts/validate-pr.sh main feature/login", reject, 1})
		}, 1},
		{"the passing run in a later step", func(c *sessiontest.Convo) {
			step(c, run{"bash scripts/validate-pr.sh main feature/login", reject, 1})
			step(c, run{"bash scripts/validate-pr.sh develop feature/login", "OK", 0})
		}, 1},
		{"test files run at once", func(c *sessiontest.Convo) {
			step(c, run{"python -m pytest tests/test_a.py", "1 passed", 0}, run{"python -m pytest tests/test_b.py", "FAILED tests/test_b.py::test_x - AssertionError\n1 failed", 1})
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t).User("add a PR validator")
			tt.build(c)
			if got := Compute(c.Msgs).Errors; len(got) != tt.want {
				t.Errorf("errors = %+v, want %d", got, tt.want)
			}
		})
	}
}

package facts

import (
	"encoding/json"
	"testing"

	"github.com/handoff-cli/handoff"
)

// gemShell is a Gemini CLI shell result as its reader leaves it: the
// output, and the footer's error line when there was one (the frame
// itself is the reader's to drop: transcript.gemShellFrame).
func gemShell(output, errLine string) string {
	if errLine == "(none)" {
		return output
	}
	return output + "\nError: " + errLine
}

// TestReusedIDResultsReachTheirCalls: two Gemini calls in one turn share
// an id; the failure belongs to the first, the success to the second.
func TestReusedIDResultsReachTheirCalls(t *testing.T) {
	t.Parallel()
	in := func(cmd string) json.RawMessage {
		b, _ := json.Marshal(map[string]string{"command": cmd})
		return b
	}
	exit1, exit0 := 1, 0
	msgs := []handoff.Message{
		{Index: 0, Role: handoff.RoleUser, Text: "add a healthcheck"},
		{Index: 1, Role: handoff.RoleAssistant, Text: "Checking the endpoint.", ToolCalls: []handoff.ToolCall{
			{ID: "run-7", Name: "run_shell_command", Input: in("docker exec wa wget -qO- http://127.0.0.1:3000/healthz")},
			{ID: "run-7", Name: "run_shell_command", Input: in(`grep -rn "health" src/server.ts`)},
		}},
		{Index: 2, Role: handoff.RoleTool, ToolResults: []handoff.ToolResult{
			{CallID: "run-7", Name: "run_shell_command", ExitCode: &exit1, Content: gemShell("  HTTP/1.1 404 Not Found", "wget: server returned error: HTTP/1.1 404 Not Found")},
			{CallID: "run-7", Name: "run_shell_command", ExitCode: &exit0, Content: gemShell("src/server.ts:31:app.get('/status')", "(none)")},
		}},
	}
	f := Compute(msgs)
	if len(f.Errors) != 1 {
		t.Fatalf("errors = %+v, want one", f.Errors)
	}
	e := f.Errors[0]
	if e.Command != "docker exec wa wget -qO- http://127.0.0.1:3000/healthz" || e.Resolution != handoff.ResolutionUnresolved {
		t.Errorf("error = %q (%s), want the wget, open", e.Command, e.Resolution)
	}
}

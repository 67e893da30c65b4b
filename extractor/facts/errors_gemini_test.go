package facts

import (
	"encoding/json"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

// gemShell is a Gemini CLI shell result in its frame.
func gemShell(cmd, output, errLine string, exit int) string {
	return "Command: " + cmd + "\nDirectory: (root)\nOutput: " + output + "\nError: " + errLine +
		"\nExit Code: " + sessiontest.Itoa(exit) + "\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 40021"
}

// TestGeminiShellFrame: the frame Gemini CLI puts around shell output is
// not output; "Error: (none)" is never a failure headline, and a real
// error line inside the output still is.
func TestGeminiShellFrame(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, content, want string }{
		{"clean run", gemShell("docker build .", "[+] Building 12.4s (15/15) FINISHED\nunhealthy", "(none)", 0), "[+] Building 12.4s (15/15) FINISHED"},
		{"error in the output", gemShell("node -e x", "[+] Building\nError: Could not load the \"sharp\" module", "(none)", 1), `Error: Could not load the "sharp" module`},
		{"error in the footer", gemShell("wget -qO- http://h/healthz", "  HTTP/1.1 404 Not Found", "wget: server returned error: HTTP/1.1 404 Not Found", 1), "Error: wget: server returned error: HTTP/1.1 404 Not Found"},
		{"empty output", gemShell("false", "(empty)", "(none)", 1), "(no output)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := failingLine(tt.content); got != tt.want {
				t.Errorf("failingLine = %q, want %q", got, tt.want)
			}
		})
	}
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
			{CallID: "run-7", Name: "run_shell_command", ExitCode: &exit1, Content: gemShell("docker exec wa wget -qO- http://127.0.0.1:3000/healthz", "  HTTP/1.1 404 Not Found", "wget: server returned error: HTTP/1.1 404 Not Found", 1)},
			{CallID: "run-7", Name: "run_shell_command", ExitCode: &exit0, Content: gemShell(`grep -rn "health" src/server.ts`, "src/server.ts:31:app.get('/status')", "(none)", 0)},
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

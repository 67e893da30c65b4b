package transcript

import (
	"context"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestGeminiRecordParts: a chat record may carry its body as API-shaped
// parts[] instead of content; its text is the message's text, its
// thought parts its thinking.
func TestGeminiRecordParts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, record, text, thinking string
	}{
		{"content string", `{"id":"m2","type":"gemini","content":"Ok"}`, "Ok", ""},
		{"parts on a model record", `{"id":"m2","type":"model","parts":[{"text":"Ok"}]}`, "Ok", ""},
		{"thought part apart", `{"id":"m2","type":"model","parts":[{"text":"weighing it","thought":true},{"text":"Done."}]}`, "Done.", "weighing it"},
		{"parts after content", `{"id":"m2","type":"gemini","content":"First.","parts":[{"text":"Second."}]}`, "First.\nSecond.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := "{\n" + `"sessionId":"s","messages":[{"id":"m1","type":"user","content":"Step 1"},` + tt.record + `]}`
			tr, err := Parse(context.Background(), strings.NewReader(in), Options{Format: FormatGemini, Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Messages) != 2 {
				t.Fatalf("got %d messages, want 2 (the reply was dropped)", len(tr.Messages))
			}
			m := tr.Messages[1]
			if m.Text != tt.text || m.Thinking != tt.thinking {
				t.Errorf("text %q thinking %q, want %q and %q", m.Text, m.Thinking, tt.text, tt.thinking)
			}
		})
	}
}

// TestGeminiShellFrame: the shell tool's header and the footer fields
// that say nothing happened (or repeat the exit code, read into the
// result) are not output; the output and a real error stay.
func TestGeminiShellFrame(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"clean run",
			"Command: ls\nDirectory: (root)\nOutput: a.go\nError: (none)\nExit Code: 0\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 40001",
			"a.go"},
		{"real error kept",
			"Command: wget x\nDirectory: (root)\nOutput: 404\nError: wget: server returned error\nExit Code: 1\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: (none)",
			"404\nError: wget: server returned error"},
		{"output over lines, empty output label dropped",
			"Command: make\nDirectory: (root)\nOutput: cc -o app main.c\nmain.c:3: error: x undeclared\nError: (none)\nExit Code: 2",
			"cc -o app main.c\nmain.c:3: error: x undeclared"},
		{"no output", "Command: false\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 1", ""},
		{"numbered footer fields", "Command: ls /nope\nDirectory: /tmp\nOutput: ls: /nope: No such file or directory\nError: (none)\nExit Code: 1\nSignal: 0\nBackground PIDs: 812, 813\nProcess Group PGID: 12346",
			"ls: /nope: No such file or directory"},
		{"not the shell frame", "Error: (none)\nSignal: (none)", "Error: (none)\nSignal: (none)"},
		{"a command echo with no footer is not the frame", `Command: ls\nDirectory: /tmp\nOutput: x`, `Command: ls\nDirectory: /tmp\nOutput: x`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := gemShellFrame(tt.in); got != tt.want {
				t.Errorf("gemShellFrame = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestGemCommand(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, tool, summary, want string }{
		{"description dropped", "Shell", "pytest --spec (Run the test suite to see the current specifications.)", "pytest --spec"},
		{"chained command", "Shell", "source .venv/bin/activate && pytest -q (Activate the environment and run tests.)", "source .venv/bin/activate && pytest -q"},
		{"no description", "Shell", "git status", "git status"},
		{"subshell kept", "Shell", "echo $(date) (x.)", "echo $(date) (x.)"},
		{"other tools untouched", "ReadFile", "notes.md (Read the notes.)", "notes.md (Read the notes.)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := gemCommand(tt.tool, tt.summary); got != tt.want {
				t.Errorf("gemCommand(%q, %q) = %q, want %q", tt.tool, tt.summary, got, tt.want)
			}
		})
	}
}

// TestGeminiRepeatedCallIDs: two calls of one turn that share an id keep
// their own embedded results.
func TestGeminiRepeatedCallIDs(t *testing.T) {
	t.Parallel()
	doc := `{"sessionId":"s","messages":[
{"id":"m1","type":"user","content":"check the health endpoint"},
{"id":"m2","type":"gemini","content":"","toolCalls":[
 {"id":"sh-1","name":"run_shell_command","args":{"command":"wget x"},"status":"success","result":[{"functionResponse":{"id":"sh-1","name":"run_shell_command","response":{"output":"Output: 404\nExit Code: 1"}}}]},
 {"id":"sh-1","name":"run_shell_command","args":{"command":"grep y"},"status":"success","result":[{"functionResponse":{"id":"sh-1","name":"run_shell_command","response":{"output":"Output: src/a.ts:1\nExit Code: 0"}}}]}]}]}`
	tr, err := Parse(context.Background(), strings.NewReader("{\n"+doc[1:]), Options{Format: FormatGemini})
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]string{}
	results := map[string]handoff.ToolResult{}
	for _, m := range tr.Messages {
		for _, c := range m.ToolCalls {
			calls[c.ID] = string(c.Input)
		}
		for _, r := range m.ToolResults {
			results[r.CallID] = r
		}
	}
	if len(calls) != 2 || len(results) != 2 {
		t.Fatalf("calls %v, results %v: want two of each under distinct ids", calls, results)
	}
	for id, in := range calls {
		r := results[id]
		if strings.Contains(in, "wget") != r.Failed() {
			t.Errorf("call %s (%s) got result %+v", id, in, r)
		}
	}
}

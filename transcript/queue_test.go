package transcript

import (
	"context"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestClaudeQueuedMessages: what the person typed while the agent worked
// (queue-operation enqueue) is their newest message until the harness
// delivers it; delivered, taken back or a harness token, it adds nothing.
func TestClaudeQueuedMessages(t *testing.T) {
	head := `{"type":"user","uuid":"u1","sessionId":"s","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"Rename the workflow files"}}
{"type":"assistant","uuid":"a1","sessionId":"s","timestamp":"2026-01-01T00:00:01Z","message":{"id":"r1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"mv a.md A.md"}}]}}
`
	enqueue := `{"type":"queue-operation","operation":"enqueue","content":"stop, you renamed the wrong folder","sessionId":"s","timestamp":"2026-01-01T00:00:02Z"}
`
	tests := []struct {
		name string
		tail string
		want string // the last user message's text, "" for the original request
	}{
		{"still queued at the end", enqueue, "stop, you renamed the wrong folder"},
		{"queued as content blocks", `{"type":"queue-operation","operation":"enqueue","content":[{"type":"text","text":"also keep a backup"}],"sessionId":"s","timestamp":"2026-01-01T00:00:02Z"}
`, "also keep a backup"},
		{"delivered", enqueue + `{"type":"queue-operation","operation":"dequeue","sessionId":"s","timestamp":"2026-01-01T00:00:03Z"}
`, ""},
		{"taken back", enqueue + `{"type":"queue-operation","operation":"remove","content":"stop, you renamed the wrong folder","sessionId":"s","timestamp":"2026-01-01T00:00:03Z"}
`, ""},
		{"a harness token", `{"type":"queue-operation","operation":"enqueue","content":"tool_result","sessionId":"s","timestamp":"2026-01-01T00:00:02Z"}
`, ""},
		{"malformed queue line", `{"type":"queue-operation","operation":"enqueue","content":{}}
`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Parse(context.Background(), strings.NewReader(head+tt.tail), Options{Format: FormatClaudeCode})
			if err != nil {
				t.Fatal(err)
			}
			var last string
			for _, m := range tr.Messages {
				if m.Role == handoff.RoleUser && m.Text != "" {
					last = m.Text
				}
			}
			want := tt.want
			if want == "" {
				want = "Rename the workflow files"
			}
			if last != want {
				t.Errorf("last user message %q, want %q", last, want)
			}
		})
	}
}

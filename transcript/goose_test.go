package transcript

import (
	"context"
	"strings"
	"testing"
)

// TestGooseToolResultShapes reads a tool response in each shape Goose
// writes (crates/goose/src/conversation/tool_result_serde.rs): the legacy
// list of content items, the MCP CallToolResult with its isError flag,
// and an error status; and a frontendToolRequest as a call.
func TestGooseToolResultShapes(t *testing.T) {
	t.Parallel()
	head := `{"working_dir":"/w","description":"d"}` + "\n" +
		`{"id":"a","role":"assistant","created":1,"content":[{"type":"%s","id":"c1","toolCall":{"status":"success","value":{"name":"developer__shell","arguments":{"command":"make"}}}}]}` + "\n"
	for _, tc := range []struct {
		name, call, result string
		want               string
		isError            bool
	}{
		{"legacy list", "toolRequest", `{"status":"success","value":[{"type":"text","text":"built"}]}`, "built", false},
		{"CallToolResult", "toolRequest", `{"status":"success","value":{"content":[{"type":"text","text":"built"},{"type":"text","text":"ok"}],"isError":false}}`, "built\nok", false},
		{"CallToolResult failed", "toolRequest", `{"status":"success","value":{"content":[{"type":"text","text":"make: *** Error 2"}],"isError":true}}`, "make: *** Error 2", true},
		{"error status", "toolRequest", `{"status":"error","error":"no such tool"}`, "no such tool", true},
		{"frontend call", "frontendToolRequest", `{"status":"success","value":{"content":[{"type":"text","text":"done"}]}}`, "done", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := strings.Replace(head, "%s", tc.call, 1) +
				`{"id":"r","role":"user","created":2,"content":[{"type":"toolResponse","id":"c1","toolResult":` + tc.result + `}]}` + "\n"
			tr, err := Parse(context.Background(), strings.NewReader(in), Options{Format: FormatGoose, Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			var calls, results int
			for _, m := range tr.Messages {
				calls += len(m.ToolCalls)
				for _, r := range m.ToolResults {
					results++
					if r.CallID != "c1" || r.Name != "developer__shell" || r.Content != tc.want || r.IsError != tc.isError {
						t.Errorf("result = %+v, want call c1 of developer__shell, content %q, IsError %v", r, tc.want, tc.isError)
					}
				}
			}
			if calls != 1 || results != 1 {
				t.Errorf("%d calls, %d results, want 1 and 1", calls, results)
			}
		})
	}
}

package transcript

import (
	"context"
	"strings"
	"testing"
)

// TestOpenHandsFinishTextOnce: OpenHands often writes the finish message
// into both the thought and the message; the assistant said it once.
func TestOpenHandsFinishTextOnce(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, thought, message, want string }{
		{"same text twice", "I built the game.", "I built the game.", "I built the game."},
		{"message holds the thought", "Done.", "Done. The game runs on port 8000.", "Done. The game runs on port 8000."},
		{"different texts", "Checking once more.", "I built the game.", "Checking once more.\nI built the game."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := `[{"id":0,"source":"user","action":"message","args":{"content":"build a game"}},` +
				`{"id":1,"source":"agent","action":"finish","message":` + quoteJSON(tt.message) + `,"args":{"thought":` + quoteJSON(tt.thought) + `}}]`
			tr, err := Parse(context.Background(), strings.NewReader(in), Options{Format: FormatOpenHands, Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			if got := tr.Messages[len(tr.Messages)-1].Text; got != tt.want {
				t.Errorf("finish text = %q, want %q", got, tt.want)
			}
		})
	}
}

func quoteJSON(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

// TestOpenHandsObservationCause: an observation answers the action its
// cause names, even when its tool_call_id differs from the action's or
// the action carries no tool metadata at all.
func TestOpenHandsObservationCause(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, action, observation, want string
	}{
		{"ids agree",
			`{"id":4,"source":"agent","action":"run","args":{"command":"pytest"},"tool_call_metadata":{"function_name":"execute_bash","tool_call_id":"call_a"}}`,
			`{"id":5,"source":"agent","observation":"run","cause":4,"content":"3 passed","extras":{"metadata":{"exit_code":0}},"tool_call_metadata":{"function_name":"execute_bash","tool_call_id":"call_a"}}`,
			"call_a"},
		{"ids differ: cause wins",
			`{"id":4,"source":"agent","action":"run","args":{"command":"pytest"},"tool_call_metadata":{"function_name":"execute_bash","tool_call_id":"call_a"}}`,
			`{"id":5,"source":"agent","observation":"run","cause":4,"content":"3 passed","extras":{"metadata":{"exit_code":0}},"tool_call_metadata":{"function_name":"execute_bash","tool_call_id":"call_b"}}`,
			"call_a"},
		{"no metadata: the event id links them",
			`{"id":"4","source":"agent","action":"run","args":{"command":"pytest"}}`,
			`{"id":5,"source":"agent","observation":"run","cause":"4","content":"3 passed","extras":{"exit_code":0}}`,
			"oh-event-4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := `[{"id":0,"source":"user","action":"message","args":{"content":"run the tests"}},` + tt.action + `,` + tt.observation + `]`
			tr, err := Parse(context.Background(), strings.NewReader(in), Options{Format: FormatOpenHands, Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			var callID, resultID string
			for _, m := range tr.Messages {
				for _, c := range m.ToolCalls {
					callID = c.ID
				}
				for _, r := range m.ToolResults {
					resultID = r.CallID
				}
			}
			if callID != tt.want || resultID != tt.want {
				t.Errorf("call id %q, result id %q, want both %q", callID, resultID, tt.want)
			}
		})
	}
}

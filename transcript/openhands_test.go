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

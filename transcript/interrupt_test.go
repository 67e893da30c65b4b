package transcript

import (
	"context"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestInterruptRecorded: each format's record of the person stopping a
// turn is one Meta message marked Interrupt; Codex's marker message and
// its turn_aborted event are one interruption, not two.
func TestInterruptRecorded(t *testing.T) {
	t.Parallel()
	codexStart := `{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"s"}}
{"timestamp":"2026-01-01T00:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}}
`
	event := `{"timestamp":"2026-01-01T00:00:02Z","type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted"}}` + "\n"
	marker := `{"timestamp":"2026-01-01T00:00:02Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<turn_aborted>\nThe user interrupted the previous turn on purpose.\n</turn_aborted>"}]}}` + "\n"
	tests := []struct {
		name, in string
		format   Format
		want     string // the interruption's text; "" for none
	}{
		{"codex event alone", codexStart + event, FormatCodex, "turn aborted: interrupted"},
		{"codex marker then event", codexStart + marker + event, FormatCodex, "<turn_aborted>"},
		{"claude code marker", ccUser("u1", `"Fix the parser."`) + "\n" + ccUser("u2", `"[Request interrupted by user]"`) + "\n", FormatClaudeCode, "[Request interrupted by user]"},
		{"gemini cli notice, in a chat document on one line", `{"sessionId":"s","projectHash":"p","startTime":"2026-01-01T00:00:00Z","messages":[{"id":"m1","timestamp":"2026-01-01T00:00:01Z","type":"user","content":"Run it"},{"id":"m2","timestamp":"2026-01-01T00:00:02Z","type":"info","content":"Request cancelled."},{"id":"m3","timestamp":"2026-01-01T00:00:03Z","type":"gemini","content":"Stopped."}]}`, FormatGemini, "Request cancelled."},
		{"a person saying cancel", ccUser("u1", `"Request cancelled."`) + "\n", FormatClaudeCode, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Parse(context.Background(), strings.NewReader(tt.in), Options{Format: tt.format})
			if err != nil {
				t.Fatal(err)
			}
			var got []handoff.Message
			for _, m := range tr.Messages {
				if m.Interrupt {
					got = append(got, m)
				}
			}
			if tt.want == "" {
				if len(got) != 0 {
					t.Errorf("interruptions %+v, want none", got)
				}
				return
			}
			if len(got) != 1 || !got[0].Meta || !strings.HasPrefix(got[0].Text, tt.want) {
				t.Errorf("interruptions %+v, want one Meta message starting %q", got, tt.want)
			}
		})
	}
}

package transcript

import (
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestDecoderMessagesFrom: Len and MessagesFrom read back only the tail a
// live reader asks for; a later line that changes a message in place (a
// Codex token_count attaching usage) shows on the next read, never in a
// copy already handed out.
func TestDecoderMessagesFrom(t *testing.T) {
	t.Parallel()
	d, err := NewDecoder(FormatCodex, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lines := []string{
		`{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"s1","cwd":"/w"}}`,
		`{"timestamp":"2026-01-01T00:00:01Z","type":"event_msg","payload":{"type":"task_started","model_context_window":1000}}`,
		`{"timestamp":"2026-01-01T00:00:02Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"fix it"}]}}`,
		`{"timestamp":"2026-01-01T00:00:03Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"cmd\":\"ls\"}","call_id":"c1"}}`,
		`{"timestamp":"2026-01-01T00:00:04Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"a.go"}}`,
	}
	lens := []int{0, 0, 1, 2, 3}
	for i, l := range lines {
		if err := d.Feed([]byte(l)); err != nil {
			t.Fatal(err)
		}
		if d.Len() != lens[i] {
			t.Fatalf("after line %d Len() = %d, want %d", i+1, d.Len(), lens[i])
		}
	}
	if s := d.Session(); s.ID != "s1" || s.ContextWindow != 1000 {
		t.Errorf("Session() = %+v, want id s1 and window 1000", s)
	}
	if got := d.MessagesFrom(3); got != nil {
		t.Errorf("MessagesFrom(Len()) = %v, want nil", got)
	}
	tail := d.MessagesFrom(1)
	if len(tail) != 2 || tail[0].Role != handoff.RoleAssistant || tail[0].Index != 1 || tail[1].Role != handoff.RoleTool {
		t.Fatalf("MessagesFrom(1) = %+v, want the assistant call and its output", tail)
	}
	if tail[0].Usage != nil {
		t.Fatal("usage before any token_count")
	}
	tail[0].ToolCalls[0].Name = "changed by the caller"

	tokenCount := `{"timestamp":"2026-01-01T00:00:05Z","type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"input_tokens":700,"cached_input_tokens":200,"output_tokens":30},"model_context_window":1000}}}`
	if err := d.Feed([]byte(tokenCount)); err != nil {
		t.Fatal(err)
	}
	if d.Len() != 3 {
		t.Fatalf("a token_count added a message: Len() = %d", d.Len())
	}
	if tail[0].Usage != nil {
		t.Error("a copy handed out earlier changed under the caller")
	}
	again := d.MessagesFrom(-1)
	if len(again) != 3 {
		t.Fatalf("MessagesFrom(-1) returned %d messages, want all 3", len(again))
	}
	u := again[1].Usage
	if u == nil || u.ContextTokens() != 700 || u.OutputTokens != 30 || u.ContextWindow != 1000 {
		t.Errorf("re-read assistant usage %+v, want 700 in context, 30 out, window 1000", u)
	}
	if again[1].ToolCalls[0].Name != "shell" {
		t.Errorf("the caller's edit reached the decoder: tool %q", again[1].ToolCalls[0].Name)
	}
	u.OutputTokens = 1
	if d.MessagesFrom(1)[0].Usage.OutputTokens != 30 {
		t.Error("a copy's usage shares memory with the decoder")
	}

	one, ok := d.Message(1)
	if !ok || one.Index != 1 || one.Usage == nil || one.Usage.OutputTokens != 30 {
		t.Fatalf("Message(1) = %+v, %v; want the assistant message with its usage", one, ok)
	}
	one.Usage.OutputTokens = 2
	one.ToolCalls[0].Name = "edited"
	if again, _ := d.Message(1); again.Usage.OutputTokens != 30 || again.ToolCalls[0].Name != "shell" {
		t.Error("a copy from Message shares memory with the decoder")
	}
	for _, i := range []int{-1, 3} {
		if m, ok := d.Message(i); ok || m.Role != "" {
			t.Errorf("Message(%d) = %+v, %v; want none", i, m, ok)
		}
	}
}

// TestDecoderMultiLine: formats whose records span lines say so, line-
// based ones do not, and OpenAI chat / Gemini decide by what they read.
func TestDecoderMultiLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		format Format
		first  string
		want   bool
	}{
		{"claude code", FormatClaudeCode, `{"type":"summary","summary":"x","leafUuid":"u"}`, false},
		{"codex", FormatCodex, `{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"s"}}`, false},
		{"codex exec", FormatCodexExec, `{"type":"thread.started","thread_id":"t"}`, false},
		{"openai jsonl", FormatOpenAIChat, `{"role":"user","content":"hi"}`, false},
		{"openai document", FormatOpenAIChat, `[`, true},
		{"gemini jsonl", FormatGemini, `{"sessionId":"s","projectHash":"p","startTime":"2026-01-01T00:00:00Z"}`, false},
		{"gemini document", FormatGemini, `{`, true},
		{"plain", FormatPlain, `User: hi`, true},
		{"aider", FormatAider, `# aider chat started at 2026-01-01 00:00:00`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := NewDecoder(tt.format, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Feed([]byte(tt.first)); err != nil {
				t.Fatal(err)
			}
			if got := d.MultiLine(); got != tt.want {
				t.Errorf("MultiLine() = %v after %q, want %v", got, tt.first, tt.want)
			}
		})
	}
}

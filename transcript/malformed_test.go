package transcript

import (
	"context"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestMalformedEveryFormat feeds every format a damaged record in the
// middle and a cut-short end. A damaged record is skipped with one
// counted warning and the rest is read; --strict makes it an EINVALID
// error naming where; a cut-short end is a warning even in strict mode
// and the records before it are kept. Text formats have no records to
// damage beyond their encoding: invalid UTF-8 is replaced with a
// warning.
func TestMalformedEveryFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		format Format
		// damaged has one bad record among good ones; truncated is cut
		// inside its last record.
		damaged, truncated string
		// messages expected from damaged (lenient) and truncated.
		damagedMsgs, truncatedMsgs int
		// textual: damaged is bad encoding, a warning in strict mode too.
		textual bool
	}{
		{FormatClaudeCode,
			ccUser("u1", `"hi"`) + "\n{broken\n" + ccUser("u2", `"again"`) + "\n",
			ccUser("u1", `"hi"`) + "\n" + ccUser("u2", `"again"`)[:30], 2, 1, false},
		{FormatClaudeStream,
			`{"type":"system","subtype":"init","session_id":"s"}` + "\n" + `{"type":"assistant","session_id":"s","message":{"id":"m","role":"assistant","content":"hi"}}` + "\n{\"type\":\n" + `{"type":"user","session_id":"s","message":{"role":"user","content":"ok"}}` + "\n",
			`{"type":"system","subtype":"init","session_id":"s"}` + "\n" + `{"type":"assistant","session_id":"s","message":{"id":"m","role":"assistant","content":"hi"}}` + "\n" + `{"type":"user","sessi`, 2, 1, false},
		{FormatCodex,
			`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"a"}]}}` + "\n" + `{"type":"response_item","payload":[1]` + "\n" + `{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"b"}]}}` + "\n",
			`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"a"}]}}` + "\n" + `{"type":"response_item","payload":{"type":"mess`, 2, 1, false},
		{FormatCodexExec,
			`{"type":"thread.started","thread_id":"t"}` + "\n" + `{"type":"item.completed","item":{"id":"1","type":"agent_message","text":"a"}}` + "\n" + `{"type":"item.completed"}` + "\n" + `{"type":"item.completed","item":{"id":"2","type":"agent_message","text":"b"}}` + "\n",
			`{"type":"item.completed","item":{"id":"1","type":"agent_message","text":"a"}}` + "\n" + `{"type":"item.completed","item":{"id":"2","ty`, 2, 1, false},
		{FormatGemini,
			`{"sessionId":"s","projectHash":"h"}` + "\n" + `{"id":"1","type":"user","content":"a"}` + "\n" + `{"id":"2","type":"gemini","content":5}` + "\n" + `{"id":"3","type":"gemini","content":"b"}` + "\n",
			`{"sessionId":"s","projectHash":"h"}` + "\n" + `{"id":"1","type":"user","content":"a"}` + "\n" + `{"id":"2","type":"gem`, 2, 1, false},
		{FormatGemini,
			"{\n \"sessionId\": \"s\", \"projectHash\": \"h\",\n \"messages\": [\n  {\"id\": \"1\", \"type\": \"user\", \"content\": \"a\"},\n  {\"id\": \"2\", \"type\": \"alien\"},\n  {\"id\": \"3\", \"type\": \"gemini\", \"content\": \"b\"}\n ]\n}\n",
			"{\n \"sessionId\": \"s\", \"projectHash\": \"h\",\n \"messages\": [\n  {\"id\": \"1\", \"type\": \"user\", \"content\": \"a\"},\n  {\"id\": \"2\", \"type\": \"gemini\", \"cont", 2, 1, false},
		{FormatGemini,
			`[{"role":"user","parts":[{"text":"a"}]},{"role":"robot","parts":[]},{"role":"model","parts":[{"text":"b"}]}]`,
			`[{"role":"user","parts":[{"text":"a"}]},{"role":"model","parts":[{"te`, 2, 1, false},
		{FormatOpenHands,
			`[{"id":0,"source":"user","action":"message","args":{"content":"a"}},{"id":1,"source":"agent"},{"id":2,"source":"agent","action":"message","args":{"content":"b"}}]`,
			`[{"id":0,"source":"user","action":"message","args":{"content":"a"}},{"id":1,"source":"agent","act`, 2, 1, false},
		{FormatCline,
			`[{"ts":1,"type":"say","say":"task","text":"a"},{"ts":2,"type":7},{"ts":3,"type":"say","say":"text","text":"b"}]`,
			`[{"ts":1,"type":"say","say":"task","text":"a"},{"ts":3,"type":"say","say":"te`, 2, 1, false},
		{FormatSWEAgent,
			`{"trajectory":[],"history":[{"role":"user","content":"fix"},{"role":"alien","content":"?"},{"role":"assistant","content":"ok","action":"ls"}],"info":{}}`,
			`{"trajectory":[],"history":[{"role":"user","content":"fix"},{"role":"assistant","content":"o`, 2, 1, false},
		{FormatAnthropic,
			`{"model":"m","system":"be brief","messages":[{"role":"user","content":"a"},{"role":"user","content":7},{"role":"assistant","content":[{"type":"text","text":"b"}]}]}`,
			`{"model":"m","system":"be brief","messages":[{"role":"user","content":"a"},{"role":"assistant","content":[{"ty`, 3, 2, false},
		{FormatOpenAIResponses,
			`{"model":"m","input":[{"role":"user","content":"a"},{"foo":1},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"b"}]}]}`,
			`{"model":"m","input":[{"role":"user","content":"a"},{"type":"mess`, 2, 1, false},
		{FormatOpenAIChat,
			`{"role":"user","content":"a"}` + "\n" + `{"role":7}` + "\n" + `{"role":"assistant","content":"b"}` + "\n",
			`{"role":"user","content":"a"}` + "\n" + `{"role":"assis`, 2, 1, false},
		{FormatSpecStory,
			"<!-- Generated by SpecStory -->\n\n_**User (2026-01-16 16:48:38Z)**_\n\nhi \xff\n\n_**Agent (m 2026-01-16 16:48:40Z)**_\n\nok\n",
			"<!-- Generated by SpecStory -->\n\n_**User (2026-01-16 16:48:38Z)**_\n\nhi\n\n_**Agent (m 2026-01-16 16:48:40Z)**_\n\n<tool-use data-tool-name=\"Bash\"><details>\n<summary>Tool use: **Bash** `make`</summary>\nbuil", 2, 3, true},
		{FormatAider,
			"# aider chat started at 2025-07-15 11:38:37\n\n#### hi \xff\n\nok\n",
			"# aider chat started at 2025-07-15 11:38:37\n\n#### hi\n\nok, here is th", 2, 2, true},
		{FormatClaudeConsole,
			"> hi \xff\n\n⏺ ok\n",
			"> hi\n\n⏺ Bash(make)…\n  ⎿  Error: bui", 2, 3, true},
		{FormatGeminiConsole,
			"> hi \xff\n\n✦ ok\n",
			"> hi\n\n✦ ok\n ╭────╮\n │ ✔  Shell make │\n │    bui", 2, 3, true},
		{FormatPlain, "User: hi \xff\nAssistant: ok\n", "User: hi\nAssistant: o", 2, 2, true},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(string(tt.format), func(t *testing.T) {
			tr, err := Parse(ctx, strings.NewReader(tt.damaged), Options{Format: tt.format})
			if err != nil {
				t.Fatalf("damaged, lenient: %v", err)
			}
			checkInvariants(t, tr)
			if len(tr.Warnings) != 1 || len(tr.Messages) != tt.damagedMsgs {
				t.Errorf("damaged: %d messages, warnings %+v; want %d messages, 1 warning", len(tr.Messages), tr.Warnings, tt.damagedMsgs)
			}
			_, err = Parse(ctx, strings.NewReader(tt.damaged), Options{Format: tt.format, Strict: true})
			switch {
			case tt.textual && err != nil:
				t.Errorf("damaged encoding, strict: %v; want a warning only", err)
			case !tt.textual && (err == nil || handoff.ErrorCode(err) != handoff.EINVALID):
				t.Errorf("damaged, strict: %v; want EINVALID", err)
			}
			tr, err = Parse(ctx, strings.NewReader(tt.truncated), Options{Format: tt.format, Strict: true})
			if err != nil {
				t.Fatalf("truncated, strict: %v; a cut-short end is not an error", err)
			}
			checkInvariants(t, tr)
			if len(tr.Messages) != tt.truncatedMsgs {
				t.Errorf("truncated: %d messages, want %d", len(tr.Messages), tt.truncatedMsgs)
			}
			if !tt.textual && len(tr.Warnings) != 1 {
				t.Errorf("truncated: warnings %+v, want 1", tr.Warnings)
			}
		})
	}
}

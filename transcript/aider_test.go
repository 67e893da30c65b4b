package transcript

import (
	"context"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// An answer typed at one of Aider's confirmations is logged as a "####"
// line like a request; it is harness traffic, not the person's words.
func TestAiderConfirmationAnswersAreMeta(t *testing.T) {
	t.Parallel()
	log := "\n# aider chat started at 2025-01-01 10:00:00\n\n#### fix the hotkey bug  \n\nSend me the files.\n\n" +
		"> src/hotkey.ts  \n> Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: a  \n\n" +
		"#### Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: all  \n\n" +
		"Files received.\n\n#### why does it repeat the text? (Y)es, I mean it  \n"
	tr, err := Parse(context.Background(), strings.NewReader(log), Options{Format: FormatAider})
	if err != nil {
		t.Fatal(err)
	}
	var requests []string
	for _, m := range tr.Messages {
		if m.Role == "user" && !m.Meta {
			requests = append(requests, m.Text)
		}
	}
	want := []string{"fix the hotkey bug", "why does it repeat the text? (Y)es, I mean it"}
	if strings.Join(requests, "|") != strings.Join(want, "|") {
		t.Errorf("requests %q, want %q", requests, want)
	}
}

// "#### /run cmd" (or /test, or !cmd) is a shell call the person made
// through Aider; the "> " block after it is the call's output, without
// Aider's question whether to add it to the chat.
func TestAiderRunIsAShellCall(t *testing.T) {
	t.Parallel()
	log := "\n# aider chat started at 2025-03-05 21:02:44\n\n#### fix the month parser  \n\nFixed.\n\n" +
		"#### /run pytest -q  \n\n> .................  \n> 17 passed in 0.38s  \n" +
		"> Add 0.1k tokens of command output to the chat? (Y)es/(N)o [Yes]: n  \n\n#### thanks  \n"
	tr, err := Parse(context.Background(), strings.NewReader(log), Options{Format: FormatAider})
	if err != nil {
		t.Fatal(err)
	}
	var calls []handoff.ToolCall
	var results []handoff.ToolResult
	for _, m := range tr.Messages {
		calls = append(calls, m.ToolCalls...)
		results = append(results, m.ToolResults...)
	}
	if len(calls) != 1 || string(calls[0].Input) != `{"command":"pytest -q"}` {
		t.Fatalf("calls %+v, want one run of pytest -q", calls)
	}
	if len(results) != 1 || results[0].CallID != calls[0].ID || results[0].Content != ".................\n17 passed in 0.38s" {
		t.Errorf("results %+v, want the output paired with %q", results, calls[0].ID)
	}
}

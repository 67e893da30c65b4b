package transcript

import (
	"context"
	"strings"
	"testing"
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

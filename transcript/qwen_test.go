package transcript

import (
	"context"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestQwenUserRecords reads what the person typed from a prompt record's
// displayText (not the hook context its parts add), and a notification
// record as harness text.
func TestQwenUserRecords(t *testing.T) {
	t.Parallel()
	in := `{"uuid":"a","parentUuid":null,"sessionId":"s","timestamp":"2026-01-01T00:00:00Z","type":"user","cwd":"/w","version":"1",` +
		`"systemPayload":{"displayText":"Fix the parser.","hookContext":"ctx"},"message":{"role":"user","parts":[{"text":"Fix the parser."},{"text":"<qwen:user-prompt-submit-context>\nctx\n</qwen:user-prompt-submit-context>"}]}}` + "\n" +
		`{"uuid":"b","parentUuid":"a","sessionId":"s","timestamp":"2026-01-01T00:00:01Z","type":"user","subtype":"notification","cwd":"/w","version":"1",` +
		`"systemPayload":{"displayText":"Background task finished."},"message":{"role":"user","parts":[{"text":"Background task finished."}]}}` + "\n"
	tr, err := Parse(context.Background(), strings.NewReader(in), Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Session.Format != string(FormatQwen) || len(tr.Messages) != 2 {
		t.Fatalf("format %s, %d messages", tr.Session.Format, len(tr.Messages))
	}
	want := []struct {
		text string
		meta bool
	}{{"Fix the parser.", false}, {"Background task finished.", true}}
	for i, w := range want {
		m := tr.Messages[i]
		if m.Role != handoff.RoleUser || m.Text != w.text || m.Meta != w.meta {
			t.Errorf("message %d: %s %q meta=%v, want %q meta=%v", i, m.Role, m.Text, m.Meta, w.text, w.meta)
		}
	}
}

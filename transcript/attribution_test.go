package transcript

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestClineAttribution: the task Cline says as its first "text" is the
// person's; read-only tools' "content" is not an edit; a failed API
// request nobody answered ends the session.
func TestClineAttribution(t *testing.T) {
	t.Parallel()
	doc := `[
{"ts": 1736000000000, "type": "say", "say": "text", "text": "Add rate limiting to the login route", "images": []},
{"ts": 1736000001000, "type": "say", "say": "api_req_started", "text": "{\"tokensIn\": 10, \"tokensOut\": 5}"},
{"ts": 1736000002000, "type": "say", "say": "text", "text": "I'll read the router first."},
{"ts": 1736000003000, "type": "ask", "ask": "tool", "text": "{\"tool\": \"readFile\", \"path\": \"src/login.ts\", \"content\": \"/home/dev/app/src/login.ts\"}"},
{"ts": 1736000004000, "type": "ask", "ask": "tool", "text": "{\"tool\": \"searchFiles\", \"path\": \"src\", \"regex\": \"login\", \"content\": \"Found 3 results.\"}"},
{"ts": 1736000005000, "type": "ask", "ask": "tool", "text": "{\"tool\": \"editedExistingFile\", \"path\": \"src/login.ts\", \"diff\": \"@@ -1 +1 @@\"}"},
{"ts": 1736000006000, "type": "say", "say": "user_feedback", "text": "Also limit the signup route."},
{"ts": 1736000007000, "type": "say", "say": "api_req_started", "text": "{}"},
{"ts": 1736000008000, "type": "ask", "ask": "api_req_failed", "text": "429 Too Many Requests\nretry later"}
]`
	tr, err := Parse(context.Background(), strings.NewReader(doc), Options{Format: FormatCline, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	edits := 0
	for _, m := range tr.Messages {
		if m.Role == handoff.RoleUser {
			users = append(users, m.Text)
		}
		for _, c := range m.ToolCalls {
			var in map[string]any
			_ = json.Unmarshal(c.Input, &in)
			if _, content := in["content"]; content {
				t.Errorf("%s keeps a content key: %s", c.Name, c.Input)
			}
			if _, diff := in["diff"]; diff {
				edits++
			}
		}
	}
	if len(users) != 2 || users[0] != "Add rate limiting to the login route" {
		t.Errorf("user messages %q, want the task first", users)
	}
	if edits != 1 {
		t.Errorf("%d edits, want 1", edits)
	}
	if !strings.Contains(tr.Session.EndSignal, "API request failed (429 Too Many Requests)") {
		t.Errorf("end signal %q", tr.Session.EndSignal)
	}
}

// TestAiderArchitectAndPastedTests: architect mode's hand-over to the
// editor is not the person's; a pasted pytest run is a test run; the
// chat's start time is not its end.
func TestAiderArchitectAndPastedTests(t *testing.T) {
	t.Parallel()
	reply := "Change `parse_date` in dates.py to reject day 0.\nAdd a test for it."
	log := "\n# aider chat started at 2025-03-05 21:02:44\n\n" +
		"#### fix the date parser  \n\n" + reply + "\n\n" +
		"> Tokens: 2.1k sent, 40 received.  \n> Edit the files? (Y)es/(N)o [Yes]: y  \n\n" +
		"#### Change `parse_date` in dates.py to reject day 0.  \n#### Add a test for it.  \n\n" +
		"dates.py\n```python\n<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE\n```\n\n" +
		"#### ============================= test session starts ==============================  \n" +
		"#### FAILED tests/test_dates.py::test_day_zero - ValueError  \n" +
		"#### ========================= 1 failed, 4 passed in 0.12s =========================  \n\n" +
		"The test still fails.\n"
	tr, err := Parse(context.Background(), strings.NewReader(log), Options{Format: FormatAider, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	var requests []string
	var run *handoff.ToolResult
	for i, m := range tr.Messages {
		if m.Role == handoff.RoleUser && !m.Meta {
			requests = append(requests, m.Text)
		}
		for j := range m.ToolResults {
			run = &tr.Messages[i].ToolResults[j]
		}
	}
	if len(requests) != 2 || requests[0] != "fix the date parser" || !strings.Contains(requests[1], "test session starts") {
		t.Errorf("person's requests %q: the architect's hand-over must not be one", requests)
	}
	if run == nil || run.ExitCode == nil || *run.ExitCode != 1 || !strings.Contains(run.Content, "FAILED tests/test_dates.py") {
		t.Errorf("pasted pytest run = %+v, want a failed run", run)
	}
	if !tr.Session.EndedAt.IsZero() || tr.Session.StartedAt.IsZero() {
		t.Errorf("started %v ended %v: only the start is known", tr.Session.StartedAt, tr.Session.EndedAt)
	}
}

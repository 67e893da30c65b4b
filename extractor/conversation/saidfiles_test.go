package conversation

import (
	"slices"
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestReportedFiles(t *testing.T) {
	say := func(text string) handoff.Message { return handoff.Message{Role: handoff.RoleAssistant, Text: text} }
	cases := []struct {
		name string
		main []handoff.Message
		want []string
	}{
		{"a new file and an updated one, newest mention last", []handoff.Message{
			say("- Added `client/src/lib/status.js` with three states\n- `widget.css` updated to a light theme"),
			say("Fixing a bad import path in `mail.js`.\n- `widget.css` rewritten again"),
		}, []string{"client/src/lib/status.js", "mail.js", "widget.css"}},
		{"offers, instructions and next steps change nothing", []handoff.Message{
			say("If you want, I can add `cron.js` next.\nOpen `index.html` in the browser.\nNext: adding `admin.js` for the install view"),
		}, nil},
		{"a code block's listing and a URL are not the project's changes", []handoff.Message{
			say("Updated the config:\n```\nnew file: server/app.js\n```\nAdded the docs at https://example.com/guide.html"),
		}, nil},
		{"the person's words are not a report", []handoff.Message{
			{Role: handoff.RoleUser, Text: "I added `notes.md` myself"},
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := reportedFiles(tc.main); !slices.Equal(got, tc.want) {
				t.Errorf("reportedFiles = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestReportedChecks(t *testing.T) {
	say := func(text string) handoff.Message { return handoff.Message{Role: handoff.RoleAssistant, Text: text} }
	cases := []struct {
		name string
		main []handoff.Message
		want []string
	}{
		{"the newest test and the newest build result, newest first", []handoff.Message{
			say("**Regression result: 28/28 passed**\nClient `npm run build` OK."),
			say("`scripts/regression.js` → **65/65 PASS**\nThe build passes again."),
			say("That is the last message, which the prompt quotes: all 70 tests pass."),
		}, []string{"The build passes again.", "`scripts/regression.js` → 65/65 PASS"}},
		{"plans, listings and instructions state no result", []handoff.Message{
			say("Next I'll write the tests for the parser.\n```\n$ npm test\n12 passed\n```\nRestart the server and open the dashboard."),
			say("Done."),
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := reportedChecks(tc.main, len(tc.main)-1); !slices.Equal(got, tc.want) {
				t.Errorf("reportedChecks = %q, want %q", got, tc.want)
			}
		})
	}
}

package extractor

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

// TestAbruptEnd: a session that stopped on an API error or a full context
// is resumed in a new session, with the recovery command the session
// named when it named one; a context report with room left, or a local
// command's own failure, is no abrupt end.
func TestAbruptEnd(t *testing.T) {
	tests := []struct {
		name  string
		build func(c *sessiontest.Convo)
		want  []string // substrings of the next step, in order
		not   string
	}{
		{"API error then full context, recovery command named", func(c *sessiontest.Convo) {
			c.User("Create a checkpoint of the session")
			c.Say("Checkpoint created as f0c3276.\n\n**Recovery:** `/recover-from-checkpoint`")
			c.Meta("<command-name>/context</command-name>")
			c.Meta(`<local-command-stderr>Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"messages.75.content.0.type: Expected thinking, but found tool_use"}}</local-command-stderr>`)
			c.Meta("<command-name>/context</command-name>")
			c.Meta("<local-command-stdout>Context Usage\n model-x · 201k/200k tokens (100%)\n</local-command-stdout>")
		}, []string{"The session ended on an API error", "Error: 400 Expected thinking", "context full (201k/200k tokens, 100%)", "resume in a new session with `/recover-from-checkpoint`", "then: check that its last report"}, ""},
		{"full context only, no command named", func(c *sessiontest.Convo) {
			c.User("Port the scheduler to zoneinfo")
			c.Say("The scheduler now uses zoneinfo; the DST tests pass.")
			c.Meta("<command-name>/context</command-name>")
			c.Meta("<local-command-stdout>Context Usage\n model-x · 196k/200k tokens (98%)\n</local-command-stdout>")
		}, []string{"The session ended on its context full (196k/200k tokens, 98%)", "resume in a new session;"}, "recovery command"},
		{"context with room left", func(c *sessiontest.Convo) {
			c.User("Port the scheduler to zoneinfo")
			c.Say("The scheduler now uses zoneinfo; the DST tests pass.")
			c.Meta("<command-name>/context</command-name>")
			c.Meta("<local-command-stdout>Context Usage\n model-x · 80k/200k tokens (40%)\n</local-command-stdout>")
		}, []string{"The last turn ended with the assistant reporting"}, "resume in a new session"},
		{"a local command's own error", func(c *sessiontest.Convo) {
			c.User("Port the scheduler to zoneinfo")
			c.Say("The scheduler now uses zoneinfo; the DST tests pass.")
			c.Meta("<command-name>/add-dir</command-name>")
			c.Meta("<local-command-stderr>Error: path /tmp/x does not exist</local-command-stderr>")
		}, []string{"The last turn ended with the assistant reporting"}, "resume in a new session"},
		{"the harness's API error as the last assistant text", func(c *sessiontest.Convo) {
			c.User("Port the scheduler to zoneinfo")
			c.Say("I'll now run the DST tests.")
			c.Say("API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}")
		}, []string{"The session ended on an API error (“API Error: 529 Overloaded”)", "then: Carry on with what the assistant said comes next"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t)
			tt.build(c)
			next := build(t, c, handoff.SessionInfo{}).NextStep
			rest := next
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("next step = %q\nwant, in order, %q", next, tt.want)
				}
				rest = rest[i+len(w):]
			}
			if tt.not != "" && strings.Contains(next, tt.not) {
				t.Errorf("next step = %q, should not say %q", next, tt.not)
			}
		})
	}
}

// TestAbruptEndReal: pai-703e4528 ends on /context failing with an API
// 400 and then reporting 201k/200k; its last report names the command
// that resumes it.
func TestAbruptEndReal(t *testing.T) {
	snap := realSnapshot(t, "claude-code/pai-703e4528-cc2.0.57-autocompact-askuser-api400.jsonl")
	for _, w := range []string{"API error", "201k/200k", "new session", "/recover-from-checkpoint"} {
		if !strings.Contains(snap.NextStep, w) {
			t.Errorf("next step = %q, want %q in it", snap.NextStep, w)
		}
	}
}

// TestNextSessionStated: "Next session: …" in the assistant's last report
// is its stated next step; a person's "next time: …" is what to start
// with when the assistant said nothing of it.
func TestNextSessionStated(t *testing.T) {
	tests := []struct {
		name, last, want string
	}{
		{"assistant's next session", "Sounds good. Next session: an end-to-end test that imports the February sample and checks its totals.",
			"Carry on with what the assistant said comes next: “Next session: an end-to-end test"},
		{"person's next time only", "Understood, I'll leave net worth as it is.",
			"Start with what the person asked to be done in the next session: “add an integration test that imports the February sample end to end”"},
		{"no deferral", "Understood, net worth stays as it is.", "The last turn ended with the assistant reporting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t)
			c.User("Add a --month filter to the report command")
			c.Say("Added the --month filter; the report tests pass.")
			if tt.name == "no deferral" {
				c.User("ok leave net worth as it is, thanks for checking the importer")
			} else {
				c.User("ok leave net worth as it is. next time: add an integration test that imports the February sample end to end")
			}
			c.Say(tt.last)
			c.User("/exit")
			if next := build(t, c, handoff.SessionInfo{}).NextStep; !strings.HasPrefix(next, tt.want) {
				t.Errorf("next step = %q\nwant prefix %q", next, tt.want)
			}
		})
	}
}

// TestReadyOffer: an assistant that says it is ready for the next piece of
// work offers it, and the step waits for the person's word; what its last
// paragraph reported before that sentence is not part of the step; a
// thing "ready to merge" is a state, not an offer.
func TestReadyOffer(t *testing.T) {
	tests := []struct {
		name, last, want string
	}{
		{"ready to start", "The doc is complete: goal, decisions, plan. Ready to start building Chunk 1 whenever you want to move to code.",
			"The assistant's last words offered the next step: “Ready to start building Chunk 1 whenever you want to move to code.” — take it up once the person agrees."},
		{"first person", "Plan written. I'm ready to implement the parser once you confirm the grammar.",
			"The assistant's last words offered the next step: “I'm ready to implement the parser once you confirm the grammar.”"},
		{"a state", "The branch is pushed and the PR is ready to merge.", "The last turn ended with the assistant reporting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t)
			c.User("Write the plan for the importer into docs/PLAN.md")
			c.Say(tt.last)
			if next := build(t, c, handoff.SessionInfo{}).NextStep; !strings.HasPrefix(next, tt.want) {
				t.Errorf("next step = %q\nwant prefix %q", next, tt.want)
			}
		})
	}
}

package extractor

import (
	"strings"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

func TestGoalComesFromTheLastSittingThatAskedForWork(t *testing.T) {
	banner := "/usr/bin/aider\nAider v0.85.2\nMain model: gpt-4.1 with diff edit format"
	runGoalCases(t, []goalCase{
		{"one sitting keeps its first task", func(c *sessiontest.Convo) {
			c.Sys(banner)
			c.User("add a comment at the top of config.ts saying what it defines")
			c.Say("Done.")
			c.User("now make the parser reject empty keys with a clear error")
			c.Say("Done.")
		}, "add a comment at the top of config.ts saying what it defines"},
		{"a later launch with a task takes over", func(c *sessiontest.Convo) {
			c.Sys(banner)
			c.User("add a comment at the top of config.ts saying what it defines")
			c.Say("Done.")
			c.Sys(banner)
			c.User("Port the whole package to ES modules and add type declarations")
			c.Say("Starting.")
			c.User("also add a DAG stub to the index exports please")
			c.Say("Done.")
		}, "Port the whole package to ES modules and add type declarations"},
		{"a later launch with only commands and chat leaves the goal", func(c *sessiontest.Convo) {
			c.Sys(banner)
			c.User("Port the whole package to ES modules and add type declarations")
			c.Say("Done.")
			c.Sys(banner)
			c.User("/run pytest -q")
			c.User("thanks")
			c.Say("You're welcome.")
			c.User("What is left to do here?")
			c.Say("Nothing.")
		}, "Port the whole package to ES modules and add type declarations"},
		{"a launch that re-sends the task continues it", func(c *sessiontest.Convo) {
			c.Sys(banner)
			c.User("Find out why push-to-talk always inserts the same text. It is nearly done.")
			c.Say("Looking.")
			c.Sys(banner)
			c.User("We were mid-task here")
			c.User("Find out why push-to-talk always inserts the same text. You are the Analyzer Agent; your goals follow.")
			c.Say("Looking again.")
		}, "Find out why push-to-talk always inserts the same text. It is nearly done."},
		{"/clear starts a sitting", func(c *sessiontest.Convo) {
			c.User("Fix the flaky retry test in the HTTP client package")
			c.Say("Fixed.")
			c.Meta("<command-name>/clear</command-name>\n<command-message>clear</command-message>")
			c.User("Write the release notes for version 2.3 from the changelog")
			c.Say("Written.")
		}, "Write the release notes for version 2.3 from the changelog"},
		{"a night's pause is no new sitting", func(c *sessiontest.Convo) {
			c.User("Fix the flaky retry test in the HTTP client package")
			c.Say("Fixed.")
			c.Push(handoff.Message{Role: handoff.RoleUser, Text: "OK, now we need to plan the next chunk of the work in detail"}).Timestamp = sessiontest.T0.Add(20 * time.Hour)
			c.Say("Planned.")
		}, "Fix the flaky retry test in the HTTP client package"},
	})
}

func TestSittingOf(t *testing.T) {
	starts := []int{4, 9}
	for _, tc := range []struct{ index, want int }{{0, 0}, {3, 0}, {4, 1}, {8, 1}, {9, 2}, {20, 2}} {
		if got := conversation.SittingOf(starts, tc.index); got != tc.want {
			t.Errorf("sittingOf(%v, %d) = %d, want %d", starts, tc.index, got, tc.want)
		}
	}
}

// TestAiderLogGoalIsLastLaunchsWork: afi-core's history holds nine Aider
// launches; the first asked for a one-line comment, the last for the audit
// whose ESM, DAG and .d.ts work the log ends on.
func TestAiderLogGoalIsLastLaunchsWork(t *testing.T) {
	msgs := realMessages(t, "aider-md/afi-core.aider.chat.history.md")
	goal := conversation.Read(&handoff.Transcript{Messages: msgs}).Goal
	if strings.Contains(goal, "add a comment") || !strings.Contains(goal, "ESM") {
		t.Errorf("goal = %q, want the last launch's audit", goal)
	}
}

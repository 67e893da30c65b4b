package extractor

import (
	"strings"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
)

// sys adds a harness output message (Aider's "> " lines).
func (c *convo) sys(text string) *convo {
	c.push(handoff.Message{Role: handoff.RoleSystem, Text: text, Meta: true})
	return c
}

func TestGoalComesFromTheLastSittingThatAskedForWork(t *testing.T) {
	banner := "/usr/bin/aider\nAider v0.85.2\nMain model: gpt-4.1 with diff edit format"
	runGoalCases(t, []goalCase{
		{"one sitting keeps its first task", func(c *convo) {
			c.sys(banner)
			c.user("add a comment at the top of config.ts saying what it defines")
			c.say("Done.")
			c.user("now make the parser reject empty keys with a clear error")
			c.say("Done.")
		}, "add a comment at the top of config.ts saying what it defines"},
		{"a later launch with a task takes over", func(c *convo) {
			c.sys(banner)
			c.user("add a comment at the top of config.ts saying what it defines")
			c.say("Done.")
			c.sys(banner)
			c.user("Port the whole package to ES modules and add type declarations")
			c.say("Starting.")
			c.user("also add a DAG stub to the index exports please")
			c.say("Done.")
		}, "Port the whole package to ES modules and add type declarations"},
		{"a later launch with only commands and chat leaves the goal", func(c *convo) {
			c.sys(banner)
			c.user("Port the whole package to ES modules and add type declarations")
			c.say("Done.")
			c.sys(banner)
			c.user("/run pytest -q")
			c.user("thanks")
			c.say("You're welcome.")
			c.user("What is left to do here?")
			c.say("Nothing.")
		}, "Port the whole package to ES modules and add type declarations"},
		{"a launch that re-sends the task continues it", func(c *convo) {
			c.sys(banner)
			c.user("Find out why push-to-talk always inserts the same text. It is nearly done.")
			c.say("Looking.")
			c.sys(banner)
			c.user("We were mid-task here")
			c.user("Find out why push-to-talk always inserts the same text. You are the Analyzer Agent; your goals follow.")
			c.say("Looking again.")
		}, "Find out why push-to-talk always inserts the same text. It is nearly done."},
		{"/clear starts a sitting", func(c *convo) {
			c.user("Fix the flaky retry test in the HTTP client package")
			c.say("Fixed.")
			c.meta("<command-name>/clear</command-name>\n<command-message>clear</command-message>")
			c.user("Write the release notes for version 2.3 from the changelog")
			c.say("Written.")
		}, "Write the release notes for version 2.3 from the changelog"},
		{"a night's pause is no new sitting", func(c *convo) {
			c.user("Fix the flaky retry test in the HTTP client package")
			c.say("Fixed.")
			c.push(handoff.Message{Role: handoff.RoleUser, Text: "OK, now we need to plan the next chunk of the work in detail"}).Timestamp = t0.Add(20 * time.Hour)
			c.say("Planned.")
		}, "Fix the flaky retry test in the HTTP client package"},
	})
}

func TestSittingOf(t *testing.T) {
	starts := []int{4, 9}
	for _, tc := range []struct{ index, want int }{{0, 0}, {3, 0}, {4, 1}, {8, 1}, {9, 2}, {20, 2}} {
		if got := sittingOf(starts, tc.index); got != tc.want {
			t.Errorf("sittingOf(%v, %d) = %d, want %d", starts, tc.index, got, tc.want)
		}
	}
}

// TestAiderLogGoalIsLastLaunchsWork: afi-core's history holds nine Aider
// launches; the first asked for a one-line comment, the last for the audit
// whose ESM, DAG and .d.ts work the log ends on.
func TestAiderLogGoalIsLastLaunchsWork(t *testing.T) {
	msgs := realMessages(t, "aider-md/afi-core.aider.chat.history.md")
	goal := ReadConversation(&handoff.Transcript{Messages: msgs}).Goal
	if strings.Contains(goal, "add a comment") || !strings.Contains(goal, "ESM") {
		t.Errorf("goal = %q, want the last launch's audit", goal)
	}
}

package extractor

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

func TestSkillMention(t *testing.T) {
	for _, tc := range []struct {
		text, name string
		ok         bool
	}{
		{".agents/skills/speckit-implement", "speckit-implement", true},
		{".claude/skills/release/SKILL.md", "release", true},
		{"skills/deploy/ staging", "deploy", true},
		{"$speckit-plan", "speckit-plan", true},
		{"$deploy to the staging cluster", "deploy", true},
		{"$deploy to the staging cluster and then run the smoke tests there", "", false},
		{"please update skills/deploy/SKILL.md", "", false},
		{"src/skills/matcher.go is broken", "", false},
		{"$HOME is unset in the CI job, fix the runner", "", false},
	} {
		name, _, ok := conversation.SkillMention(tc.text)
		if ok != tc.ok || name != tc.name {
			t.Errorf("skillMention(%q) = %q, %v; want %q, %v", tc.text, name, ok, tc.name, tc.ok)
		}
	}
}

// skillFile is a skill file as a shell tool prints it.
const skillFile = "---\nname: \"speckit-implement\"\ndescription: \"Execute the implementation plan by processing and executing all tasks defined in tasks.md\"\n---\n\n## User Input\n"

func TestCommandTheSessionWorksOnIsTheGoal(t *testing.T) {
	const skillGoal = ".agents/skills/speckit-implement — the skill's task: Execute the implementation plan by processing and executing all tasks defined in tasks.md"
	runGoalCases(t, []goalCase{
		{"a skill the agent reads and implements", func(c *sessiontest.Convo) {
			c.User(".agents/skills/speckit-implement")
			c.Bash("Opening the skill.", "sed -n 1,200p .agents/skills/speckit-implement/SKILL.md", skillFile, 0)
			c.Call("Implementing T001.", "apply_patch", "*** Begin Patch\n*** Update File: Package.swift\n@@\n-5.8\n+6.2\n*** End Patch")
			c.User("XCTUnwrap failed: expected non-nil value of type URL on line 22 of LocalizationResourceTests.swift")
			c.Say("Fixed the bundle lookup.")
		}, skillGoal},
		{"a skill the agent only reads", func(c *sessiontest.Convo) {
			c.User(".agents/skills/speckit-implement")
			c.Bash("Opening the skill.", "sed -n 1,200p .agents/skills/speckit-implement/SKILL.md", skillFile, 0)
			c.Say("Which feature should I implement?")
			c.User("Implement the modernized public API described in specs/001")
			c.Call("Implementing T001.", "apply_patch", "*** Begin Patch\n*** Update File: Package.swift\n@@\n-5.8\n+6.2\n*** End Patch")
		}, "Implement the modernized public API described in specs/001"},
		{"a skill whose file was never read", func(c *sessiontest.Convo) {
			c.User(".agents/skills/speckit-implement")
			c.Call("Implementing.", "apply_patch", "*** Begin Patch\n*** Update File: Package.swift\n@@\n-5.8\n+6.2\n*** End Patch")
			c.User("Now fix the failing localization test in the resources bundle")
		}, "Now fix the failing localization test in the resources bundle"},
		{"a custom command the agent works on", func(c *sessiontest.Convo) {
			c.Meta("<command-name>/implement-plan</command-name>\n<command-args></command-args>")
			c.Meta("# Implement the plan\n\nImplement every open task of PLAN.md in order, with tests for each.")
			c.Call("Starting with task 1.", "Edit", map[string]string{"file_path": "a.go", "old_string": "x", "new_string": "y"})
			c.User("the retry test fails on CI, please look at it")
			c.Say("Fixed.")
		}, "/implement-plan — the command's prompt: Implement the plan. Implement every open task of PLAN.md in order, with tests for each."},
	})
}

// TestCodexSkillSessionGoal: resting's person typed only a skill's path;
// the agent read its SKILL.md and implemented the spec's tasks. A bug
// report sent halfway through is not the goal.
func TestCodexSkillSessionGoal(t *testing.T) {
	msgs := realMessages(t, "codex/resting-codex0.120-tui-swift-sandbox-denied.jsonl")
	goal := conversation.Read(&handoff.Transcript{Messages: msgs}).Goal
	if !strings.HasPrefix(goal, ".agents/skills/speckit-implement — the skill's task: Execute the implementation plan") {
		t.Errorf("goal = %q, want the skill invocation with its task", goal)
	}
}

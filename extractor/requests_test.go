package extractor

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestSlashCommandsThatCarryATask(t *testing.T) {
	c := newConvo(t)
	c.user("/orchestrator create a TODO app with Next.js")
	c.say("Planning the subtasks.")
	c.user("Thanks! Please update the notes for the current changes")
	c.say("Updated.")
	c.meta("<command-message>create-checkpoint is running…</command-message>\n<command-name>/create-checkpoint</command-name>")
	c.meta("# Create a checkpoint\n\n1. **Write the session status** to STATUS.md.\n2. **Commit**: git add -A and git commit -m \"Checkpoint: …\".\n3. **Report** the commit hash.")
	c.say("Creating the checkpoint.")
	c.meta("<command-name>/clear</command-name>")
	c.meta("<local-command-stdout></local-command-stdout>")
	snap := build(t, c, handoff.SessionInfo{})
	if snap.Goal != "/orchestrator create a TODO app with Next.js" {
		t.Errorf("goal = %q, want the slash command whose arguments are the task", snap.Goal)
	}
	if !strings.HasPrefix(snap.LatestRequest, "/create-checkpoint — the command's prompt: # Create a checkpoint") || !strings.Contains(snap.LatestRequest, "git commit") {
		t.Errorf("latest request = %q, want the custom command with its expanded prompt", snap.LatestRequest)
	}
	for _, r := range snap.Requests {
		if strings.HasPrefix(r.Text, "/clear") {
			t.Errorf("a built-in command became a request: %q", r.Text)
		}
	}
}

func TestCommandPromptIsGoalOnlyWhenNothingElse(t *testing.T) {
	c := newConvo(t)
	c.meta("<command-name>/recover-from-checkpoint</command-name>")
	c.meta("# Recover\n\nRead STATUS.md and summarise the last checkpoint.")
	c.say("Recovered: phase 2 is next.")
	c.user("let's go with phase 2: simplify the context loader")
	c.say("Done.")
	snap := build(t, c, handoff.SessionInfo{})
	if snap.Goal != "let's go with phase 2: simplify the context loader" {
		t.Errorf("goal = %q, want the person's own request, not the recovery command's prompt", snap.Goal)
	}
}

func TestConfirmPromptIsNoRequest(t *testing.T) {
	for _, s := range []string{
		"Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: all",
		"Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y",
	} {
		if !confirmPromptRe.MatchString(s) {
			t.Errorf("%q not recognised as a confirmation prompt", s)
		}
	}
	if confirmPromptRe.MatchString("Should we say (Y)es/(N)o to the vendor?") {
		t.Error("a question of the person's was taken for a confirmation prompt")
	}
}

func TestGoalSaysSomething(t *testing.T) {
	c := newConvo(t)
	c.user("CH")
	c.say("Menu: CH chat, SC scaffold.")
	c.user("implement git flow in my project")
	c.say("Done.")
	snap := build(t, c, handoff.SessionInfo{})
	if snap.Goal != "implement git flow in my project" {
		t.Errorf("goal = %q, want the first request of three words or more", snap.Goal)
	}
}

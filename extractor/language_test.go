package extractor

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestPersonLanguage(t *testing.T) {
	reqs := func(texts ...string) []handoff.Request {
		var out []handoff.Request
		for _, s := range texts {
			out = append(out, handoff.Request{Text: s})
		}
		return out
	}
	tests := []struct {
		name string
		reqs []handoff.Request
		want string
	}{
		{"french", reqs("CH", "implémente git flow dans mon projet", "SC"), "French"},
		{"pasted logs do not vote", reqs("implémente git flow dans mon projet", "me@host:~/app$ npm run protect -- --yes\nApplying branch protection to the main branch now", "me@host:~/app$ npm run protect\nProtection applied to the main branch and the develop branch"), "French"},
		{"russian, short messages", reqs("hi", "Про что проект и на каком этапе сейчас работа?", "Ты зациклился. Удалось понять причину бага?", "создай файл в корневой папке проекта"), "Russian"},
		{"german", reqs("mit phase 2 weiter machen", "fasse mir die aktivitäten der letzten session zusammen"), "German"},
		{"short english a trigram guess calls Danish", reqs("Say hello and list files."), ""},
		{"english", reqs("Add rate limiting to the API please", "The limit has to be shared across replicas"), ""},
		{"paths and codes do not vote", reqs(".agents/skills/speckit-implement", "/review", "ok"), ""},
		{"newest messages decide", reqs("bitte die Tests reparieren und dann committen", "now let's write the release notes", "and push the branch when the tests pass"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := personLanguage(tt.reqs); got != tt.want {
				t.Errorf("personLanguage = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestIsConstraint(t *testing.T) {
	tests := []struct {
		sent string
		want bool
	}{
		{"Don't put comments into bash snippets.", true},
		{"Never push to main without asking.", true},
		{"The API must be backwards compatible.", true},
		{"This was a <tdd_discipline> violation", true},
		{"better, but <file_operations>!!!", true},
		{"I don't understand the tradeoffs in the options you offered.", false},
		{"I feel like you simply don't have that fine grained control over your speaking habits.", false},
		{"We don't know whether she opened the app or not.", false},
		{"Must be a bug in the CLI environment.", false},
		{"Render it as <div> in the page.", false},
		{"But since I don't know the details, don't interpret me literally.", true},
	}
	for _, tt := range tests {
		if got := isConstraint(tt.sent); got != tt.want {
			t.Errorf("isConstraint(%q) = %v, want %v", tt.sent, got, tt.want)
		}
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

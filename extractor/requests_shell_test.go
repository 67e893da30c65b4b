package extractor

import (
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

func TestShellLine(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"pwd", true},
		{"git push origin main", true},
		{"> schemas/index.ts", true},
		{"sync-afi", true},
		{"chmod +x ~/repos/*.sh", true},
		{"npm run build", true},
		{"$ go test ./...", true},
		{"aider add validators/SignalScorer.ts\naider rm validators/PoIValidator.ts", true},
		{"./scripts/deploy-staging.sh", true},
		{"make", false},
		{"go", false},
		{"make tests pass", false},
		{"find bugs in the parser", false},
		{"go on", false},
		{"go ahead", false},
		{"git is broken again", false},
		{"git push fails with a 403, can you look?", false},
		{"npm test fails on CI", true}, // reads as a command line; rare as a request
		{"refactor", false},
		{"fix the login form", false},
		{"> please review PoIValidator.ts and clean up the logic", false},
		{"open the settings page and fix the layout", false},
		{"Why does `git push` fail?", false},
		{"docker compose up -d\nthen check the logs for errors", false},
		{"", false},
	} {
		if got := conversation.ShellLine(tc.text); got != tc.want {
			t.Errorf("shellLine(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestShellLinesAreCommandsNotRequests(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("pwd")
	c.Say("Run `pwd` to see the directory.")
	c.User("Add a --month filter to the report command, format YYYY-MM")
	c.Say("Done.")
	c.User("git push origin main")
	c.Say("Run `git push origin main`.")
	snap := build(t, c, handoff.SessionInfo{})
	if snap.Goal != "Add a --month filter to the report command, format YYYY-MM" {
		t.Errorf("goal = %q", snap.Goal)
	}
	if snap.LatestRequest != "" {
		t.Errorf("latest request = %q, want none: the shell line is a command run", snap.LatestRequest)
	}
	for _, r := range snap.Requests {
		if (r.Text == "pwd" || r.Text == "git push origin main") != r.RunsCommand {
			t.Errorf("request %q: RunsCommand = %v", r.Text, r.RunsCommand)
		}
	}
}

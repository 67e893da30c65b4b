package facts

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

// TestAskingCommand: status and identity subcommands and stash probes
// ask a question; commands that do work, or chains around a status, do
// not.
func TestAskingCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cmd  string
		want bool
	}{
		{"gh auth status", true},
		{"gh auth status -h github.com 2>&1 | head", true},
		{"git -C repo status --short", true},
		{"systemctl status nginx", true},
		{"npm whoami", true},
		{"kubectl auth can-i create pods", true},
		{"aws sts get-caller-identity", true},
		{"git stash && pytest tests -q -k ms_compound; git stash pop", true},
		{"git stash -u && make test && git stash pop", true},
		{"cd app && git stash push && go build ./... ; git stash apply", true},
		{"git stash list", false},
		{"git stash && git stash pop", false}, // nothing asked of the tree
		{"npm run gitflow:protect -- --yes", false},
		{"pytest tests -q", false},
		{"git status && git commit -am fix", false},
		{"gh pr create --title status", false},
		{"python status.py", false},
		{"./scripts/deploy.sh status", false},
	}
	for _, tt := range tests {
		if got := askingCommand(tt.cmd); got != tt.want {
			t.Errorf("askingCommand(%q) = %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

// TestQuestionsAreNotErrors: a question's failing answer is no error —
// an auth status that says "not logged in", a test that fails on the
// stashed tree too — unless the assistant later says it is blocked by
// it; a real command failing for the same reason stays an error.
func TestQuestionsAreNotErrors(t *testing.T) {
	t.Parallel()
	const notLogged = "github.com\n  X Failed to log in to github.com account dev\n  - The token is invalid."
	tests := []struct {
		name  string
		build func(c *sessiontest.Convo)
		want  []string // commands of the errors recorded
	}{
		{"auth status", func(c *sessiontest.Convo) {
			c.Bash("Check auth.", "gh auth status", notLogged, 1)
			c.Say("The CLI is not logged in; run gh auth login when you want GitHub actions.")
		}, nil},
		{"auth status then a real failure", func(c *sessiontest.Convo) {
			c.Bash("Check auth.", "gh auth status", notLogged, 1)
			c.Bash("Apply protection.", "npm run protect -- --yes", "Error: GitHub CLI is not authenticated.", 1)
		}, []string{"npm run protect -- --yes"}},
		{"stash probe", func(c *sessiontest.Convo) {
			c.Bash("Run the suite.", "pytest tests -q", "FAILED tests/test_p.py::test_ms - AssertionError\n1 failed, 41 passed", 1)
			c.Bash("Does it fail without my change?", "git stash && pytest tests -q -k ms; git stash pop", "FAILED tests/test_p.py::test_ms - AssertionError\n1 failed, 41 deselected", 1)
			c.Say("It fails on main too, so it is a second bug.")
		}, []string{"pytest tests -q"}},
		{"a question the assistant is blocked by", func(c *sessiontest.Convo) {
			c.Bash("Check auth.", "gh auth status", notLogged, 1)
			c.Say("I am blocked: `gh auth status` says the token is invalid, so I cannot proceed with the release until you log in.")
		}, []string{"gh auth status"}},
		{"blocked by something else", func(c *sessiontest.Convo) {
			c.Bash("Check auth.", "gh auth status", notLogged, 1)
			c.Say("The deploy is blocked by the missing AWS key.")
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := sessiontest.NewConvo(t)
			c.User("set up the release")
			tt.build(c)
			f := Compute(c.Msgs)
			var got []string
			for _, e := range f.Errors {
				got = append(got, e.Command)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("errors = %q, want %q", got, tt.want)
			}
			if len(tt.want) == 0 && f.Ignored[IgnoreProbe] == 0 {
				t.Errorf("ignored = %v, want the question counted as a probe", f.Ignored)
			}
		})
	}
}

package conversation

import (
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
		{"Can you run the benchmarks against the competition and make sure it uses the GPU", false},
		{"Can you commit this, and never push to main without asking", true},
		{"But since I don't know the details, don't interpret me literally.", true},
	}
	for _, tt := range tests {
		if got := IsConstraint(tt.sent); got != tt.want {
			t.Errorf("isConstraint(%q) = %v, want %v", tt.sent, got, tt.want)
		}
	}
}

package extractor

import (
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/decisions"
)

// TestChoiceOfNothing: a choosing sentence whose chosen phrase is only
// pronouns and function words, in a sentence that names nothing, is no
// decision; the same shape naming a thing anywhere in the sentence is.
func TestChoiceOfNothing(t *testing.T) {
	t.Parallel()
	runDecides(t, []decidesCase{
		{"pronoun rather than", "Let's work WITH that rather than against it.", false, false},
		{"go with this one", "I'll go with this one instead.", false, false},
		{"switch to that", "I'm switching to that instead, it works better.", false, false},
		{"person keep it", "ok let's keep it", true, false},
		{"shouted emphasis", "Let's go with THAT, NOT the other one.", false, false},
		{"pronoun but file named", "I'll go with that instead of editing main.go.", false, true},
		{"pronoun but product named", "Let's go with that rather than adding Redis.", false, true},
		{"pronoun but code span", "I'll use it instead of `os.Exit`.", false, true},
		{"pronoun but acronym", "Let's go with that rather than the REST API.", false, true},
		{"pronoun but quoted name", `I'll go with that instead of "legacy mode".`, false, true},
		{"pronoun but flag", "I'll use that rather than --force.", false, true},
		{"pronoun but number", "Let's go with that rather than 3 retries.", false, true},
		{"concrete choice plain words", "I'll use a token bucket instead of a fixed window.", false, true},
		{"concrete choice sentence start", "Redis is loaded; I'll go with that rather than memcached.", false, true},
	})
}

func TestEmptyPhrase(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		phrase string
		want   bool
	}{
		{"WITH that", true},
		{"this one", true},
		{"the other approach", true},
		{"", false},
		{"a token bucket", false},
		{"it and sqlx", false},
	} {
		if got := decisions.EmptyPhrase(tc.phrase); got != tc.want {
			t.Errorf("emptyPhrase(%q) = %v, want %v", tc.phrase, got, tc.want)
		}
	}
}

// decidesCase is one message (the person's when user) and whether it
// yields a decision.
type decidesCase struct {
	name, text string
	user, want bool
}

// runDecides extracts each case's message alone and checks whether a
// decision comes of it.
func runDecides(t *testing.T, cases []decidesCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			role := handoff.RoleAssistant
			if tc.user {
				role = handoff.RoleUser
			}
			res := extract(t, []handoff.Message{{Index: 1, Role: role, Text: tc.text}})
			if got := len(res.Decisions) > 0; got != tc.want {
				t.Errorf("%q: decision = %v (%+v), want %v", tc.text, got, res.Decisions, tc.want)
			}
		})
	}
}

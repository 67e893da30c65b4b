package extractor

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

func TestRuleShaped(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"Never git add . in this repo", true},
		{"Good, but don't put comments into bash snippets.", true},
		{"explain both options to me before you try to implement one", true},
		{"You must not push to main", true},
		{"we do not prepend the home directory", false}, // describes, sets no rule
		{"ask me before deleting anything", true},
		{"better, but <file_operations>!!!", true},
		{"the diary folder is off limits", true},
		{"ruff only reformats, it never modifies the semantics", false},
		{"the decided path is fetching SessionData, never rawData.", false},
		{"We don't want UX5 in there anymore.", true},
		{"I don't understand why it keeps failing", false},
		{"Let's keep the CLI small", false},
		{"we're using click, not argparse", false},
		{"wait — don't modify application code at all.", true},
		{"hmm... don't touch the fixtures", true},
		{"I said don't touch the CSV importer.", true},
		{"YOU DO NOT write final code (that is the developer's job).", true},
		{"When working on features, you mus always use red/green/refactor TDD.", true},
		{"you simply don't have that fine grained control", false},
		{"I said it was broken", false},
		{"New repo rule: any coverage improvement must include a before snapshot.", true},
		{"it must be a bug in the CLI", false},
		{"NO! Let's not lose track of the CI mocks.", true},
	} {
		if got := conversation.RuleShaped(tc.text); got != tc.want {
			t.Errorf("ruleShaped(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestRulesAlternateWithPreferences(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("Fix the login bug in the session handler: users are logged out after a minute.")
	c.Say("Fixed.")
	c.User("Commit it. Never git add . here, the diary has uncommitted changes.")
	c.Say("Committed.")
	for _, m := range []string{
		"Keep the error text short please.",
		"I'd prefer tabs over spaces here.",
		"Make the button blue instead of red.",
	} {
		c.User(m)
		c.Say("Done.")
	}
	c.User("Now add a logout button.")
	c.Say("Added.")
	snap := build(t, c, handoff.SessionInfo{})
	if len(snap.Constraints) < 2 {
		t.Fatalf("constraints = %v, want the rule and the preferences", snap.Constraints)
	}
	if got := snap.Constraints[0].Text; got != "Never git add . here, the diary has uncommitted changes." {
		t.Errorf("first constraint = %q, want the standing rule ahead of newer preferences", got)
	}
	if got := snap.Constraints[1].Text; got != "Make the button blue instead of red." {
		t.Errorf("second constraint = %q, want the newest preference", got)
	}
}

func TestRequirementWordsAreConstraints(t *testing.T) {
	for _, s := range []string{
		"CPU and CUDA are mandatory, AMD is high priority.",
		"The diary folder is off-limits for you.",
		"Backwards compatibility is non-negotiable.",
	} {
		if !conversation.IsConstraint(s) {
			t.Errorf("isConstraint(%q) = false, want a requirement", s)
		}
	}
}

func TestAbsoluteRulesBeforeRemarks(t *testing.T) {
	cons := []handoff.Constraint{
		{Text: "I'd prefer tabs over spaces here."},
		{Text: "Make sure the commit message is short."},
		{Text: "Of important note, we used to publish the builds elsewhere."},
		{Text: "Good, but don't put comments into bash snippets."},
		{Text: "Let's not lose track of the CI mocks."},
	}
	var got []string
	for _, c := range conversation.RulesFirst(cons, nil) {
		got = append(got, c.Text)
	}
	want := []string{
		"Good, but don't put comments into bash snippets.",
		"Let's not lose track of the CI mocks.",
		"Make sure the commit message is short.",
		"I'd prefer tabs over spaces here.",
		"Of important note, we used to publish the builds elsewhere.",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("rulesFirst = %q, want %q", got, want)
	}
}

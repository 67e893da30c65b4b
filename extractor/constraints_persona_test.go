package extractor

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

func TestPastedProhibitions(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sents []string
		want  string
	}{
		{"role prompt", []string{"Your work is analysis.", "YOU DO NOT run builds or tests.", "IMPORTANT: Do NOT post to GitLab unless approved.", "Do NOT run mutating commands — read-only diagnostics only."},
			"Do not: run builds or tests; post to GitLab; run mutating commands."},
		{"one prohibition, as written", []string{"Fix the bug.", "Don't push."}, "Don't push."},
		{"none", []string{"Fix the bug.", "Push when green."}, ""},
		{"descriptions are not prohibitions", []string{"It never fails.", "We do not know why."}, ""},
	} {
		if got := conversation.PastedProhibitions(tc.sents); got != tc.want {
			t.Errorf("%s: pastedProhibitions = %q, want %q", tc.name, got, tc.want)
		}
	}
	many := make([]string, 30)
	for i := range many {
		many[i] = "Do not touch module number " + strings.Repeat("x", i%5+1) + string(rune('a'+i%26)) + "."
	}
	if got := conversation.PastedProhibitions(many); len([]rune(got)) > conversation.ProhibitionsLimit || !strings.HasSuffix(got, "; …") {
		t.Errorf("a long list = %q, want it cut at an item within %d runes", got, conversation.ProhibitionsLimit)
	}
}

func TestPastedRolePromptBecomesOneConstraint(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("Find why the hotkey inserts the same text. Follow the prompt below. " + strings.Repeat("You are the analyzer agent and you trace architectural connections across services. ", 9) +
		"\nYOU DO NOT write final code. YOU DO NOT run builds or tests.\nDo NOT run mutating commands — read-only diagnostics only.")
	c.Say("Investigating.")
	snap := build(t, c, handoff.SessionInfo{})
	n := 0
	for _, k := range snap.Constraints {
		if strings.HasPrefix(k.Text, "Do not: ") {
			n++
			if !strings.Contains(k.Text, "run builds or tests") || !strings.Contains(k.Text, "run mutating commands") {
				t.Errorf("folded prohibitions = %q, want each of the prompt's", k.Text)
			}
		}
	}
	if n != 1 {
		t.Errorf("constraints = %+v, want the pasted prompt's prohibitions as one constraint", snap.Constraints)
	}
}

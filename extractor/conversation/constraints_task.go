package conversation

import (
	"strings"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// A constraint states a rule that holds beyond the task in hand ("don't
// push", "never edit a merged migration", "keep the column order", "use
// pnpm, not npm"). A sentence that opens by asking for a piece of work,
// "Please move the cuda stuff into a folder … but dont bother adding more
// to it", "Let us now continue to ensure the CPU version is fully
// implemented", is a request even when a constraint word ("ensure",
// "don't bother") sits in it: the task is what it asks for, and the
// prompt lists it with the requests.

// taskOpenRe opens a sentence that asks for work: "please", "kindly",
// "let's" or "let us", after an acknowledgement or "now", and the verb
// after it (group 1).
var taskOpenRe = prose.LazyRE(rulebook.Pattern("conversation.task-open"))

// ruleVerbs are the verbs a rule opens with after "please" or "let's":
// "please don't …", "let's never …", "please keep …", "please use …".
var ruleVerbs = rulebook.WordSet("conversation.rule-verbs")

// asksForTask reports a sentence that opens by asking for a piece of
// work ("Please move …", "let's decide …") rather than with a rule
// ("Please don't …", "let's keep …").
func asksForTask(sent string) bool {
	m := taskOpenRe.FindStringSubmatch(sent)
	return m != nil && !ruleVerbs[strings.ToLower(m[1])]
}

// quotedWhole is how much of the goal and the latest request every
// budget quotes (the compiler's smallest request variant is 160 runes):
// a constraint said within it is read there already.
const quotedWhole = 150

// withoutQuotedEchoes drops the constraints that the opening of the goal
// or the latest request holds word for word, whichever message they were
// read from, unless they open with the rule (opensWithRule): the prompt
// quotes them there already ("Actually make due_date nullable and don't
// backfill — …" as latest request and again as a constraint). A rule
// stated on its own ("Never push to main without asking me.") stays a
// constraint: it outlives the request it came in. It goes after the
// constraints said nowhere else, though: the prompt quotes it at the top
// already, and ahead of them it takes a small budget's one slot ("wait —
// don't modify application code" in the latest request pushed out the
// older "keep the syntax line first").
func withoutQuotedEchoes(cons []handoff.Constraint, shown ...string) []handoff.Constraint {
	var heads []string
	for _, s := range shown {
		if s == "" {
			continue
		}
		s = facts.SpaceRun.ReplaceAllString(s, " ")
		if utf8.RuneCountInString(s) > quotedWhole {
			s = string([]rune(s)[:quotedWhole])
		}
		heads = append(heads, strings.ToLower(s))
	}
	out := cons[:0:0]
	var echoed []handoff.Constraint
	for _, c := range cons {
		t := strings.ToLower(strings.TrimSpace(facts.SpaceRun.ReplaceAllString(c.Text, " ")))
		echo := false
		for _, h := range heads {
			echo = echo || t != "" && strings.Contains(h, t)
		}
		switch {
		case !echo:
			out = append(out, c)
		case opensWithRule(c.Text):
			echoed = append(echoed, c)
		}
	}
	return append(out, echoed...)
}

// ruleOpenRe opens a sentence with a rule, after an acknowledgement or
// a filler: "Don't …", "wait — never …", "Please keep …", "Ask me
// before …", "Only ofx.py …".
var ruleOpenRe = prose.LazyRE(rulebook.Pattern("conversation.rule-open"))

// opensWithRule reports a sentence whose first words state a rule rather
// than ask for a task.
func opensWithRule(sent string) bool {
	return ruleOpenRe.MatchString(sent) || ruleTagRe.MatchString(sent)
}

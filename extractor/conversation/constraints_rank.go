package conversation

import (
	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// ruleShapeRe is a constraint put as a standing rule rather than a
// preference or a remark: an imperative "don't/never/always/must/make
// sure/avoid" opening the sentence or a clause of it ("Good, but don't put
// comments into bash snippets", "wait — don't modify application code"),
// a rule addressed to the agent ("you should never", "you … do not",
// even with a misspelt modal between: "you mus always use TDD"), a
// requirement ("any improvement must include a before snapshot"; a
// guess, "it must be a bug", is masked by notRuleRe), a hortative ("let's
// not lose track of …"), what the person does not want ("we don't want
// UX5 in there"), a precondition ("explain the options before you
// implement", "ask before pushing"), a rule the person repeats ("I said
// don't touch it"), or something declared off limits. A "never" that
// describes ("it never modifies the semantics", "fetching SessionData,
// never rawData") is not a rule: never/always open the sentence or follow
// a conjunction; after a comma, dash or ellipsis only don't/do not/make
// sure/avoid/ask do.
var ruleShapeRe = prose.LazyRE(rulebook.Pattern("conversation.rule-shape"))

// RuleShaped reports whether a constraint reads as a standing rule.
func RuleShaped(text string) bool {
	shaped, _ := ruleShape(text)
	return shaped
}

// absoluteRe is the word of a rule without exceptions: never, always,
// don't, let's not, must (not), forbidden, off limits.
var absoluteRe = prose.LazyRE(rulebook.Pattern("conversation.absolute"))

// ruleShape reads a constraint's words (ruleWords) once for both tests:
// shaped, it reads as a standing rule; absolute, it is a rule that admits
// no exception ("never git add .", "don't put comments into bash
// snippets"), which goes ahead of every remark, since a successor that
// breaks it undoes the session's work, while a remark at worst goes
// unread.
func ruleShape(text string) (shaped, absolute bool) {
	t := ruleWords(text)
	shaped = ruleShapeRe.MatchString(t) || askFirstRe.MatchString(t) || ruleTagRe.MatchString(t)
	return shaped, shaped && absoluteRe.MatchString(t)
}

// RulesFirst orders constraints so that standing rules are not pushed out
// by the many recent preferences and remarks of a long session: rules
// without exception (ruleShape) come first, then the other rules and
// the rest alternate, a rule first, each newest first (the early "never
// git add ." then stands above the latest preference, and "make sure the
// message is short" next to it instead of below all of them). Items of a
// rule list and output formats (listed) are rules. It caps the list at
// maxConstraints after ordering.
func RulesFirst(cons []handoff.Constraint, listed map[string]bool) []handoff.Constraint {
	var absolutes, rules, rest []handoff.Constraint
	for _, c := range cons {
		shaped, absolute := ruleShape(c.Text)
		switch {
		case absolute:
			absolutes = append(absolutes, c)
		case listed[c.Text] || shaped:
			rules = append(rules, c)
		default:
			rest = append(rest, c)
		}
	}
	out := make([]handoff.Constraint, 0, len(cons))
	out = append(out, absolutes...)
	for i := 0; i < max(len(rules), len(rest)); i++ {
		if i < len(rules) {
			out = append(out, rules[i])
		}
		if i < len(rest) {
			out = append(out, rest[i])
		}
	}
	if len(out) > maxConstraints {
		out = out[:maxConstraints]
	}
	return out
}

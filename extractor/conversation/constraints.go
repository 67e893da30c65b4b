package conversation

import (
	"strings"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// constraintRe finds a person's standing instruction or preference.
var constraintRe = prose.LazyRE(rulebook.Pattern("conversation.constraint"))

var (
	// notRuleRe are the phrases that carry a constraint word without
	// setting a rule: the person saying what they (or the agent) do not
	// know or have ("I don't understand", "you simply don't have"), and a
	// guess ("Must be a bug", "it must have been"). A sentence whose only
	// constraint words sit in these is no constraint.
	notRuleRe = prose.LazyRE(rulebook.Pattern("conversation.not-rule"))
	// ruleTagRe is a rule of the person's instructions file named by its
	// tag ("a <tdd_discipline> violation", "adhere to <code_style/>"):
	// people who write CLAUDE.md/AGENTS.md in tagged sections point back
	// at them this way. A tag name with '_' or '-' is not HTML.
	ruleTagRe = prose.LazyRE(rulebook.Pattern("conversation.rule-tag"))
)

// IsConstraint reports whether a sentence of the person's states a rule or
// preference: the first step of constraintCascade that decides, decides.
func IsConstraint(sent string) bool {
	for _, step := range constraintCascade() {
		if isRule, decided := step.decide(sent); decided {
			return isRule
		}
	}
	return false
}

// constraintStep is one rule of IsConstraint's cascade: it says whether
// a sentence is a constraint (decided), or leaves it to the next step.
type constraintStep struct {
	id     string // the catalogue rule the step applies
	decide func(sent string) (isRule, decided bool)
}

// constraintCascade returns IsConstraint's rules in order of precedence,
// as a fresh array each call: a table nothing can change, at no
// allocation.
func constraintCascade() [4]constraintStep {
	return [...]constraintStep{
		// Code is not a rule, whatever its words ("if (!force) return").
		{"conversation.code-line", func(s string) (bool, bool) { return false, CodeLine(s) }},
		// A rule of the instructions file named by its tag
		// ("a <tdd_discipline> violation") is one.
		{"conversation.rule-tag", func(s string) (bool, bool) { return true, ruleTagRe.MatchString(s) }},
		// A request ("Can you run X and make sure it uses Y", "Please move X
		// … but don't bother with Y") is listed with the requests, unless
		// its rule stands beyond it.
		{"conversation.ask", func(s string) (bool, bool) {
			return false, askRe.MatchString(s) && !standingRuleRe.MatchString(s) || asksForTask(s)
		}},
		// Else a constraint word outside descriptions, quotes and musings.
		{"conversation.constraint", func(s string) (bool, bool) { return constraintRe.MatchString(ruleWords(s)), true }},
	}
}

// backRefRe opens a sentence with a pronoun standing for something said
// before it.
var backRefRe = prose.LazyRE(rulebook.Pattern("conversation.back-ref"))

// pointsBack reports whether sent is a short sentence whose subject is a
// pronoun for something said before it: out of context it names nothing.
func pointsBack(sent string) bool {
	return backRefRe.MatchString(sent) && len(strings.Fields(sent)) < 9
}

var (
	// askRe opens a request put as a question without its question mark.
	askRe = prose.LazyRE(rulebook.Pattern("conversation.ask"))
	// standingRuleRe is a rule that stands beyond the request it is in.
	standingRuleRe = prose.LazyRE(rulebook.Pattern("conversation.standing-rule"))
)

// constraints returns the person's constraints, standing rules first and
// newest first within rules and preferences (rulesFirst): sentences of
// their requests (code and quoted logs removed) that state a rule or
// preference.
//
// full holds the whole text of the requests whose Text was clipped, by
// source index: a task prompt's rules often come after its first 700
// runes. Items under a rule heading ("Constraints:") are constraints
// whatever their wording, and a line that introduces an output format is
// one with the format it introduces.
func constraints(reqs []handoff.Request, full map[int]string) []handoff.Constraint {
	var out []handoff.Constraint
	seen := map[string]bool{}
	listed := map[string]bool{}
	for i := len(reqs) - 1; i >= 0; i-- {
		r := reqs[i]
		if r.Answers != "" {
			continue
		}
		text := facts.StripCode(r.Text)
		whole := text
		if f, ok := full[r.Source.Index]; ok {
			whole = facts.StripCode(f)
		}
		for _, item := range ListedConstraints(whole) {
			if key := strings.ToLower(item); item != "" && !CodeLine(item) && !seen[key] && utf8.RuneCountInString(item) <= ConstraintLimit {
				seen[key], listed[item] = true, true
				out = append(out, handoff.Constraint{Text: item, Source: r.Source})
			}
		}
		// Past the clip only the structured rules are read (rule lists,
		// output formats): a long prompt's tail of tips is a harness's
		// boilerplate more often than the person's rules.
		sents := personSentences(whole)
		inClip := len(personSentences(text))
		if inClip < len(sents) {
			if p := PastedProhibitions(sents[inClip:]); p != "" && !seen[strings.ToLower(p)] {
				seen[strings.ToLower(p)], listed[p] = true, true
				out = append(out, handoff.Constraint{Text: p, Source: r.Source})
			}
		}
		skip := -1
		for j, sent := range sents {
			sent = strings.TrimSpace(sent)
			if j == skip {
				continue
			}
			if f, ok := withFormat(sents, j); ok && utf8.RuneCountInString(f) <= ConstraintLimit {
				sent, skip = f, j+1
				listed[f] = true
			} else if j >= inClip || sent == "" || strings.HasSuffix(sent, "?") || utf8.RuneCountInString(sent) > ConstraintLimit || !IsConstraint(sent) {
				// A question asks; it does not set a rule.
				continue
			}
			if pointsBack(sent) {
				// "That will never be in cloud." says nothing without the
				// sentence it points back to.
				prev := ""
				if j > 0 {
					prev = strings.TrimSpace(sents[j-1])
				}
				if prev == "" || strings.HasSuffix(prev, "?") || utf8.RuneCountInString(prev+" "+sent) > ConstraintLimit {
					continue
				}
				sent = prev + " " + sent
				if n := len(out); n > 0 && out[n-1].Text == prev && out[n-1].Source == r.Source {
					out = out[:n-1] // the rule and its follow-up, once
				}
			}
			key := strings.ToLower(sent)
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, handoff.Constraint{Text: sent, Source: r.Source})
		}
	}
	return RulesFirst(out, listed)
}

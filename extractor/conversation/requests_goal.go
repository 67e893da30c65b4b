package conversation

import (
	"strings"
	"unicode"

	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// GoalFit says whether a request of the person's can be the session's
// overall goal, and if not, why: the goal is the first message that asks
// for work. The tests are structural (question marks, where the message
// ends, its length) so that they hold in any language; the few word lists
// cover the languages people are seen writing in.
type GoalFit int

const (
	// GoalTask asks for work: it can be the goal.
	GoalTask GoalFit = iota
	// goalShort is too short to say what the work is ("let's go",
	// "FND-001", "изучи").
	GoalShort
	// goalQuestion only asks questions ("What stage is the project at?"),
	// unless it is a request put as a question ("Can you read X and start
	// on Y?").
	GoalQuestion
	// goalRule is a standing rule ("When working on features you must
	// always use TDD"): a constraint, never the goal.
	GoalRule
	// goalLookBack asks about the previous session ("summarise the last
	// session"): orientation before the work.
	GoalLookBack
	// GoalGoAhead lets the assistant go ahead with what it proposed
	// ("yes do it", "go ahead, and fix the tests too"): the goal stays
	// the request it approves.
	GoalGoAhead
	// goalPreamble is a short message that announces content that is not
	// in it: it ends on a colon with nothing after ("Here is what I want
	// you to do:"). A long one that ends so says enough before its colon.
	GoalPreamble
)

// goalMinFields is the fewest words (space-separated, punctuation-only
// tokens not counted) a goal has: "let's go" and "execute @hi.md" are too
// short to say what the work is; "Please rename a.py to b.py" is not.
const goalMinFields = 5

// lookBackMaxFields bounds a look-back message and a preamble: a long
// message that names the previous session is usually a task with its
// history attached, and a long one that ends on a colon has said a lot
// before it.
const lookBackMaxFields = 25

var (
	// askAnyRe opens a request put as a question, in the languages people
	// are seen writing in: "can/could/would you", "kannst du", "peux-tu",
	// "puedes", "можешь".
	askAnyRe = prose.LazyRE(rulebook.Pattern("conversation.ask-any"))
	// ruleWordRe marks a rule that stands beyond one request: always,
	// never (not "never mind"), whenever, from now on, in future, every
	// time, in the same languages.
	ruleWordRe = prose.LazyRE(rulebook.Pattern("conversation.rule-word"))
	// ruleSentenceRe is a sentence that spells a rule out rather than asks
	// for work: "should/must … every/each/all …".
	ruleSentenceRe = prose.LazyRE(rulebook.Pattern("conversation.rule-sentence"))
	// lookBackRe names the previous session or conversation.
	lookBackRe = prose.LazyRE(rulebook.Pattern("conversation.look-back"))
	// goAheadRe is a short reply approving what the assistant proposed.
	goAheadRe = prose.LazyRE(rulebook.Pattern("conversation.go-ahead"))
)

// GoalFitness classifies a request for the goal choice.
func GoalFitness(text string) GoalFit {
	body := strings.TrimSpace(facts.StripCode(text))
	n := fieldCount(body)
	if n < goalMinFields {
		return GoalShort
	}
	sents := goalSentences(body)
	if len(sents) == 0 {
		return GoalShort
	}
	if isStandingRule(sents) {
		return GoalRule
	}
	if allQuestions(sents) {
		return GoalQuestion
	}
	if goAheadRe.MatchString(body) {
		return GoalGoAhead
	}
	if n <= lookBackMaxFields && lookBackRe.MatchString(body) {
		return GoalLookBack
	}
	if n <= lookBackMaxFields && endsOnColon(body) {
		return GoalPreamble
	}
	return GoalTask
}

// fieldCount counts space-separated words, leaving out tokens that are
// only punctuation or symbols ("—", "->", "…").
func fieldCount(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			n++
		}
	}
	return n
}

// goalSentences splits text into sentences at line breaks and after
// ".", "!" or "?" followed by a space and an upper-case letter of any
// script (splitSentences only knows A–Z).
func goalSentences(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		out = prose.AppendSentences(out, strings.TrimSpace(line), unicode.IsUpper)
	}
	return out
}

// isStandingRule reports a message whose first sentence sets a standing
// rule and whose other sentences spell rules out too: nothing in it asks
// for a piece of work.
func isStandingRule(sents []string) bool {
	first := sents[0]
	if !hasRuleWord(first) {
		return false
	}
	if askAnyRe.MatchString(first) || strings.HasSuffix(first, "?") {
		return false
	}
	for _, s := range sents[1:] {
		if !hasRuleWord(s) && !ruleSentenceRe.MatchString(s) && !IsConstraint(s) {
			return false
		}
	}
	return true
}

// hasRuleWord reports a sentence with a rule word other than "never
// mind".
func hasRuleWord(s string) bool {
	for _, m := range ruleWordRe.FindAllString(s, -1) {
		if !strings.HasSuffix(strings.ToLower(m), "mind") {
			return true
		}
	}
	return false
}

// allQuestions reports a message that only asks: every sentence ends with
// a question mark (closing quotes or brackets aside) and none is a request
// put as a question.
func allQuestions(sents []string) bool {
	for _, s := range sents {
		t := strings.TrimRight(s, " \"'”’)*_")
		if !strings.HasSuffix(t, "?") && !strings.HasSuffix(t, "？") {
			return false
		}
		if askAnyRe.MatchString(s) {
			return false
		}
	}
	return true
}

// endsOnColon reports a message whose last line ends on a colon: it
// introduces content (a list, a pasted text) that is not there.
func endsOnColon(body string) bool {
	t := strings.TrimRight(body, " \t\n*_")
	return strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：")
}

package conversation

import (
	"github.com/handoff-cli/handoff/extractor/prose"
)
import "github.com/handoff-cli/handoff/extractor/rulebook"

// describedRe is a constraint word in a statement about a third party
// rather than a rule for the agent: "it never modifies the semantics",
// "a user which never ran the app", "the flag now always produces a
// path", "but they don't work". A rule is addressed to the agent (an
// imperative, "you/we must", "let's"). A third-person pronoun that opens
// a clause (sentence start, after a comma or a conjunction) or a relative
// pronoun right before never/always/don't is the subject of a
// description; so is the subject of a present-tense verb in its third
// person singular after never/always ("never modifies", "always
// returns"). A modal ("it must never", "tests should always") still sets
// a rule and is not matched, nor is an object pronoun ("make it always
// return 0"). "always has to"/"never needs to" are kept (describedKept).
var describedRe = prose.LazyRE(rulebook.Pattern("conversation.described"))

// describedKeptRe ends a described match that is a rule after all:
// "it always has to", "never needs to" say what must be.
var describedKeptRe = prose.LazyRE(rulebook.Pattern("conversation.described-kept"))

// toRe opens the rest of a sentence with "to".
var toRe = prose.LazyRE(rulebook.Pattern("conversation.to-rest"))

// quotedRe is a span of quoted text: an error message, a log line, a
// line of a document the person cites. A quote the person did not close
// before the sentence ends runs to its end.
var quotedRe = prose.LazyRE(rulebook.Pattern("conversation.quoted"))

// quotedRuleRe opens a quote that is itself a rule ("I said "never push""):
// the person quoting their own instruction.
var quotedRuleRe = prose.LazyRE(rulebook.Pattern("conversation.quoted-rule"))

// ruleWords is sent with what carries a constraint word without setting
// a rule masked: notRuleRe's phrases, then withoutDescriptions. The
// constraint test and the rule ranking read the same words.
func ruleWords(sent string) string {
	return withoutDescriptions(notRuleRe.ReplaceAllString(sent, " "))
}

// withoutDescriptions masks in sent what carries a constraint word without
// setting a rule: descriptions of a third party (describedRe), quoted
// text that is not a quoted rule (quotedRe), the person's musings
// about their own action (musingRe) and "important" before a noun
// (attributiveRe). A sentence whose constraint words
// all sit in these is no constraint.
func withoutDescriptions(sent string) string {
	sent = quotedRe.ReplaceAllStringFunc(sent, func(q string) string {
		if quotedRuleRe.MatchString(q) {
			return q
		}
		return " "
	})
	sent = withoutAttributives(withoutMusings(sent))
	var spans [][2]int
	for _, m := range describedRe.FindAllStringIndex(sent, -1) {
		if !describedKeptRe.MatchString(sent[m[0]:m[1]]) || !toRe.MatchString(sent[m[1]:]) {
			spans = append(spans, [2]int{m[0], m[1]})
		}
	}
	return maskSpans(sent, spans)
}

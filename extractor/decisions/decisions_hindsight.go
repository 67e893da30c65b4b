package decisions

import (
	"strings"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// Hindsight is not a decision. "I should have used ripgrep rather than
// the Task tool", "we shouldn't have pinned it", "it would have been
// better to ask first" match a choosing pattern (a choice word, "instead",
// "rather than"), but the modal perfect puts the choice in the past and
// counterfactual: a regret or a lesson, not a choice the work now rests
// on. Shown under "Decisions in force" it tells a successor that the
// session settled on something it never did.
//
// The grammar, not one session's phrases: a modal of obligation or
// possibility with a perfect infinitive (should/shouldn't/ought to/could/
// would/might + have + past participle), the "better/wiser to" judgement
// in the conditional perfect, "in hindsight"/"in retrospect", "I wish I
// had", and the same counterfactuals in French, German and Spanish.

// hindsightRe is a counterfactual clause about the past.
var hindsightRe = prose.LazyRE(rulebook.Pattern("decisions.hindsight"))

// hindsightAllRe is an adverbial that puts the whole sentence in
// hindsight: "In hindsight, choosing X over Y was overkill".
var hindsightAllRe = prose.LazyRE(rulebook.Pattern("decisions.hindsight-all"))

// clauseBreakRe splits a sentence into clauses: punctuation, a spaced
// dash, or a conjunction that opens a new main clause.
var clauseBreakRe = prose.LazyRE(rulebook.Pattern("decisions.clause-break"))

// hindsightOnly reports whether a sentence chooses only in hindsight: it
// has a counterfactual clause, and without its counterfactual clauses it
// matches none of the decision patterns. "I should have used X, so I'll
// switch to X now" keeps its present choice.
func hindsightOnly(sent string, patterns []prose.LazyRegexp) bool {
	if hindsightAllRe.MatchString(sent) {
		return true
	}
	if !hindsightRe.MatchString(sent) {
		return false
	}
	var kept []string
	for _, cl := range splitClauses(sent) {
		if !hindsightRe.MatchString(cl) {
			kept = append(kept, cl)
		}
	}
	return !prose.MatchesAny(patterns, strings.Join(kept, ". "))
}

// splitClauses returns the clauses of a sentence, split at clauseBreakRe.
func splitClauses(s string) []string {
	var out []string
	last := 0
	for _, loc := range clauseBreakRe.Regexp().FindAllStringIndex(s, -1) {
		out = append(out, s[last:loc[0]])
		last = loc[1]
	}
	return append(out, s[last:])
}

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
var hindsightRe = prose.LazyRE(`(?i)` +
	`\b(?:should|shouldn['’]?t|should not|ought(?:n['’]?t| not)? to|could|couldn['’]?t|would|wouldn['’]?t|might|must)` +
	`(?:\s+(?:not|just|really|probably|also|simply|instead|rather|first|never|already))*(?:\s+have|\s*['’]ve)\s+` +
	`(?:(?:just|simply|first|also|instead)\s+)?` + pastParticiple + `\b` +
	`|\b(?:it|that|this)(?:\s+would|['’]d)\s+have\s+been\s+(?:better|wiser|simpler|easier|cleaner|safer|smarter|faster|preferable|more \w+)\b` +
	`|\bi wish (?:i|we) had\b|\bhad (?:i|we) (?:used|known|checked|asked|run|read)\b` +
	// French: j'aurais dû, on aurait dû, nous aurions dû; il aurait mieux valu.
	`|\b(?:aurais|aurait|aurions|auriez|auraient)\s+(?:d[uû]|mieux valu|pu)(?:[\s.,;:!?]|$)` +
	// German: hätte … sollen/müssen/können; wäre besser gewesen.
	`|\bh[äa]tten?\b[^.;:!?]{0,60}\b(?:sollen|m[üu]ssen|k[öo]nnen)\b|\bw[äa]re\b[^.;:!?]{0,30}\bbesser gewesen\b` +
	// Spanish: debería haber, debí haber, hubiera sido mejor.
	`|\b(?:deber[íi]a|deb[íi]|deber[íi]amos|debimos|tendr[íi]a que)\s+haber\b|\bhubiera sido mejor\b`)

// pastParticiple is a regular past participle or a common irregular
// one: "have used" is the perfect, "should have a test" is not.
const pastParticiple = `(?:\w+ed|been|done|gone|made|taken|written|run|known|seen|put|set|kept|left|let|read|built|chosen|given|got|gotten|thought|told|found|brought|sent|spent|said|split|begun|stuck|shown|held|meant|dealt|won|lost|paid|taught|understood|rewritten|undone|overridden)`

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

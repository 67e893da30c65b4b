package decisions

import (
	"strings"
	"unicode"
)

// A choice or an alternative is captured up to the first clause word
// ("to", "now", "in", …), which ends most noun phrases ("Redis for the
// cache") but cuts some mid-clause: "rather than trying to auto-stage
// fixes" kept "trying", "instead of the copy it is now" kept "copy it
// is". Shown as "rejected: “trying”", such a fragment misleads; a phrase
// that ends on a word that cannot end one runs on to the clause's
// punctuation instead.

// danglingEnd reports a last word that leaves a phrase unfinished: a
// verb that takes "to" or a copula, an auxiliary, a preposition, or a
// gerund followed by "to" ("trying to …").
func danglingEnd(last, next string) bool {
	switch last {
	case "is", "are", "was", "were", "be", "been", "being", "has", "have", "had",
		"able", "unable", "want", "need", "try", "going", "trying", "having", "needing", "wanting",
		"of", "with", "on", "at", "by", "into", "onto", "than":
		return true
	}
	return strings.HasSuffix(last, "ing") && next == "to"
}

// capturedPhrase returns the phrase sent[start:end] captured, run on to
// the next clause punctuation when it ends mid-clause.
func capturedPhrase(sent string, start, end int) string {
	words := strings.Fields(strings.ToLower(sent[start:end]))
	if len(words) == 0 {
		return sent[start:end]
	}
	rest := sent[end:]
	next := ""
	if f := strings.Fields(strings.ToLower(rest)); len(f) > 0 {
		next = strings.TrimFunc(f[0], func(r rune) bool { return !unicode.IsLetter(r) })
	}
	if !danglingEnd(words[len(words)-1], next) {
		return sent[start:end]
	}
	stop := strings.IndexAny(rest, ",;:!?()\"")
	if dot := strings.Index(rest, ". "); dot >= 0 && (stop < 0 || dot < stop) {
		stop = dot
	}
	if stop < 0 {
		stop = len(rest)
	}
	return sent[start : end+stop]
}

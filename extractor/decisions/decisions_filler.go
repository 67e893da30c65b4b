package decisions

import (
	"strings"
	"unicode"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// A choice of nothing: "Let's work WITH that rather than against it.",
// "I'll go with this one instead." The pattern matched a choosing verb,
// but what was chosen is a pronoun, and the sentence names nothing a
// successor could act on or re-litigate. Such a line costs budget and
// reads like a decision; it is filler.

// identifierRe is a token a successor can act on: code in backticks, a
// path, a file name or pkg.Func, a flag, a number, snake_case,
// kebab-case with two dashes, CamelCase or camelCase, or a quoted name.
var identifierRe = prose.LazyRE(rulebook.Pattern("decisions.identifier"))

// isEmptyChoiceWord reports a word that names nothing on its own: a
// pronoun, a deictic, a function word, or a noun that only stands for
// "the choice" (approach, option, way).
func isEmptyChoiceWord(w string) bool {
	switch w {
	case "that", "this", "these", "those", "it", "its", "them", "they", "one", "ones",
		"there", "here", "what", "which", "whatever", "something", "anything", "everything",
		"nothing", "same", "other", "another", "either", "neither", "both", "all", "former", "latter",
		"him", "her", "he", "she", "you", "we", "us", "i", "me", "my", "our", "your", "their",
		"the", "a", "an", "with", "against", "on", "in", "at", "by", "for", "to", "of", "and", "or",
		"not", "then", "so", "too", "also", "just", "now", "back", "again", "instead", "rather",
		"thing", "things", "stuff", "way", "approach", "option", "idea", "solution", "plan",
		"s", "ll", "is", "be", "go", "going":
		return true
	}
	return false
}

// EmptyPhrase reports whether a captured phrase is only words that name
// nothing ("that", "WITH that", "this one"); an empty phrase is not.
func EmptyPhrase(p string) bool {
	words := strings.FieldsFunc(strings.ToLower(p), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-'
	})
	for _, w := range words {
		if !isEmptyChoiceWord(w) {
			return false
		}
	}
	return len(words) > 0
}

// sentenceNamesThing reports whether a sentence names something concrete:
// an identifierRe token, an acronym that is not a shouted function word
// ("API", not "WITH"), or a capitalised word that does not start the
// sentence (a product or library: Redis, Tower).
func sentenceNamesThing(s string) bool {
	if identifierRe.MatchString(s) {
		return true
	}
	atStart := true
	for _, w := range strings.Fields(s) {
		t := strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		r := []rune(t)
		switch {
		case len(r) < 2 || atStart || !unicode.IsUpper(r[0]):
		case strings.ToUpper(t) == t:
			// An all-capitals word: an acronym names a thing, a function
			// word in capitals is emphasis.
			if l := strings.ToLower(t); !isEmptyChoiceWord(l) && !isEmphasisWord(l) {
				return true
			}
		default:
			return true
		}
		atStart = strings.HasSuffix(w, ".") || strings.HasSuffix(w, ":") || strings.HasSuffix(w, "!") ||
			strings.HasSuffix(w, "?") || strings.HasSuffix(w, "—")
	}
	return false
}

// choosesNothing reports a candidate whose chosen phrase is only
// pronouns and function words in a sentence that names nothing concrete.
func choosesNothing(c candidate) bool {
	return len(c.chosen) > 0 && EmptyPhrase(c.chosen[0]) && !sentenceNamesThing(c.Description)
}

// isEmphasisWord reports a word written in capitals for stress rather
// than as an acronym: "do NOT", "NEVER", "ONLY this".
func isEmphasisWord(w string) bool {
	switch w {
	case "no", "not", "never", "always", "only", "must", "do", "don", "very", "really", "now",
		"ok", "okay", "yes", "please", "still", "first", "before", "after", "exactly", "every":
		return true
	}
	return false
}

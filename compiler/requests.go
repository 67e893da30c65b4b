package compiler

import (
	"slices"
	"strings"
	"unicode"
)

// nearDuplicateJaccard is the token overlap above which two of the
// person's messages are one message sent twice (a re-send with a typo
// fixed, a pasted log pasted again).
const nearDuplicateJaccard = 0.85

// nearDuplicate reports two texts whose word sets overlap by
// nearDuplicateJaccard or more (Jaccard index, case folded).
func nearDuplicate(a, b string) bool {
	return nearDuplicateSets(tokenSet(a), tokenSet(b))
}

// nearDuplicateSets is nearDuplicate over word sets made by tokenSet.
func nearDuplicateSets(ta, tb map[string]bool) bool {
	if len(ta) == 0 || len(tb) == 0 {
		return false
	}
	inter := sharedWords(ta, tb)
	union := len(ta) + len(tb) - inter
	return float64(inter) >= nearDuplicateJaccard*float64(union)
}

// restatedWithin is the share of a message's distinct words found in a
// text shown elsewhere above which the message says nothing new: a
// coordinator's rule restated in its next, longer message, a constraint
// the latest request shown above states in the same words.
const restatedWithin = 0.85

// minRestated is the fewest distinct words a message needs before it is
// judged restated: a short one ("Delete them.") is found word for word in
// many a longer text by chance, and carries its own fact.
const minRestated = 6

// restated reports whether words (a tokenSet) are, restatedWithin or
// more, among the words of one of within.
func restated(words map[string]bool, within ...map[string]bool) bool {
	if len(words) < minRestated {
		return false
	}
	for _, t := range within {
		if float64(sharedWords(words, t)) >= restatedWithin*float64(len(words)) {
			return true
		}
	}
	return false
}

// sharedWords counts the words of a that b has too.
func sharedWords(a, b map[string]bool) int {
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	return n
}

// minWordForWord is the fewest words a text needs before
// quotedWordForWord takes it as said where it appears word for word: three
// words in a row ("Preserve agent-first design") rarely meet by chance.
const minWordForWord = 3

// quotedWordForWord reports whether words (a wordList) appear, in a row,
// in one of within: a short constraint a request shown above says in its
// own words, too short for restated to judge by its share of words.
func quotedWordForWord(words []string, within ...[]string) bool {
	if len(words) < minWordForWord {
		return false
	}
	for _, hay := range within {
		for i := 0; i+len(words) <= len(hay); i++ {
			if slices.Equal(hay[i:i+len(words)], words) {
				return true
			}
		}
	}
	return false
}

// wordList is s's words in order, lower-cased, punctuation out.
func wordList(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// tokenSet is s's words (wordList) as a set.
func tokenSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range wordList(s) {
		out[w] = true
	}
	return out
}

// ackWords are bare acknowledgements, refusals and greetings, in the
// languages people are seen writing in: a message of nothing else ("go
// on", "Hell, NO!") means nothing out of its context. Words that carry an instruction ("delete", "commit") are
// not here: measured, leaving out every short message lost facts.
var ackWords = map[string]bool{
	"hi": true, "hello": true, "hey": true, "thanks": true, "thank": true, "you": true, "ok": true, "okay": true,
	"yes": true, "yep": true, "yup": true, "yeah": true, "sure": true, "great": true, "good": true, "cool": true,
	"nice": true, "perfect": true, "awesome": true, "thx": true, "ty": true, "k": true, "fine": true, "lgtm": true,
	"merci": true, "beaucoup": true, "oui": true, "danke": true, "ja": true, "gut": true, "super": true, "perfekt": true,
	"gracias": true, "sí": true, "si": true, "grazie": true, "да": true, "спасибо": true, "привет": true, "хорошо": true, "ок": true,
	"hallo": true, "bonjour": true, "salut": true, "hola": true, "go": true, "ahead": true, "continue": true, "proceed": true, "please": true,
	"on": true, "no": true, "nope": true, "nah": true, "hell": true, "do": true, "it": true, "lets": true, "let": true, "s": true, "nein": true, "non": true, "нет": true, "weiter": true, "vas": true, "y": true,
}

// bareAck reports a message that is only an acknowledgement or a greeting
// ("yup!", "hi", "Merci beaucoup").
func bareAck(s string) bool {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(words) == 0 || len(words) > 3 {
		return false
	}
	for _, w := range words {
		if !ackWords[w] {
			return false
		}
	}
	return true
}

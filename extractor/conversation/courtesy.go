package conversation

import (
	"strings"
	"unicode"
)

// maxCourtesy is how many courtesy sentences withoutCourtesy takes off
// the start of a message ("Ah, I see! You're absolutely right. …").
const maxCourtesy = 3

// withoutCourtesy is an assistant message without the courtesies that
// open it: an exclamation ("Perfect!", "Ah!"), an acknowledgement
// ("You're absolutely right!", "Got it.", "Great question!"), an apology
// or thanks ("My apologies for the confusion."). They say nothing a
// successor can use and cost the first tokens of every quote: a report's
// headline, a recent turn's short form, the next step's quote of the
// last message. A message that is nothing but courtesy is kept whole.
func withoutCourtesy(text string) string {
	rest := strings.TrimLeft(text, " \t\n")
	for range maxCourtesy {
		sent, after, ok := leadingSentence(rest)
		if !ok || !courtesy(sent) {
			break
		}
		rest = strings.TrimLeft(after, " \t\n")
	}
	if strings.TrimSpace(rest) == "" {
		return text
	}
	if len(rest) < len(strings.TrimLeft(text, " \t\n")) {
		return rest
	}
	return text
}

// leadingSentence splits text after its first sentence: up to a '.', '!'
// or '?' followed by a space or line end, or up to the first line end.
func leadingSentence(text string) (sent, rest string, ok bool) {
	for i, r := range text {
		if r == '\n' {
			return text[:i], text[i:], true
		}
		if (r == '.' || r == '!' || r == '?') && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n') {
			j := i + 1
			return text[:j], text[j:], true
		}
	}
	return text, "", text != ""
}

// ackWord reports whether w is one of the words an acknowledgement or
// exclamation is made of ("you're absolutely right", "great catch").
func ackWord(w string) bool {
	switch w {
	case "oh", "ah", "aha", "ahh", "great", "perfect", "excellent", "awesome", "wonderful", "fantastic",
		"good", "nice", "brilliant", "ok", "okay", "alright", "sure", "absolutely", "exactly", "indeed",
		"right", "yes", "yep", "understood", "got", "it", "i", "see", "understand", "makes", "sense",
		"you're", "you", "are", "completely", "totally", "quite", "catch", "point", "question", "idea",
		"observation", "call", "find", "news", "testing", "thinking", "spot", "on", "that's", "a":
		return true
	}
	return false
}

// courtesy reports whether a sentence only responds to the person: an
// apology or thanks, or a few words of acknowledgement. A question is
// never one.
func courtesy(sent string) bool {
	s := strings.ToLower(strings.TrimSpace(strings.Trim(strings.TrimSpace(sent), "*_#")))
	if s == "" || strings.HasSuffix(s, "?") || strings.HasSuffix(s, ":") {
		return false
	}
	s = strings.ReplaceAll(s, "’", "'")
	words := strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && r != '\''
	})
	if len(words) == 0 {
		return false
	}
	for _, p := range []string{"my apologies", "i apologize", "i apologise", "apologies", "sorry", "thank you", "thanks"} {
		// "Sorry for the noise." is all courtesy; "Sorry, the build
		// still fails" goes on to say something.
		if rest, ok := strings.CutPrefix(s, p); ok && len(words) <= 16 {
			rest = strings.TrimLeft(rest, " ,")
			if strings.Trim(rest, ".!") == "" || strings.HasPrefix(rest, "for ") || strings.HasPrefix(rest, "about ") {
				return true
			}
		}
	}
	if len(words) > 5 {
		return false
	}
	for _, w := range words {
		if !ackWord(w) {
			return false
		}
	}
	return true
}

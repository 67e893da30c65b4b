package compiler

import (
	"strings"
	"unicode/utf8"

	"github.com/handoff-cli/handoff/internal/lazyre"
)

// quotedSpanRe finds a quote of transcript text in the next step, as the
// extractor writes it: in curly quotes, at least a short sentence long.
var quotedSpanRe = lazyre.New(`(?:: )?“([^“”]{20,})”`)

// minRefQuote is the shortest quote after a colon that referToShown
// replaces: a shorter one is often the step itself ("Next session: an
// end-to-end test of the importer."), which a next step must name, and
// costs little to repeat.
const minRefQuote = 100

// minRefReport is the shortest quote elsewhere that referToShown
// replaces ("reporting “…”", "its final answer (“…”)"): it says what the
// message shown above says, and a reference is shorter from about this
// length on; a shorter quote could match the message by chance.
const minRefReport = 40

// lastMessageKind is the kind of the last assistant message's pieces.
const lastMessageKind = "last assistant message"

// lastMessageRef stands for a quote of the last assistant message, which
// the prompt quotes above the next step.
const lastMessageRef = "(its last message, quoted above)"

// referToShown replaces each quote in the next step of text that the
// assistant's last message shows (its first shortText runes) with a
// reference to that message: the
// prompt quotes the message under "Where the session stopped", ranked
// before every piece but the next step, and a next step that repeats its
// first sentence ("The last turn ended with the assistant reporting “…”")
// spent 20–40 tokens saying it twice, clipped mid-word when long. The
// comparison ignores markdown emphasis and spacing, which the extractor's
// quote drops; a quote clipped with "…" matches by what it keeps.
func referToShown(next, last string) string {
	if strings.TrimSpace(last) == "" {
		return next
	}
	// Only what the message's shortest variant shows: a longer one may
	// not fit.
	flat := flatText(clipText(sanitize(strings.TrimSpace(last)), shortText))
	out := quotedSpanRe.ReplaceAllStringFunc(next, func(m string) string {
		step := strings.HasPrefix(m, ": ")
		span := strings.TrimSuffix(strings.TrimSuffix(strings.Trim(strings.TrimPrefix(m, ": "), "“”"), "…"), "...")
		span = flatText(span)
		least := minRefReport
		if step {
			least = minRefQuote
		}
		if utf8.RuneCountInString(span) < least || !quotedFrom(flat, span) {
			return m
		}
		if step {
			// "said comes next: “…”" names the step after the colon: the
			// quote is the step, and a next step must say it, unless it
			// is the whole message shown above (a last message that is
			// nothing but the next step).
			if 10*utf8.RuneCountInString(span) < 9*utf8.RuneCountInString(flat) {
				return m
			}
			return " " + lastMessageRef
		}
		return lastMessageRef
	})
	// "its final answer (“…”)" takes the reference without a second pair
	// of parentheses.
	out = strings.ReplaceAll(out, "("+lastMessageRef+")", lastMessageRef)
	if strings.HasSuffix(out, lastMessageRef) {
		out += "." // the quote ended the sentence
	}
	return out
}

// maxQuoteGap is how many words of a message a quote of it may leave out
// between two words it keeps: the extractor's quote of a report joins its
// first sentences and list items and drops the list markers, labels and
// headings between them ("fixtures/ Fixed the…" from "fixtures/⏎2. Fixed
// the…").
const maxQuoteGap = 8

// quotedFrom reports whether span quotes flat: as one run of its text, or
// word for word in order with only short stretches (maxQuoteGap words)
// left out between them, starting anywhere.
func quotedFrom(flat, span string) bool {
	if strings.Contains(flat, span) {
		return true
	}
	want, have := strings.Fields(span), strings.Fields(flat)
	if len(want) == 0 {
		return false
	}
	for start := range have {
		if have[start] != want[0] {
			continue
		}
		matched, gap := 1, 0
		for k := start + 1; k < len(have) && matched < len(want) && gap <= maxQuoteGap; k++ {
			if have[k] == want[matched] {
				matched, gap = matched+1, 0
			} else {
				gap++
			}
		}
		if matched == len(want) {
			return true
		}
	}
	return false
}

// flatText is text without markdown emphasis and with its white space
// collapsed, for comparing a quote with what it quotes.
func flatText(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '*' || r == '`' || r == '_' {
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// nextLine is the next step clipped inline at limit runes. The extractor
// quotes transcript text in it (“…”); a clip inside a quote would leave
// the quote open, and the rest of the prompt would read as part of the
// transcript's words (or the transcript's words as the prompt's), so an
// open quote is closed after the clip mark.
func nextLine(next string, limit int) string {
	s := inline(next, limit)
	if open := strings.Count(s, "“") - strings.Count(s, "”"); open > 0 {
		s += strings.Repeat("”", open)
	}
	return s
}

// The next step's variants are clipped at these many runes; the shortest
// is always shown.
const (
	nextShort  = 160
	nextLonger = 360
	nextFull   = 700
)

// nextStepRef stands for a plan task the next step quotes.
const nextStepRef = "(the next step above)"

// quotesWhole reports whether the next step quotes text whole: the
// question a session ended on is the next step's own quote ("waiting for
// the person's answer to: “…?”"), and the stop section saying it again
// spent 20–40 tokens on a repeat.
func quotesWhole(next, text string) bool {
	t := flatText(strings.TrimSpace(text))
	return t != "" && strings.Contains(flatText(next), "“"+t+"”")
}

// namesWholeCall reports a next step that quotes a one-line call as code,
// as "Check first the call left without a result: `…`" does, so the
// call-in-flight line would only repeat it.
func namesWholeCall(next, call string) bool {
	c := strings.TrimSpace(call)
	return c != "" && !strings.Contains(c, "\n") && strings.Contains(next, "`"+c+"`")
}

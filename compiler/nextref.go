package compiler

import (
	"strings"

	"github.com/handoff-cli/handoff/internal/lazyre"
)

// quotedSpanRe finds a quote of transcript text in the next step, as the
// extractor writes it: in curly quotes, at least a short sentence long.
var quotedSpanRe = lazyre.New(`“([^“”]{20,})”`)

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
		span := strings.TrimSuffix(strings.TrimSuffix(strings.Trim(m, "“”"), "…"), "...")
		span = flatText(span)
		if len([]rune(span)) >= 20 && strings.Contains(flat, span) {
			return lastMessageRef
		}
		return m
	})
	// "its final answer (“…”)" takes the reference without a second pair
	// of parentheses.
	return strings.ReplaceAll(out, "("+lastMessageRef+")", lastMessageRef)
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

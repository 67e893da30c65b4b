package prose

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// FoldText lower-cases s and joins its runs of white space into one
// space, so a quote matches its source across line breaks and case.
func FoldText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	FoldInto(&b, s)
	return b.String()
}

// FoldInto writes s folded as foldText does, in one pass: lower case,
// runs of space as one, none at the ends. strings.Join(strings.Fields(
// strings.ToLower(s)), " ") said the same with three copies of s, which
// was most of the cost of folding a session's tool output.
func FoldInto(b *strings.Builder, s string) {
	space, started := false, false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = started
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		started = true
		if r < utf8.RuneSelf {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			b.WriteByte(byte(r))
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
}

package prose

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Truncate cuts s to at most n runes, marking the cut with "…".
func Truncate(s string, n int) string {
	s = strings.TrimSpace(s)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// FirstLine is s's first line, truncated to 120 runes.
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return Truncate(s, 120)
}

// HeadOf is s's first n bytes: enough of a long output to judge it by.
func HeadOf(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// ClipSentences shortens s to at most n runes, cutting after the last
// sentence (or line) that fits rather than mid-word; "…" marks a cut.
func ClipSentences(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut := s
	// byte offset of rune n-1
	i, count := 0, 0
	for i = range s {
		if count == n-1 {
			break
		}
		count++
	}
	cut = s[:i]
	best := -1
	for _, sep := range []string{". ", ".\n", "? ", "! ", "\n", "; "} {
		if j := strings.LastIndex(cut, sep); j > best {
			best = j
		}
	}
	if best >= len(cut)/2 {
		return strings.TrimSpace(cut[:best+1]) + " …"
	}
	if j := strings.LastIndexByte(cut, ' '); j >= len(cut)/2 {
		return strings.TrimSpace(cut[:j]) + " …"
	}
	return strings.TrimSpace(cut) + "…"
}

// ProseSentences splits prose into sentences, each with its closing
// punctuation. A sentence ends at '.', '!' or '?' followed by white space
// or the end of the text, or at a line break — never at a dot inside a
// word ("Vue.js", "~/.bashrc", "v1.2.3") or inside a `code span`, which
// would tear names apart when the sentences are joined again.
func ProseSentences(text string) []string {
	var out []string
	start, inCode := 0, false
	emit := func(end int) {
		if s := text[start:end]; strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
		start = end
	}
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '`':
			inCode = !inCode
		case c == '\n':
			inCode = false
			emit(i + 1)
		case inCode:
		case c == '.' || c == '!' || c == '?':
			j := i
			for j+1 < len(text) && strings.IndexByte(".!?", text[j+1]) >= 0 {
				j++
			}
			if j+1 == len(text) || text[j+1] == ' ' || text[j+1] == '\t' || text[j+1] == '\n' || text[j+1] == '\r' {
				emit(j + 1)
			}
			i = j
		}
	}
	emit(len(text))
	return out
}

// WordCount counts the fields made of letters only (no paths, numbers or
// identifiers with punctuation inside).
func WordCount(text string) int {
	n := 0
	for _, f := range strings.Fields(text) {
		f = strings.TrimFunc(f, func(r rune) bool { return unicode.IsPunct(r) })
		if f != "" && strings.IndexFunc(f, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 {
			n++
		}
	}
	return n
}

// lowerASCII lower-cases an ASCII letter.
func lowerASCII(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// asciiLower lower-cases ASCII letters only, leaving every other byte as
// it is (strings.ToLower would also map non-ASCII runes, and allocates
// the same).
func asciiLower(s string) string {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if c := b[i]; c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

package compiler

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// quote turns transcript text into data that cannot steer the reader:
// clipped to max runes (ending in "…" when cut), then escaped and
// double-quoted as a Go string literal, so newlines, quotes, control and
// bidi characters appear as escapes on a single line and the text can
// neither start a markdown heading or fence nor close the quote. It
// reports whether the text was clipped. Empty text stays "".
func quote(s string, max int) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", false
	}
	s, clipped := clip(s, max)
	return strconv.Quote(s), clipped
}

// clip shortens s to at most max runes, the last being "…", and makes it
// valid UTF-8.
func clip(s string, max int) (string, bool) {
	if max < 2 {
		max = 2
	}
	if len(s) <= max && utf8.ValidString(s) {
		return s, false
	}
	n := 0
	for i := range s {
		if n == max-1 {
			if utf8.RuneCountInString(s[i:]) > 1 {
				return strings.ToValidUTF8(strings.TrimRight(s[:i], " \t\r\n"), "\uFFFD") + "…", true
			}
			break
		}
		n++
	}
	return strings.ToValidUTF8(s, "\uFFFD"), false
}

// label renders a short machine value (a type, a status, an id) bare when
// it is made only of safe characters, and quoted otherwise: extractor
// output and ids can come from a transcript too.
func label(s string, max int) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if len(s) <= max && safeLabel(s) {
		return s
	}
	q, _ := quote(s, max)
	return q
}

func safeLabel(s string) bool {
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("_-.:/@+", r):
		default:
			return false
		}
	}
	return true
}

// groupDigits formats n with thousands separators: 152300 → "152,300".
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

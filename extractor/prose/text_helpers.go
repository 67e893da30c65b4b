package prose

import (
	"strings"
	"unicode/utf8"
)

// WordSet returns the lower-cased words of s as a set.
func WordSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), NotWordRune) {
		set[w] = true
	}
	return set
}

// Jaccard returns the share of words two sets have in common (1 for two empty sets).
func Jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// NotWordRune reports a rune that separates words for WordSet.
func NotWordRune(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' || r > 127)
}

// MatchesAny reports whether any of res matches s, lower-casing s once for all their gates.
func MatchesAny(res []LazyRegexp, s string) bool {
	var lower Lowered // one lower-casing of s for every pattern's gate
	for _, re := range res {
		if re.gate().match(s, &lower) {
			return true
		}
	}
	return false
}

// ContainsFold reports whether list holds s, ignoring case.
func ContainsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// CleanLine strips markdown list and emphasis markers from a line.
func CleanLine(l string) string {
	l = strings.TrimSpace(l)
	for _, p := range []string{"- ", "* ", "+ ", "> ", "#### ", "### ", "## ", "# "} {
		l = strings.TrimPrefix(l, p)
	}
	if i := strings.Index(l, ". "); i > 0 && i <= 3 && IsDigits(l[:i]) {
		l = l[i+2:]
	}
	return strings.TrimSpace(strings.ReplaceAll(l, "**", ""))
}

// IsDigits reports whether s is a non-empty run of ASCII digits.
func IsDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// SplitSentences splits text into sentences: at line breaks, and after
// ".", "!" or "?" followed by a space and a capital letter (so "e.g. the"
// and "main.go" stay whole).
func SplitSentences(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		out = AppendSentences(out, CleanLine(line), func(r rune) bool { return 'A' <= r && r <= 'Z' })
	}
	return out
}

// AppendSentences appends the sentences of one line to out: it breaks
// after ".", "!" or "?" followed by a space and a rune for which
// capital holds.
func AppendSentences(out []string, line string, capital func(rune) bool) []string {
	return AppendSentencesWhere(out, line, func(line string, start, i int) bool {
		r, _ := utf8.DecodeRuneInString(line[i+2:])
		return capital(r)
	})
}

// AppendSentencesWhere appends the sentences of one line to out: it
// breaks after a ".", "!" or "?" at byte i followed by a space where
// breaks(line, start, i) holds, start being where the sentence began.
func AppendSentencesWhere(out []string, line string, breaks func(line string, start, i int) bool) []string {
	start := 0
	for i := 0; i+2 < len(line); i++ {
		if c := line[i]; (c != '.' && c != '!' && c != '?') || line[i+1] != ' ' {
			continue
		}
		if !breaks(line, start, i) {
			continue
		}
		if s := strings.TrimSpace(line[start : i+1]); s != "" {
			out = append(out, s)
		}
		start = i + 2
	}
	if s := strings.TrimSpace(line[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// Plural returns one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// WithoutMarkup drops the lines of a message that are layout, not words:
// table rows, rules ("---", an escaped "\---"), and headings or labels of
// fewer than three words, so that a report's first sentence is prose.
func WithoutMarkup(text string) string {
	var keep []string
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		switch {
		case l == "", strings.HasPrefix(l, "|"), strings.Trim(l, `-*_=\ `) == "":
			continue
		case WordCount(l) < 3 && (strings.HasPrefix(l, "#") || strings.HasPrefix(l, "**") || strings.HasSuffix(l, ":")):
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

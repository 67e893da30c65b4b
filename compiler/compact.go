package compiler

import (
	"strings"
	"unicode/utf8"
)

// Agents write their reports in decorated markdown: bold runs, headings,
// pictographs before every heading and list item, dot leaders and rules
// in tool output. Each costs tokens and none carries a fact, and a prompt
// quotes many such reports under a tight budget, so quoted prose is
// compacted before it is clipped: the same limit then holds more words.
// Status marks that do carry a fact (✅ ❌ ⚠ ☐ ☒ ✓ ✗, the coloured
// circles) are kept, and so is everything in code spans: commands and
// paths are rendered by code, which does not compact.

// compactProse removes markdown bold markers (a pair of ** on one line), decorative pictographs with the space after them, runs of
// four or more of one punctuation character inside a line (dot leaders;
// they become "…"), a heading's leading #s, and whole lines of layout
// (code fences, rules). Text without any of these
// comes back unchanged and uncopied.
func compactProse(s string) string {
	if !needsCompacting(s) {
		return s
	}
	lines := strings.Split(s, "\n")
	kept := lines[:0]
	for _, line := range lines {
		if layoutLine(line) {
			continue
		}
		kept = append(kept, compactProseLine(line))
	}
	return strings.Join(kept, "\n")
}

// layoutLine reports whether a line is only layout: a code fence (its
// language tag included) or a horizontal rule. Quoted, each would need a
// visible escape to stay inert; dropped, the lines between them still
// read as what they are.
func layoutLine(line string) bool {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		tag := strings.TrimLeft(t, "`~")
		return !strings.ContainsAny(tag, " `~")
	}
	if len(t) < 3 {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] != t[0] || (t[0] != '-' && t[0] != '*' && t[0] != '_' && t[0] != '=') {
			return false
		}
	}
	return true
}

// needsCompacting is a cheap scan for anything compactProse would change.
func needsCompacting(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			r, _ := utf8.DecodeRuneInString(s[i:])
			if decorative(r) {
				return true
			}
		case c == '*' && i+1 < len(s) && s[i+1] == '*':
			return true
		case c == '#' && i+1 < len(s) && (s[i+1] == '#' || s[i+1] == ' '):
			return true
		case (c == '`' || c == '~') && i+2 < len(s) && s[i+1] == c && s[i+2] == c:
			return true
		case c == '-' && i+2 < len(s) && s[i+1] == c && s[i+2] == c:
			return true
		case i+3 < len(s) && leaderChar(c) && s[i+1] == c && s[i+2] == c && s[i+3] == c:
			return true
		}
	}
	return false
}

// compactProseLine compacts one line; see compactProse.
func compactProseLine(line string) string {
	line = dropHeadingMarks(line)
	var b strings.Builder
	b.Grow(len(line))
	for i := 0; i < len(line); {
		c := line[i]
		if c == '*' {
			if j, ok := emphasisEnd(line, i); ok {
				b.WriteString(compactProseLine(line[i+2 : j]))
				i = j + 2
				continue
			}
		}
		if leaderChar(c) {
			n := 1
			for i+n < len(line) && line[i+n] == c {
				n++
			}
			if n >= 4 {
				b.WriteString("…")
			} else {
				b.WriteString(line[i : i+n])
			}
			i += n
			continue
		}
		r, size := utf8.DecodeRuneInString(line[i:])
		if decorative(r) {
			i += size
			// A pictograph's joiners and selectors go with it, and so does
			// the space that set it off from the text.
			for i < len(line) {
				r2, s2 := utf8.DecodeRuneInString(line[i:])
				if r2 != 0x200D && r2 != 0xFE0F && !decorative(r2) && !(r2 >= 0x1F3FB && r2 <= 0x1F3FF) {
					break
				}
				i += s2
			}
			if i < len(line) && line[i] == ' ' && openedBefore(b.String()) {
				i++
			}
			continue
		}
		b.WriteString(line[i : i+size])
		i += size
	}
	return b.String()
}

// openedBefore reports whether a space after a removed pictograph would
// double one or follow an opening: the start of the line, a space, an
// opening bracket or quote.
func openedBefore(out string) bool {
	if out == "" {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(out)
	return strings.ContainsRune(" ([{“‘\"'", r)
}

// emphasisEnd reports where the "**" closing the pair opened at
// line[i:i+2] starts: within 120 bytes, with text in between that
// neither starts nor ends with a space (a glob such as **/*.go has no
// closing pair). Underscore emphasis is left alone: __init__ and
// __main__ are far more common in a transcript than __bold__.
func emphasisEnd(line string, i int) (int, bool) {
	if i+2 >= len(line) || line[i+1] != '*' || line[i+2] == ' ' || line[i+2] == '*' {
		return 0, false
	}
	rest := line[i+2:]
	if len(rest) > 122 {
		rest = rest[:122]
	}
	j := strings.Index(rest, "**")
	if j <= 0 || rest[j-1] == ' ' {
		return 0, false
	}
	return i + 2 + j, true
}

// dropHeadingMarks turns a markdown heading ("## Status") into its text:
// inside a quote a heading is only emphasis, and its marks would have to
// be escaped anyway. A # not followed by a space (#include, #123) stays.
func dropHeadingMarks(line string) string {
	t := strings.TrimLeft(line, " ")
	n := 0
	for n < len(t) && n < 7 && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n >= len(t) || t[n] != ' ' {
		return line
	}
	return strings.TrimLeft(t[n:], " ")
}

// leaderChar is a character whose long runs are layout, not content.
func leaderChar(c byte) bool {
	switch c {
	case '.', '-', '=', '_', '*', '~', '#':
		return true
	}
	return false
}

// decorative reports whether r is a pictograph used as decoration
// (🎯 🚀 📊 🔧 ⭐ ✨ …). Marks that state an outcome are not: ✅ ❌ ⚠ ☐
// ☒ ✓ ✗ and the coloured circles and squares (🔴 🟢 🟡).
func decorative(r rune) bool {
	switch {
	case r >= 0x1F300 && r <= 0x1F5FF, // symbols and pictographs
		r >= 0x1F600 && r <= 0x1F64F, // emoticons
		r >= 0x1F680 && r <= 0x1F6FF, // transport and map
		r >= 0x1F900 && r <= 0x1F9FF, // supplemental pictographs
		r >= 0x1FA70 && r <= 0x1FAFF, // extended pictographs
		r == 0x2B50, r == 0x2728, r == 0x26A1, r == 0x2696, r == 0x2699, r == 0x2B06, r == 0x27A1:
		return !(r >= 0x1F534 && r <= 0x1F535) // 🔴 🔵 are status
	}
	return false
}

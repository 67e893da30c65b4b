package compiler

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Transcript text is set apart as data in three ways, none of which can
// start a heading, open or close a fence, or end the surrounding block:
// inline (one line, in “curly quotes”), blockQuote (every line behind
// "> ", with a leading #, fence, rule or tag escaped) and code (a code span
// whose delimiter is longer than any backtick run inside).

// inline renders text on one line: compacted (compactProse), clipped to
// max runes at a sentence or word boundary, line breaks shown as " ⏎ ",
// control and bidi characters removed.
func inline(s string, limit int) string {
	return clippedLine(s, limit, true, compactProse)
}

// quoted is inline text in curly quotes.
func quoted(s string, limit int) string {
	// Curly quotes delimit the data: inside it they become straight ones.
	s = clippedLine(s, limit, true, func(s string) string { return compactProse(straightQuotes(s)) })
	if s == "" {
		return ""
	}
	return "“" + s + "”"
}

// blockQuote renders text, compacted (compactProse), as a markdown block
// quote of at most max runes (cut at a sentence or line boundary).
// Blank-line runs collapse to one.
func blockQuote(s string, limit int) string {
	s = clipText(compactProse(sanitize(strings.TrimSpace(s))), limit)
	if s == "" {
		return ""
	}
	var b strings.Builder
	blank := false
	for i, line := range strings.Split(s, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if line == "" {
			if blank || i == 0 {
				continue
			}
			blank = true
			b.WriteString(">\n")
			continue
		}
		blank = false
		b.WriteString("> ")
		b.WriteString(escapeLineStart(line))
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), ">\n")
}

// escapeLineStart backslash-escapes what would give a quoted line block
// structure of its own: a heading, a fence, a rule, an HTML tag.
func escapeLineStart(line string) string {
	t := strings.TrimLeft(line, " ")
	for _, p := range []string{"#", "```", "~~~", "<", "---", "===", "***", ">"} {
		if strings.HasPrefix(t, p) {
			return strings.Repeat(" ", len(line)-len(t)) + `\` + t
		}
	}
	return line
}

// code renders s as an inline code span on one line, clipped to max runes.
func code(s string, limit int) string {
	s = clippedLine(s, limit, false, nil)
	if s == "" {
		return ""
	}
	run, longest := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 || strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// sanitize drops control characters (but newlines and tabs) and bidi
// overrides, and makes s valid UTF-8.
func sanitize(s string) string {
	// Most text is printable ASCII, which comes back unchanged: say so
	// without building a copy.
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		c := s[i]
		clean = c < utf8.RuneSelf && (c >= 0x20 || c == '\n' || c == '\t') && c != 0x7f
	}
	if clean {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r == '\r':
			return -1
		case unicode.IsControl(r), unicode.Is(unicode.Bidi_Control, r):
			return -1
		}
		return r
	}, s)
}

// straightQuotes makes curly double quotes straight ones.
func straightQuotes(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "“", `"`), "”", `"`)
}

// oneLine is sanitized s on one line: line breaks shown as " ⏎ ",
// whitespace runs collapsed to one space and, with collapse, a break
// after a break dropped.
func oneLine(s string, collapse bool) string {
	s = sanitize(s)
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ⏎ ")), " ")
	if collapse {
		s = strings.ReplaceAll(s, "⏎ ⏎", "⏎")
	}
	return s
}

// clippedLine is clipText(oneLine(pre(s), collapse), limit), with pre
// (a per-rune rewrite; nil for none) optional. A long s (a tool output
// cut to a 200-rune line) is rendered from a head of it when that head
// alone renders past limit runes: the head ends before an ASCII space,
// tab or newline of s, so its fields are the first fields of s and its
// rendering is a prefix of the whole one, and clipText reads only the
// first limit runes of a text longer than limit. The result is the same
// (but for an emphasis pair that compactProse would close beyond the
// head, which is left open: a cosmetic difference); the rest of s is
// never sanitized and split.
func clippedLine(s string, limit int, collapse bool, pre func(string) string) string {
	if pre == nil {
		pre = func(s string) string { return s }
	}
	if from := 4*max(limit, 2) + 64; len(s) > 2*from {
		if j := strings.IndexAny(s[from:], " \t\n"); j >= 0 {
			if head := oneLine(pre(s[:from+j]), collapse); utf8.RuneCountInString(head) > max(limit, 2) {
				return clipText(head, limit)
			}
		}
	}
	return clipText(oneLine(pre(s), collapse), limit)
}

// clipText shortens s to at most max runes, preferring to end after a
// sentence or line, else at a word; "…" marks a cut.
func clipText(s string, limit int) string {
	s = strings.TrimSpace(s)
	limit = max(limit, 2)
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	i, n := 0, 0
	for i = range s {
		if n == limit-1 {
			break
		}
		n++
	}
	cut := s[:i]
	best := -1
	for _, sep := range []string{". ", ".\n", "? ", "! ", "\n", "; ", " ⏎ "} {
		if j := strings.LastIndex(cut, sep); j > best {
			best = j
		}
	}
	if best >= len(cut)*2/3 {
		return strings.TrimSpace(cut[:best+1]) + " …"
	}
	if j := strings.LastIndexByte(cut, ' '); j >= len(cut)/2 {
		return strings.TrimSpace(cut[:j]) + " …"
	}
	return strings.TrimSpace(cut) + "…"
}

// label renders a short machine value (a type, a status, an id) bare when
// it is made only of safe characters, and as code otherwise: extractor
// output and ids can come from a transcript too.
func label(s string, limit int) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if len(s) <= limit && safeLabel(s) {
		return s
	}
	return code(s, limit)
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

// kilo formats a token count to three significant digits at most:
// 82624 → "82.6k", 200000 → "200k", 1048576 → "1.05M", 950 → "950". A
// header reads the size of a context, not its last token.
func kilo(n int) string {
	unit, div := "", 1.0
	switch {
	case n >= 1_000_000:
		unit, div = "M", 1e6
	case n >= 1000:
		unit, div = "k", 1e3
	}
	v := float64(n) / div
	prec := 0
	switch {
	case unit == "":
	case v < 10:
		prec = 2
	case v < 100:
		prec = 1
	}
	out := strconv.FormatFloat(v, 'f', prec, 64)
	if prec > 0 {
		out = strings.TrimRight(strings.TrimRight(out, "0"), ".")
	}
	return out + unit
}

package prose

import "strings"

// ScreenedRegexp is a LazyRegexp behind a hand-written screen for a
// pattern with no literal to gate on: may is true of every text the
// regexp matches in, so a false screen answers "no match" exactly, and
// only a text that passes runs the regexp. factRe, pascalRe and figureRe
// ran on every line of the assistant's reports (findingLine, keyLine),
// about a twentieth of a large compile; most prose lines fail their
// screens. TestScreensExact holds each screen to its regexp on every line
// of the shared transcripts and on generated text.
type ScreenedRegexp struct {
	LazyRegexp
	May func(string) bool
	// near, with texts, bounds where FindString runs the regexp (see
	// screenedLines).
	near  int
	texts []string
}

// Screened returns pattern's LazyRegexp behind may.
func Screened(pattern string, may func(string) bool) ScreenedRegexp {
	return ScreenedRegexp{LazyRegexp: LazyRE(pattern), May: may}
}

// ScreenedLines returns pattern's LazyRegexp screened by texts (see
// containsLower), whose FindString runs the regexp only on the lines
// around those that hold one of texts: each match of pattern must start
// at a line's start ((?m)^ in every alternative), and hold on one of its
// lines one of texts (lower-cased) with no more than near non-blank lines
// of the match either side of that line, and any number of blank ones
// (only \s: space, \t, \f, \r). checkErrorRe's NFA over a check's whole
// output, up to the first error line, was the largest single regexp cost
// of a large compile (≈6 ms of 36 in Build): the error lines are few, and
// most of the output never needs the regexp at all.
func ScreenedLines(pattern string, near int, texts []string) ScreenedRegexp {
	return ScreenedRegexp{
		LazyRegexp: LazyRE(pattern),
		May:        func(s string) bool { return ContainsLower(s, texts) },
		near:       near,
		texts:      texts,
	}
}

// ContainsLower reports whether s, ASCII lower-cased, contains one of
// texts (lower-case).
func ContainsLower(s string, texts []string) bool {
	lower := asciiLower(s)
	for _, t := range texts {
		if strings.Contains(lower, t) {
			return true
		}
	}
	return false
}

// findNear is FindString for a screenedLines regexp. Each line holding
// one of the texts gets a window: the line, and up to near non-blank
// lines (with the blank lines among and beyond them) either side; by
// screenedLines' contract every match lies inside the window of some
// line of it that holds a text. Overlapping or touching windows merge
// into segments, which start and end at line boundaries, so ^, $ and \b
// see the same context in a segment as in the whole text; every match
// then lies inside one segment, and the regexp's leftmost-first match in
// the first segment that has one is its match in the whole text.
func (r ScreenedRegexp) findNear(s string) string {
	lower := asciiLower(s)
	// next[i] is the next occurrence of texts[i] at or after from, -1
	// when there is none,	// -2 before the first search.
	next := make([]int, len(r.texts))
	for i := range next {
		next[i] = -2
	}
	from := 0
	seek := func() int {
		first := -1
		for i, t := range r.texts {
			if next[i] != -1 && next[i] < from {
				if j := strings.Index(lower[from:], t); j >= 0 {
					next[i] = from + j
				} else {
					next[i] = -1
				}
			}
			if next[i] >= 0 && (first < 0 || next[i] < first) {
				first = next[i]
			}
		}
		return first
	}
	re := r.Regexp()
	segStart, segEnd := -1, -1
	run := func() string {
		if m := re.FindStringIndex(s[segStart:segEnd]); m != nil {
			return s[segStart+m[0] : segStart+m[1]]
		}
		return ""
	}
	for {
		i := seek()
		if i < 0 {
			break
		}
		lineStart := strings.LastIndexByte(s[:i], '\n') + 1
		lineEnd := lineEndAt(s, i)
		a, b := lineStart, lineEnd
		for n := 0; a > 0; {
			prev := strings.LastIndexByte(s[:a-1], '\n') + 1
			if !blankLine(s[prev : a-1]) {
				if n == r.near {
					break
				}
				n++
			}
			a = prev
		}
		for n := 0; b < len(s); {
			end := lineEndAt(s, b+1)
			if !blankLine(s[b+1 : end]) {
				if n == r.near {
					break
				}
				n++
			}
			b = end
		}
		switch {
		case segStart < 0:
			segStart, segEnd = a, b
		case a <= segEnd+1:
			segEnd = max(segEnd, b)
		default:
			if m := run(); m != "" {
				return m
			}
			segStart, segEnd = a, b
		}
		from = lineEnd + 1
		if from > len(s) {
			break
		}
	}
	if segStart < 0 {
		return ""
	}
	return run()
}

// lineEndAt returns the end of the line holding s[i]: the index of its
// newline, or len(s).
func lineEndAt(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(s)
}

// blankLine reports whether line is all regexp \s (without the newline):
// space, \t, \f, \r.
func blankLine(line string) bool {
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ', '\t', '\f', '\r':
		default:
			return false
		}
	}
	return true
}

// FindAllStringSubmatch is the regexp's, nil when the screen fails.
func (r ScreenedRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	if !r.May(s) {
		return nil
	}
	return r.LazyRegexp.FindAllStringSubmatch(s, n)
}

// MayGitCommit screens gitCommitRe, whose only literals ("[", "] ") are
// too short to gate on: every match starts a line with "[" and a byte
// that is neither \s nor "]" ([^\s\]]), and holds "] " on that line.
// CMake's "[  2%] Building …" lines, hundreds to a build output, fail it.
func MayGitCommit(s string) bool {
	for p := 0; p < len(s); {
		if s[p] == '[' && p+1 < len(s) && strings.IndexByte(" \t\n\f\r]", s[p+1]) < 0 &&
			strings.Contains(s[p:lineEndAt(s, p)], "] ") {
			return true
		}
		j := strings.Index(s[p:], "\n[")
		if j < 0 {
			break
		}
		p += j + 1
	}
	return false
}

func (r ScreenedRegexp) MatchString(s string) bool {
	return r.May(s) && r.LazyRegexp.MatchString(s)
}

func (r ScreenedRegexp) FindAllString(s string, n int) []string {
	if !r.May(s) {
		return nil
	}
	return r.LazyRegexp.FindAllString(s, n)
}

// IsLowerASCII reports an ASCII lower-case letter.
func IsLowerASCII(b byte) bool { return 'a' <= b && b <= 'z' }
func isUpperASCII(b byte) bool { return 'A' <= b && b <= 'Z' }
func isDigitASCII(b byte) bool { return '0' <= b && b <= '9' }

// isWordASCII is regexp's \w: [0-9A-Za-z_].
func isWordASCII(b byte) bool {
	return IsLowerASCII(b) || isUpperASCII(b) || isDigitASCII(b) || b == '_'
}

// MayPascal screens pascalRe (\b[A-Z][a-z]+[A-Z][A-Za-z0-9]*\b): its
// [a-z]+[A-Z] is a lower-case letter followed by an upper-case one.
func MayPascal(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if IsLowerASCII(s[i]) && isUpperASCII(s[i+1]) {
			return true
		}
	}
	return false
}

// MayFigure screens figureRe: each of its alternatives starts with \d,
// an ASCII digit even under (?i).
func MayFigure(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigitASCII(s[i]) {
			return true
		}
	}
	return false
}

// extFirst holds the first letters of factRe's file extensions (go, py,
// rs, ts, js, mjs, c, h, java, kt, swift, rb, bib, yaml, …).
const extFirst = "gprtjmchksby"

// MayFact screens factRe, one clause per alternative: a backtick (code),
// a slash (a path), a \w dot and an extension's first letter (a file), a
// lower-case letter and an underscore (snake_case), a lower-case letter
// and an upper-case one (camelCase).
func MayFact(s string) bool {
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b == '`' || b == '/':
			return true
		case b == '_':
			if i > 0 && IsLowerASCII(s[i-1]) {
				return true
			}
		case b == '.':
			if i > 0 && i+1 < len(s) && isWordASCII(s[i-1]) && strings.IndexByte(extFirst, s[i+1]) >= 0 {
				return true
			}
		case IsLowerASCII(b):
			if i+1 < len(s) && isUpperASCII(s[i+1]) {
				return true
			}
		}
	}
	return false
}

// FindString is the regexp's leftmost match, "" when the screen fails.
func (r ScreenedRegexp) FindString(s string) string {
	if r.texts != nil {
		return r.findNear(s)
	}
	if !r.May(s) {
		return ""
	}
	return r.LazyRegexp.FindString(s)
}

// MayDiffMark screens diffMarkRe, whose "@@" is too short a literal to
// gate on, so it ran its regexp over every output it judged (about 60 KB
// a Build on the largest file, none a diff): a match is a line that
// starts with one of these.
func MayDiffMark(s string) bool {
	return lineStartsWith(s, "```diff", "@@", "*** Begin Patch", "+++ ", "--- a/")
}

// lineStartsWith reports whether a line of s starts with one of
// prefixes (none empty).
func lineStartsWith(s string, prefixes ...string) bool {
	for p := 0; p < len(s); {
		for _, pre := range prefixes {
			if s[p] == pre[0] && strings.HasPrefix(s[p:], pre) {
				return true
			}
		}
		j := strings.IndexByte(s[p:], '\n')
		if j < 0 {
			break
		}
		p += j + 1
	}
	return false
}

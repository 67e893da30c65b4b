package extractor

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
)

// gatedRegexp is a regexp whose MatchString first checks, with
// strings.Contains, for the literals every match must contain, and runs
// the regexp only when one is there. Most tool output and most lines of a
// failure hold none of an error pattern's words, and a substring search
// costs a small fraction of the regexp's NFA over the same text. The
// answer is always the regexp's own: the literals are derived from the
// pattern (requiredLiterals), never listed by hand, so the gate cannot
// drift from the pattern it guards.
//
// The regexp and its gate are built on first use (sync.OnceValue), not
// when the package initialises: commands that never extract (formats,
// --version, a hook answered from provider usage) then never pay for
// them. The built gate never changes after, so a package-level
// gatedRegexp is immutable and safe for concurrent use.
type gatedRegexp struct {
	gate func() *regexGate
}

// regexGate is a gatedRegexp once built.
type regexGate struct {
	// re compiles the pattern on its first call: a gate that never
	// opens, a split pattern only ever asked MatchString (its
	// alternatives answer) and a literal set on text it can read never
	// need the regexp, and compiling the patterns a large compile meets
	// cost ~4 ms of it.
	re func() *regexp.Regexp
	// lits are the literals one of which every match contains; nil when
	// the pattern has an alternative with none (the gate always opens).
	lits []gateLiteral
	// lineLocal is set when no match can span a newline or depends on
	// where the text starts or ends (no \A, \z, no class or dot that
	// takes "\n"): a match then lies inside the line holding one of the
	// literals, and only those lines need the regexp.
	lineLocal bool
	// anchored is set when every match starts at the text's start.
	anchored bool
	// alts, when set, are the pattern's top-level alternatives, each
	// compiled and gated on its own; MatchString is then true when one
	// of them matches, which is the whole pattern's answer. A pattern
	// without a literal is split when each alternative has one or is
	// anchored at the text's start (see buildGate). A pattern with
	// literals is split when one alternative may span lines (contentFailRe's
	// "\s*(core dumped)"): unsplit, every other alternative's literal,
	// "error" in a 100 KB output, ran the whole alternation's NFA over
	// the whole text instead of over the lines that hold it.
	alts []*regexGate
	// parts are the alternatives' sources, alts[i] compiled from parts[i].
	parts []string
	// altLits[i], when set, are the indices in lits of every literal of
	// alts[i] (the same text, fold and lineStart): the alternative can
	// match only when one of those is present, so match runs it only
	// then. Nil for an alternative with a literal lits does not hold.
	altLits [][]int
	// starts are the first bytes of the lineStart literals (lower-cased
	// when folded), when there are at least minLineWalk of them: the
	// gate then looks for those only at each line's start, in one walk
	// over the lines, instead of searching the whole text for each
	// (contentFailRe has twenty, and ran them over every tool output).
	starts *[256]bool
	// set, when the pattern is a literal set (see literalSet), are the
	// texts it matches: MatchString looks for them in place of running
	// the regexp on text setReadable accepts.
	set []setText
}

// minLineWalk is the fewest lineStart literals worth one walk over the
// lines in place of a search per literal.
const minLineWalk = 3

// gateLiteral is one required literal; fold marks one matched without
// regard to case, stored lower-cased and compared with an ASCII
// lower-cased input.
type gateLiteral struct {
	text string
	fold bool
	// prefix marks a literal that begins its exact text; lineStart one
	// that begins a line in every match (it follows (?m)^), which
	// linesMatch looks for only there.
	prefix, lineStart bool
}

// gated returns pattern's gatedRegexp; the pattern is compiled (like
// regexp.MustCompile) and its gate derived on first use.
func gated(pattern string) gatedRegexp {
	return gatedRegexp{gate: sync.OnceValue(func() *regexGate { return buildGate(pattern) })}
}

// buildGate compiles pattern and derives its gate.
func buildGate(pattern string) *regexGate {
	g, _ := analyzeGate(pattern)
	g.compile(pattern)
	return g
}

// compile compiles g's regexp from pattern, and its alternatives' from
// their parts: analyzeGate compiles nothing, so alternatives it tried and
// did not keep cost only their parse.
func (g *regexGate) compile(pattern string) {
	g.re = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
	for i, a := range g.alts {
		a.compile(g.parts[i])
	}
}

// Regexp returns the compiled regexp, compiling it on the first call.
func (g *regexGate) Regexp() *regexp.Regexp { return g.re() }

// String is the pattern's source.
func (g *regexGate) String() string { return g.re().String() }

// analyzeGate derives pattern's gate without compiling its regexp;
// false when pattern does not parse (an open gate).
func analyzeGate(pattern string) (*regexGate, bool) {
	g := &regexGate{}
	parsed, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return g, false // MustCompile reports it
	}
	simple := parsed.Simplify()
	if lits, ok := requiredLiterals(simple); ok {
		g.lits = lits
		g.lineLocal = withinLine(simple)
	}
	g.anchored = anchoredStart(simple)
	defer g.index()
	switch {
	case g.lits != nil && !g.lineLocal:
		g.alts, g.parts = splitAlternatives(pattern)
	case g.lits == nil:
		// Split only when every alternative left without a literal is
		// anchored at the text's start, so it fails at once on the rest:
		// passLineRe's "^ok\s" then no longer runs the whole
		// alternation on every line.
		alts, parts := splitAlternatives(pattern)
		for _, a := range alts {
			if a.lits == nil && a.alts == nil && !a.anchored {
				alts, parts = nil, nil
				break
			}
		}
		g.alts, g.parts = alts, parts
	}
	// A split pattern's MatchString asks its alternatives, never a set.
	if g.alts == nil {
		if set, ok := literalSet(simple); ok && len(set) > 0 && !slices.ContainsFunc(set, func(t setText) bool { return t.text == "" }) {
			g.set = set
		}
	}
	return g, true
}

// index derives starts and altLits from lits and alts.
func (g *regexGate) index() {
	n := 0
	for _, l := range g.lits {
		if l.lineStart {
			n++
		}
	}
	if n >= minLineWalk {
		g.starts = new([256]bool)
		for _, l := range g.lits {
			if l.lineStart {
				g.starts[l.text[0]] = true
			}
		}
	}
	if g.lits == nil || g.alts == nil {
		return
	}
	g.altLits = make([][]int, len(g.alts))
	for i, a := range g.alts {
		var idx []int
		for _, al := range a.lits {
			j := slices.IndexFunc(g.lits, func(l gateLiteral) bool {
				return l.text == al.text && l.fold == al.fold && l.lineStart == al.lineStart
			})
			if j < 0 {
				idx = nil
				break
			}
			idx = append(idx, j)
		}
		g.altLits[i] = idx
	}
}

// anchoredStart reports whether every match of re starts at the text's
// start (\A, or ^ without (?m)).
func anchoredStart(re *syntax.Regexp) bool {
	for re.Op == syntax.OpCapture || (re.Op == syntax.OpConcat && len(re.Sub) > 0) {
		re = re.Sub[0]
	}
	return re.Op == syntax.OpBeginText
}

// MatchString reports whether s contains a match of the regexp.
func (g gatedRegexp) MatchString(s string) bool { return g.gate().MatchString(s) }

// FindStringSubmatch is the regexp's own (no gate).
func (g gatedRegexp) FindStringSubmatch(s string) []string {
	return g.gate().Regexp().FindStringSubmatch(s)
}

// mayMatch reports whether s contains one of the required literals, or
// the pattern has none: false means no part of s matches.
func (g gatedRegexp) mayMatch(s string) bool { return g.gate().mayMatch(s) }

// MatchString reports whether s contains a match of the regexp.
func (g *regexGate) MatchString(s string) bool {
	var lower lowered
	return g.match(s, &lower)
}

// lowered is a text's ASCII lower-casing, made once for all of a split
// pattern's alternatives when one needs it.
type lowered struct {
	text string
	done bool
}

func (l *lowered) of(s string) string {
	if !l.done {
		l.text, l.done = asciiLower(s), true
	}
	return l.text
}

// match is MatchString with s's lower-casing shared.
func (g *regexGate) match(s string, lower *lowered) bool {
	switch {
	case g.alts != nil:
		var found []bool
		if g.lits != nil {
			found = make([]bool, len(g.lits))
			if !g.present(s, lower, found) {
				return false
			}
		}
		for i, a := range g.alts {
			if found != nil && g.altLits[i] != nil && !slices.ContainsFunc(g.altLits[i], func(j int) bool { return found[j] }) {
				continue
			}
			if a.match(s, lower) {
				return true
			}
		}
		return false
	case g.set != nil && setReadable(s):
		return g.mayMatchWith(s, lower) && g.setMatch(lower.of(s))
	case g.lits == nil:
		return g.Regexp().MatchString(s)
	case g.lineLocal && strings.IndexByte(s, '\n') >= 0:
		return g.linesMatch(s, lower)
	}
	return g.mayMatchWith(s, lower) && g.Regexp().MatchString(s)
}

// linesMatch runs the regexp on each line of s that holds one of the
// literals, once per line.
func (g *regexGate) linesMatch(s string, lower *lowered) bool {
	for _, l := range g.lits {
		text := s
		if l.fold {
			text = lower.of(s) // same length and line breaks as s
		}
		for from := 0; from < len(text); {
			i := strings.Index(text[from:], l.text)
			if i < 0 {
				break
			}
			i += from
			start := strings.LastIndexByte(s[:i], '\n') + 1
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s)
			} else {
				end += i
			}
			// A literal that starts a line in every match is not one
			// here elsewhere in the line (from is always a line's start,
			// so one at this line's start would have been found first).
			if (!l.lineStart || i == start) && g.Regexp().MatchString(s[start:end]) {
				return true
			}
			from = end + 1
		}
	}
	return false
}

// withinLine reports whether every match of re lies inside one line and
// matches the same in the line alone: nothing in it takes a newline or
// anchors to the text's own start or end.
func withinLine(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpAnyChar, syntax.OpBeginText, syntax.OpEndText:
		return false
	case syntax.OpLiteral:
		return !slices.Contains(re.Rune, '\n')
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				return false
			}
		}
	}
	for _, sub := range re.Sub {
		if !withinLine(sub) {
			return false
		}
	}
	return true
}

// mayMatch reports whether s contains one of the required literals, or
// the pattern has none: false means no part of s matches.
func (g *regexGate) mayMatch(s string) bool {
	var lower lowered
	return g.mayMatchWith(s, &lower)
}

// mayMatchWith is mayMatch with s's lower-casing shared.
func (g *regexGate) mayMatchWith(s string, lower *lowered) bool {
	if g.lits == nil {
		return true
	}
	return g.present(s, lower, nil)
}

// present reports whether s holds one of the literals, each where it
// must be (a lineStart one at a line's start when starts is set). With
// found, it looks for every literal and marks those present; without,
// it stops at the first.
func (g *regexGate) present(s string, lower *lowered, found []bool) bool {
	hit := false
	for i, l := range g.lits {
		if g.starts != nil && l.lineStart {
			continue
		}
		text := s
		if l.fold {
			text = lower.of(s)
		}
		if strings.Contains(text, l.text) {
			if found == nil {
				return true
			}
			found[i], hit = true, true
		}
	}
	if g.starts == nil {
		return hit
	}
	for p := 0; p < len(s); {
		if g.starts[s[p]] || g.starts[lowerASCII(s[p])] {
			for i, l := range g.lits {
				if !l.lineStart || (found != nil && found[i]) {
					continue
				}
				text := s
				if l.fold {
					text = lower.of(s)
				}
				if strings.HasPrefix(text[p:], l.text) {
					if found == nil {
						return true
					}
					found[i], hit = true, true
				}
			}
		}
		j := strings.IndexByte(s[p:], '\n')
		if j < 0 {
			break
		}
		p += j + 1
	}
	return hit
}

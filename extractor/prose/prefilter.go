package prose

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
)

// GatedRegexp is a regexp whose MatchString first checks, with
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
type GatedRegexp struct {
	Gate func() *RegexGate
}

// RegexGate is a gatedRegexp once built.
type RegexGate struct {
	// re compiles the pattern on its first call: a gate that never
	// opens, a split pattern only ever asked MatchString (its
	// alternatives answer) and a literal set on text it can read never
	// need the regexp, and compiling the patterns a large compile meets
	// cost ~4 ms of it.
	re func() *regexp.Regexp
	// Lits are the literals one of which every match contains; nil when
	// the pattern has an alternative with none (the gate always opens).
	Lits []GateLiteral
	// lineLocal is set when no match can span a newline or depends on
	// where the text starts or ends (no \A, \z, no class or dot that
	// takes "\n"): a match then lies inside the line holding one of the
	// literals, and only those lines need the regexp.
	lineLocal bool
	// anchored is set when every match starts at the text's start;
	// heads, when set, are then the texts one of which begins every
	// match (startHeads), which MatchString checks first.
	anchored bool
	heads    []headText
	// Alts, when set, are the pattern's top-level alternatives, each
	// compiled and gated on its own; MatchString is then true when one
	// of them matches, which is the whole pattern's answer. A pattern
	// without a literal is split when each alternative has one or is
	// anchored at the text's start (see buildGate). A pattern with
	// literals is split when one alternative may span lines (contentFailRe's
	// "\s*(core dumped)"): unsplit, every other alternative's literal,
	// "error" in a 100 KB output, ran the whole alternation's NFA over
	// the whole text instead of over the lines that hold it.
	Alts []*RegexGate
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
	// Set, when the pattern is a literal set (see literalSet), are the
	// texts it matches: MatchString looks for them in place of running
	// the regexp on text setReadable accepts.
	Set []setText
}

// minLineWalk is the fewest lineStart literals worth one walk over the
// lines in place of a search per literal.
const minLineWalk = 3

// GateLiteral is one required literal; fold marks one matched without
// regard to case, stored lower-cased and compared with an ASCII
// lower-cased input.
type GateLiteral struct {
	Text string
	Fold bool
	// prefix marks a literal that begins its exact text; lineStart one
	// that begins a line in every match (it follows (?m)^), which
	// linesMatch looks for only there.
	Prefix, LineStart bool
}

// Gated returns pattern's gatedRegexp; the pattern is compiled (like
// regexp.MustCompile) and its gate derived on first use.
func Gated(pattern string) GatedRegexp {
	return GatedRegexp{Gate: sync.OnceValue(func() *RegexGate { return BuildGate(pattern) })}
}

// BuildGate compiles pattern and derives its gate.
func BuildGate(pattern string) *RegexGate {
	g, ok := tableGate(pattern)
	if !ok {
		g, _ = analyzeGate(pattern)
	}
	g.compile(pattern)
	return g
}

// compile compiles g's regexp from pattern, and its alternatives' from
// their parts: analyzeGate compiles nothing, so alternatives it tried and
// did not keep cost only their parse.
func (g *RegexGate) compile(pattern string) {
	g.re = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
	for i, a := range g.Alts {
		a.compile(g.parts[i])
	}
}

// Regexp returns the compiled regexp, compiling it on the first call.
func (g *RegexGate) Regexp() *regexp.Regexp { return g.re() }

// String is the pattern's source.
func (g *RegexGate) String() string { return g.re().String() }

// analyzeGate derives pattern's gate without compiling its regexp;
// false when pattern does not parse (an open gate).
func analyzeGate(pattern string) (*RegexGate, bool) {
	g := &RegexGate{}
	parsed, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return g, false // MustCompile reports it
	}
	simple := parsed.Simplify()
	if lits, ok := requiredLiterals(simple); ok {
		g.Lits = lits
		g.lineLocal = withinLine(simple)
	}
	g.anchored = anchoredStart(simple)
	if g.anchored {
		g.heads, _ = startHeads(simple)
	}
	defer g.index()
	switch {
	case g.Lits != nil && !g.lineLocal:
		g.Alts, g.parts = splitAlternatives(pattern)
	case g.Lits == nil:
		// Split only when every alternative left without a literal is
		// anchored at the text's start, so it fails at once on the rest:
		// passLineRe's "^ok\s" then no longer runs the whole
		// alternation on every line.
		alts, parts := splitAlternatives(pattern)
		for _, a := range alts {
			if a.Lits == nil && a.Alts == nil && !a.anchored {
				alts, parts = nil, nil
				break
			}
		}
		g.Alts, g.parts = alts, parts
	}
	// A split pattern's MatchString asks its alternatives, never a set.
	if g.Alts == nil {
		if set, ok := LiteralSet(simple); ok && len(set) > 0 && !slices.ContainsFunc(set, func(t setText) bool { return t.Text == "" }) {
			g.Set = set
		}
	}
	return g, true
}

// indexAll indexes g and its alternatives, as analyzeGate does.
func (g *RegexGate) indexAll() {
	for _, a := range g.Alts {
		a.indexAll()
	}
	g.index()
}

// index derives starts and altLits from lits and alts.
func (g *RegexGate) index() {
	n := 0
	for _, l := range g.Lits {
		if l.LineStart {
			n++
		}
	}
	if n >= minLineWalk {
		g.starts = new([256]bool)
		for _, l := range g.Lits {
			if l.LineStart {
				g.starts[l.Text[0]] = true
			}
		}
	}
	if g.Lits == nil || g.Alts == nil {
		return
	}
	g.altLits = make([][]int, len(g.Alts))
	for i, a := range g.Alts {
		var idx []int
		for _, al := range a.Lits {
			j := slices.IndexFunc(g.Lits, func(l GateLiteral) bool {
				return l.Text == al.Text && l.Fold == al.Fold && l.LineStart == al.LineStart
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
func (g GatedRegexp) MatchString(s string) bool { return g.Gate().MatchString(s) }

// FindStringSubmatch is the regexp's own (no gate).
func (g GatedRegexp) FindStringSubmatch(s string) []string {
	return g.Gate().Regexp().FindStringSubmatch(s)
}

// MayMatch reports whether s contains one of the required literals, or
// the pattern has none: false means no part of s matches.
func (g GatedRegexp) MayMatch(s string) bool { return g.Gate().MayMatch(s) }

// MatchString reports whether s contains a match of the regexp.
func (g *RegexGate) MatchString(s string) bool {
	var lower Lowered
	return g.match(s, &lower)
}

// Lowered is a text's ASCII lower-casing, made once for all of a split
// pattern's alternatives when one needs it.
type Lowered struct {
	text string
	done bool
}

func (l *Lowered) of(s string) string {
	if !l.done {
		l.text, l.done = asciiLower(s), true
	}
	return l.text
}

// match is MatchString with s's lower-casing shared.
func (g *RegexGate) match(s string, lower *Lowered) bool {
	if g.heads != nil && !beginsWithHead(s, g.heads) {
		return false
	}
	switch {
	case g.Alts != nil:
		var found []bool
		if g.Lits != nil {
			found = make([]bool, len(g.Lits))
			if !g.present(s, lower, found) {
				return false
			}
		}
		for i, a := range g.Alts {
			if found != nil && g.altLits[i] != nil && !slices.ContainsFunc(g.altLits[i], func(j int) bool { return found[j] }) {
				continue
			}
			if a.match(s, lower) {
				return true
			}
		}
		return false
	case g.Set != nil && setReadable(s):
		return g.MayMatchWith(s, lower) && g.setMatch(lower.of(s))
	case g.Lits == nil:
		return g.Regexp().MatchString(s)
	case g.lineLocal && strings.IndexByte(s, '\n') >= 0:
		return g.linesMatch(s, lower)
	}
	return g.MayMatchWith(s, lower) && g.Regexp().MatchString(s)
}

// linesMatch runs the regexp on each line of s that holds one of the
// literals, once per line.
func (g *RegexGate) linesMatch(s string, lower *Lowered) bool {
	for _, l := range g.Lits {
		text := s
		if l.Fold {
			text = lower.of(s) // same length and line breaks as s
		}
		for from := 0; from < len(text); {
			i := strings.Index(text[from:], l.Text)
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
			if (!l.LineStart || i == start) && g.Regexp().MatchString(s[start:end]) {
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

// MayMatch reports whether s contains one of the required literals, or
// the pattern has none: false means no part of s matches.
func (g *RegexGate) MayMatch(s string) bool {
	var lower Lowered
	return g.MayMatchWith(s, &lower)
}

// MayMatchWith is mayMatch with s's lower-casing shared.
func (g *RegexGate) MayMatchWith(s string, lower *Lowered) bool {
	if g.Lits == nil {
		return true
	}
	return g.present(s, lower, nil)
}

// present reports whether s holds one of the literals, each where it
// must be (a lineStart one at a line's start when starts is set). With
// found, it looks for every literal and marks those present; without,
// it stops at the first.
func (g *RegexGate) present(s string, lower *Lowered, found []bool) bool {
	hit := false
	for i, l := range g.Lits {
		if g.starts != nil && l.LineStart {
			continue
		}
		text := s
		if l.Fold {
			text = lower.of(s)
		}
		if strings.Contains(text, l.Text) {
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
			for i, l := range g.Lits {
				if !l.LineStart || (found != nil && found[i]) {
					continue
				}
				text := s
				if l.Fold {
					text = lower.of(s)
				}
				if strings.HasPrefix(text[p:], l.Text) {
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

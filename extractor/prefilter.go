package extractor

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
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

// splitAlternatives returns a gate (not yet compiled) for each top-level
// alternative of pattern and the alternatives' sources, or nil when
// pattern is no alternation its source can be split at (splitSource) or
// splitting gates none of them better.
func splitAlternatives(pattern string) ([]*regexGate, []string) {
	parts := splitSource(pattern)
	if parts == nil {
		return nil, nil
	}
	alts := make([]*regexGate, 0, len(parts))
	better := false
	for _, part := range parts {
		a, ok := analyzeGate(part)
		if !ok {
			return nil, nil
		}
		better = better || (a.lits != nil && a.lineLocal) || a.alts != nil
		alts = append(alts, a)
	}
	if !better {
		return nil, nil
	}
	return alts, parts
}

// splitSource cuts pattern's source at the "|" of its outermost
// alternation: below leading flag groups ("(?im)") and groups that wrap
// the whole rest ("(…)", "(?:…)", "(?i:…)"), outside any other group,
// character class or escape. Each part carries the leading flags, so it
// matches alone what it matched as an alternative of the whole. It
// returns nil when there is no such alternation, or when an alternative
// sets flags for those after it ("a|(?i)b|c") or quotes with \Q…\E,
// which the cut would not carry over. The source is cut, not the parsed
// tree re-printed: syntax.Regexp.String folds every case-insensitive
// class again, which cost more at first use than the split saved.
func splitSource(pattern string) []string {
	if strings.Contains(pattern, `\Q`) {
		return nil
	}
	prefix, rest := "", pattern
	for {
		if f, ok := flagGroup(rest); ok && f == len(rest) {
			return nil
		} else if ok {
			prefix, rest = prefix+rest[:f], rest[f:]
			continue
		}
		open, ok := wrapOpen(rest)
		if !ok || groupEnd(rest) != len(rest)-1 {
			break
		}
		if flags := rest[:open]; strings.HasPrefix(flags, "(?") && strings.HasSuffix(flags, ":") && flagsOnly(flags[2:len(flags)-1]) {
			prefix += flags[:len(flags)-1] + ")"
		}
		rest = rest[open : len(rest)-1]
	}
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '\\':
			i++
		case '[':
			end := classEnd(rest, i)
			if end < 0 {
				return nil
			}
			i = end
		case '(':
			if f, ok := flagGroup(rest[i:]); ok && depth == 0 && f > 0 {
				return nil // sets flags for the alternatives after it
			}
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				parts = append(parts, prefix+rest[start:i])
				start = i + 1
			}
		}
	}
	if len(parts) == 0 || depth != 0 {
		return nil
	}
	return append(parts, prefix+rest[start:])
}

// flagGroup reports whether s starts with a group that only sets flags,
// "(?i)" or "(?-m)", and its length.
func flagGroup(s string) (int, bool) {
	if !strings.HasPrefix(s, "(?") {
		return 0, false
	}
	end := strings.IndexByte(s, ')')
	if end < 0 || !flagsOnly(s[2:end]) {
		return 0, false
	}
	return end + 1, true
}

// flagsOnly reports whether f is a flag list such as "im" or "i-s".
func flagsOnly(f string) bool {
	if f == "" {
		return false
	}
	for _, c := range f {
		if !strings.ContainsRune("imsU-", c) {
			return false
		}
	}
	return true
}

// wrapOpen returns the length of the group opening s starts with: "(",
// "(?:", "(?i:", "(?P<name>" or "(?<name>"; false for any other start.
func wrapOpen(s string) (int, bool) {
	switch {
	case !strings.HasPrefix(s, "("):
		return 0, false
	case !strings.HasPrefix(s, "(?"):
		return 1, true
	case strings.HasPrefix(s, "(?P<"), strings.HasPrefix(s, "(?<"):
		end := strings.IndexByte(s, '>')
		return end + 1, end > 0
	}
	end := strings.IndexByte(s, ':')
	if end < 0 || (end > 2 && !flagsOnly(s[2:end])) {
		return 0, false
	}
	return end + 1, true
}

// groupEnd returns the index of the ")" closing the group s starts with,
// or -1.
func groupEnd(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			end := classEnd(s, i)
			if end < 0 {
				return -1
			}
			i = end
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// classEnd returns the index of the "]" closing the character class that
// opens at s[i], or -1: a "]" first in the class (after any "^") is a
// member, and so are escapes and "[:alpha:]" names.
func classEnd(s string, i int) int {
	j := i + 1
	if j < len(s) && s[j] == '^' {
		j++
	}
	if j < len(s) && s[j] == ']' {
		j++
	}
	for ; j < len(s); j++ {
		switch {
		case s[j] == '\\':
			j++
		case strings.HasPrefix(s[j:], "[:"):
			end := strings.Index(s[j+2:], ":]")
			if end < 0 {
				return -1
			}
			j += 2 + end + 1
		case s[j] == ']':
			return j
		}
	}
	return -1
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

// setText is one text a literal-set pattern matches, as it appears in
// text ASCII lower-cased, with the offsets in it where \b must hold.
type setText struct {
	text   string
	bounds []int
}

// maxSetTexts bounds a literal set: past it, a search per text would
// cost more than the regexp.
const maxSetTexts = 64

// literalSet returns the texts re matches, compared with the text ASCII
// lower-cased, when re is built only of literals (ASCII letters
// case-folded: an exact letter cannot be compared lower-cased; non-ASCII
// runes without a case), classes of a few runes that hold both cases of
// their ASCII letters, ?, \b, groups, concatenations and alternations,
// spelling out at most maxSetTexts texts. In text setReadable accepts the
// regexp then matches exactly where one of the texts occurs with its \b
// offsets on word boundaries (Go's \b is ASCII's): (?i) folds an ASCII
// letter only to its other case and to K or ſ, which such text does not
// hold. keywordLineRe, a fold of
// twenty words, took ~10 µs a line in the regexp on the lines whose
// output holds one (lineScorer).
func literalSet(re *syntax.Regexp) ([]setText, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []setText{{}}, true
	case syntax.OpWordBoundary:
		return []setText{{bounds: []int{0}}}, true
	case syntax.OpCapture:
		return literalSet(re.Sub[0])
	case syntax.OpLiteral:
		fold := re.Flags&syntax.FoldCase != 0
		b := make([]byte, 0, len(re.Rune))
		for _, r := range re.Rune {
			if r >= utf8.RuneSelf {
				if fold && unicode.SimpleFold(r) != r {
					return nil, false // 'é' also matches 'É'
				}
				b = utf8.AppendRune(b, r)
				continue
			}
			c := byte(r)
			if isLowerASCII(c) || isUpperASCII(c) {
				if !fold {
					return nil, false
				}
				c = lowerASCII(c)
			}
			b = append(b, c)
		}
		return []setText{{text: string(b)}}, true
	case syntax.OpCharClass:
		var out []setText
		var in [128]bool
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				switch {
				case r < utf8.RuneSelf:
					in[r] = true
				case r == kelvin || r == longS:
					// Never in the text setMatch reads.
				case re.Rune[i+1]-re.Rune[i] > 8:
					return nil, false
				default:
					out = append(out, setText{text: string(r)})
				}
			}
		}
		for c := range in {
			if !in[c] {
				continue
			}
			b := byte(c)
			if isUpperASCII(b) {
				if !in[lowerASCII(b)] {
					return nil, false
				}
				continue
			}
			if isLowerASCII(b) && !in[b-'a'+'A'] {
				return nil, false
			}
			if out = append(out, setText{text: string(b)}); len(out) > 4 {
				return nil, false
			}
		}
		return out, true
	case syntax.OpQuest:
		sub, ok := literalSet(re.Sub[0])
		if !ok || len(sub)+1 > maxSetTexts {
			return nil, false
		}
		return append(sub, setText{}), true
	case syntax.OpAlternate:
		var out []setText
		for _, sub := range re.Sub {
			texts, ok := literalSet(sub)
			if !ok || len(out)+len(texts) > maxSetTexts {
				return nil, false
			}
			out = append(out, texts...)
		}
		return out, true
	case syntax.OpConcat:
		out := []setText{{}}
		for _, sub := range re.Sub {
			texts, ok := literalSet(sub)
			if !ok || len(out)*len(texts) > maxSetTexts {
				return nil, false
			}
			next := make([]setText, 0, len(out)*len(texts))
			for _, a := range out {
				for _, b := range texts {
					t := setText{text: a.text + b.text, bounds: slices.Clone(a.bounds)}
					for _, p := range b.bounds {
						t.bounds = append(t.bounds, len(a.text)+p)
					}
					next = append(next, t)
				}
			}
			out = next
		}
		return out, true
	}
	return nil, false
}

// kelvin and longS are the only non-ASCII runes that (?i) folds to an
// ASCII letter (k and s; TestFoldSpecials checks).
const (
	kelvin = '\u212A'
	longS  = '\u017F'
)

// setReadable reports whether setMatch answers for s as the regexp: s
// is ASCII, or valid UTF-8 (Go's \b and the regexp's runes then agree
// with bytes: a non-ASCII byte is no word byte, and a text found is
// found at rune boundaries) without K or ſ, which asciiLower does not
// fold.
func setReadable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return utf8.ValidString(s) && !strings.ContainsRune(s, kelvin) && !strings.ContainsRune(s, longS)
		}
	}
	return true
}

// setMatch reports whether lower, a setReadable text lower-cased, holds one
// of g.set's texts with its word boundaries.
func (g *regexGate) setMatch(lower string) bool {
	word := func(i int) bool { return i >= 0 && i < len(lower) && isWordASCII(lower[i]) }
	for _, t := range g.set {
		for from := 0; from <= len(lower); {
			i := strings.Index(lower[from:], t.text)
			if i < 0 {
				break
			}
			i += from
			ok := true
			for _, p := range t.bounds {
				if word(i+p-1) == word(i+p) {
					ok = false
					break
				}
			}
			if ok {
				return true
			}
			from = i + 1
		}
	}
	return false
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

// minGateLiteral is the shortest literal, in bytes, worth a gate: shorter
// ones are in nearly every text and would only add the search to the
// regexp's cost.
const minGateLiteral = 3

// requiredLiterals returns literals one of which every match of re
// contains, and false when it cannot name such a set.
func requiredLiterals(re *syntax.Regexp) ([]gateLiteral, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		texts, _ := exactTexts(re)
		return gateLiterals(texts)
	case syntax.OpCapture:
		return requiredLiterals(re.Sub[0])
	case syntax.OpPlus:
		return requiredLiterals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min < 1 {
			return nil, false
		}
		// A literal repeated at least Min times holds Min copies in a
		// row: `\.{3,}` holds "...".
		if texts, ok := exactTexts(re.Sub[0]); ok && len(texts) == 1 && re.Min > 1 {
			rep := exactText{text: strings.Repeat(texts[0].text, min(re.Min, 8)), fold: texts[0].fold}
			if lits, ok := gateLiterals([]exactText{rep}); ok {
				return lits, true
			}
		}
		return requiredLiterals(re.Sub[0])
	case syntax.OpAlternate:
		var out []gateLiteral
		for _, sub := range re.Sub {
			lits, ok := requiredLiterals(sub)
			if !ok {
				return nil, false
			}
			out = append(out, lits...)
		}
		return out, true
	case syntax.OpConcat:
		// Any one part's set will do, or the spelled-out product of a
		// run of parts that are each one of a few exact texts ("FA" then
		// "IL" or "TAL": FAIL, FATAL); the set whose shortest literal is
		// longest is the most selective.
		var best []gateLiteral
		bestLen := 0
		consider := func(lits []gateLiteral) {
			if len(lits) == 0 {
				return
			}
			shortest := len(lits[0].text)
			for _, l := range lits[1:] {
				shortest = min(shortest, len(l.text))
			}
			if shortest > bestLen {
				best, bestLen = lits, shortest
			}
		}
		var run []exactText
		runOpen, runAtLine := false, false
		for j, sub := range re.Sub {
			// A run that follows (?m)^ starts a line in every match.
			atLine := j > 0 && re.Sub[j-1].Op == syntax.OpBeginLine
			if texts, ok := repeatedTexts(sub); ok {
				// x+ or x{2,}: one copy of x ends the run (more may
				// follow, so nothing after extends it).
				if runOpen {
					texts = product(run, texts)
				}
				if lits, ok := gateLiterals(texts); ok {
					consider(lits)
				}
				run, runOpen = nil, false
			} else if texts, ok := exactTexts(sub); !ok {
				run, runOpen = nil, false
			} else {
				if !runOpen {
					run, runOpen, runAtLine = texts, true, atLine
				} else if run = product(run, texts); run == nil {
					run, runOpen, runAtLine = texts, true, atLine
				}
				if lits, ok := gateLiterals(run); ok {
					if runAtLine {
						for i := range lits {
							lits[i].lineStart = lits[i].prefix
						}
					}
					consider(lits)
				}
			}
			if lits, ok := requiredLiterals(sub); ok {
				consider(lits)
			}
		}
		return best, best != nil
	}
	return nil, false
}

// repeatedTexts returns the texts x matches exactly when re is x+ or x
// repeated at least once: every match of re begins with one of them.
func repeatedTexts(re *syntax.Regexp) ([]exactText, bool) {
	if re.Op != syntax.OpPlus && (re.Op != syntax.OpRepeat || re.Min < 1) {
		return nil, false
	}
	return exactTexts(re.Sub[0])
}

// exactText is one text a node matches exactly, before gating: fold
// texts are lower-cased.
type exactText struct {
	text string
	fold bool
}

// maxExactTexts bounds a spelled-out product of alternatives.
const maxExactTexts = 64

// exactTexts returns the texts a literal, or an alternation or
// concatenation of them, matches exactly; false for any other node.
func exactTexts(re *syntax.Regexp) ([]exactText, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		fold := re.Flags&syntax.FoldCase != 0
		r := []rune(string(re.Rune))
		if fold {
			for i, c := range r {
				if c >= 'A' && c <= 'Z' {
					r[i] = c + 'a' - 'A'
				}
			}
		}
		return []exactText{{text: string(r), fold: fold}}, true
	case syntax.OpCapture:
		return exactTexts(re.Sub[0])
	case syntax.OpAlternate:
		var out []exactText
		for _, sub := range re.Sub {
			texts, ok := exactTexts(sub)
			if !ok || len(out)+len(texts) > maxExactTexts {
				return nil, false
			}
			out = append(out, texts...)
		}
		return out, true
	case syntax.OpConcat:
		var out []exactText
		for i, sub := range re.Sub {
			texts, ok := exactTexts(sub)
			if !ok {
				return nil, false
			}
			if i == 0 {
				out = texts
			} else if out = product(out, texts); out == nil {
				return nil, false
			}
		}
		return out, len(out) > 0
	}
	return nil, false
}

// product is every text of a followed by every text of b, nil when the
// two mix case-folded and exact texts or the product is too large.
func product(a, b []exactText) []exactText {
	if len(a)*len(b) > maxExactTexts {
		return nil
	}
	out := make([]exactText, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			if x.fold != y.fold {
				return nil
			}
			out = append(out, exactText{text: x.text + y.text, fold: x.fold})
		}
	}
	return out
}

// gateLiterals turns exact texts into gate literals, false when one is
// too short to be worth a search.
func gateLiterals(texts []exactText) ([]gateLiteral, bool) {
	out := make([]gateLiteral, 0, len(texts))
	for _, t := range texts {
		l, ok := literalOf(t)
		if !ok {
			return nil, false
		}
		out = append(out, l)
	}
	return out, len(out) > 0
}

// literalOf is an exact text's gate literal. A case-folded one keeps only
// its longest run of ASCII characters other than k and s: those two
// letters fold to non-ASCII runes too (K, ſ), which an ASCII lower-casing
// of the input would not map back, so leaving them out keeps the gate
// exact.
func literalOf(t exactText) (gateLiteral, bool) {
	if !t.fold {
		// Bytes, not runes: "✕ " is four bytes a substring search finds
		// as rarely as any four ASCII ones.
		return gateLiteral{text: t.text, prefix: true}, len(t.text) >= minGateLiteral
	}
	best, cur := "", []rune(nil)
	bestAt, curAt := 0, 0
	flush := func() {
		if len(cur) > len(best) {
			best, bestAt = string(cur), curAt
		}
		cur = cur[:0]
	}
	for i, r := range t.text {
		// A non-ASCII rune with no other case matches only itself, and
		// asciiLower leaves its bytes as they are ("⚠️" gates defectRe).
		if (r >= utf8.RuneSelf && unicode.SimpleFold(r) != r) || r == 'k' || r == 's' {
			flush()
			continue
		}
		if len(cur) == 0 {
			curAt = i
		}
		cur = append(cur, r)
	}
	flush()
	return gateLiteral{text: best, fold: true, prefix: bestAt == 0}, len(best) >= minGateLiteral
}

// screenedRegexp is a lazyRegexp behind a hand-written screen for a
// pattern with no literal to gate on: may is true of every text the
// regexp matches in, so a false screen answers "no match" exactly, and
// only a text that passes runs the regexp. factRe, pascalRe and figureRe
// ran on every line of the assistant's reports (findingLine, keyLine),
// about a twentieth of a large compile; most prose lines fail their
// screens. TestScreensExact holds each screen to its regexp on every line
// of the shared transcripts and on generated text.
type screenedRegexp struct {
	lazyRegexp
	may func(string) bool
	// near, with texts, bounds where FindString runs the regexp (see
	// screenedLines).
	near  int
	texts []string
}

// screened returns pattern's lazyRegexp behind may.
func screened(pattern string, may func(string) bool) screenedRegexp {
	return screenedRegexp{lazyRegexp: lazyRE(pattern), may: may}
}

// screenedLines returns pattern's lazyRegexp screened by texts (see
// containsLower), whose FindString runs the regexp only on the lines
// around those that hold one of texts: each match of pattern must start
// at a line's start ((?m)^ in every alternative), and hold on one of its
// lines one of texts (lower-cased) with no more than near non-blank lines
// of the match either side of that line, and any number of blank ones
// (only \s: space, \t, \f, \r). checkErrorRe's NFA over a check's whole
// output, up to the first error line, was the largest single regexp cost
// of a large compile (≈6 ms of 36 in Build): the error lines are few, and
// most of the output never needs the regexp at all.
func screenedLines(pattern string, near int, texts []string) screenedRegexp {
	return screenedRegexp{
		lazyRegexp: lazyRE(pattern),
		may:        func(s string) bool { return containsLower(s, texts) },
		near:       near,
		texts:      texts,
	}
}

// containsLower reports whether s, ASCII lower-cased, contains one of
// texts (lower-case).
func containsLower(s string, texts []string) bool {
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
func (r screenedRegexp) findNear(s string) string {
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
func (r screenedRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	if !r.may(s) {
		return nil
	}
	return r.lazyRegexp.FindAllStringSubmatch(s, n)
}

// mayGitCommit screens gitCommitRe, whose only literals ("[", "] ") are
// too short to gate on: every match starts a line with "[" and a byte
// that is neither \s nor "]" ([^\s\]]), and holds "] " on that line.
// CMake's "[  2%] Building …" lines, hundreds to a build output, fail it.
func mayGitCommit(s string) bool {
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

func (r screenedRegexp) MatchString(s string) bool {
	return r.may(s) && r.lazyRegexp.MatchString(s)
}

func (r screenedRegexp) FindAllString(s string, n int) []string {
	if !r.may(s) {
		return nil
	}
	return r.lazyRegexp.FindAllString(s, n)
}

func isLowerASCII(b byte) bool { return 'a' <= b && b <= 'z' }
func isUpperASCII(b byte) bool { return 'A' <= b && b <= 'Z' }
func isDigitASCII(b byte) bool { return '0' <= b && b <= '9' }

// isWordASCII is regexp's \w: [0-9A-Za-z_].
func isWordASCII(b byte) bool {
	return isLowerASCII(b) || isUpperASCII(b) || isDigitASCII(b) || b == '_'
}

// mayPascal screens pascalRe (\b[A-Z][a-z]+[A-Z][A-Za-z0-9]*\b): its
// [a-z]+[A-Z] is a lower-case letter followed by an upper-case one.
func mayPascal(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if isLowerASCII(s[i]) && isUpperASCII(s[i+1]) {
			return true
		}
	}
	return false
}

// mayFigure screens figureRe: each of its alternatives starts with \d,
// an ASCII digit even under (?i).
func mayFigure(s string) bool {
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

// mayFact screens factRe, one clause per alternative: a backtick (code),
// a slash (a path), a \w dot and an extension's first letter (a file), a
// lower-case letter and an underscore (snake_case), a lower-case letter
// and an upper-case one (camelCase).
func mayFact(s string) bool {
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b == '`' || b == '/':
			return true
		case b == '_':
			if i > 0 && isLowerASCII(s[i-1]) {
				return true
			}
		case b == '.':
			if i > 0 && i+1 < len(s) && isWordASCII(s[i-1]) && strings.IndexByte(extFirst, s[i+1]) >= 0 {
				return true
			}
		case isLowerASCII(b):
			if i+1 < len(s) && isUpperASCII(s[i+1]) {
				return true
			}
		}
	}
	return false
}

// FindString is the regexp's leftmost match, "" when the screen fails.
func (r screenedRegexp) FindString(s string) string {
	if r.texts != nil {
		return r.findNear(s)
	}
	if !r.may(s) {
		return ""
	}
	return r.lazyRegexp.FindString(s)
}

// mayDiffMark screens diffMarkRe, whose "@@" is too short a literal to
// gate on, so it ran its regexp over every output it judged (about 60 KB
// a Build on the largest file, none a diff): a match is a line that
// starts with one of these.
func mayDiffMark(s string) bool {
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

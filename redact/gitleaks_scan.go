package redact

import (
	"maps"
	"math"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// glEngine runs gitleaks' rules the way gitleaks does: a rule's pattern
// runs only where one of its keywords occurs (ASCII case ignored), and
// only on the keyword's line, so the cost follows the keywords found, not
// the number of rules.
type glEngine struct {
	rules  []glCompiled
	global glAllowC
	// first2 maps two bytes, in any case, to an index in lists: the
	// keywords that start with them.
	first2 []uint16
	lists  [][]glKeyword
	// thirds[li] has bit c set for each lower-case third byte c of the
	// keywords in lists[li] (every bit when one is two bytes long): one
	// test rules out a list whose first two bytes are common in text
	// ("co", "li", "se") before its keywords are compared one by one.
	thirds [][4]uint64
}

type glKeyword struct {
	word string // lower case
	rule int
}

// glCompiled is a runnable glRule.
type glCompiled struct {
	id          string
	re          lazyRegexp
	secretGroup int
	entropy     float64
	multiLine   bool
	// shape is what the pattern says about its matches, worked out on
	// the first keyword hit: most rules never see one, and parsing all
	// their patterns was a third of building the engine.
	shape func() glShape
	allow []glAllowC
}

type glAllowC struct {
	and       bool
	target    string
	res       []lazyRegexp
	stopwords []string
}

func compileAllow(a glAllow) glAllowC {
	c := glAllowC{and: a.and, target: a.target, stopwords: a.stopwords}
	for _, re := range a.regexes {
		c.res = append(c.res, lazyCompile(re))
	}
	return c
}

// newGLEngine builds the engine from the generated rules, leaving out
// path-only, multi-part and skipped rules.
func newGLEngine() *glEngine {
	g := &glEngine{global: compileAllow(gitleaksGlobalAllow()), first2: make([]uint16, 1<<16)}
	byKey := map[uint16][]glKeyword{}
	for _, r := range append(gitleaksRules(), ownRules()...) {
		if r.regex == "" || len(r.required) > 0 || glSkipped(r.id) != "" {
			continue
		}
		pattern, keywords := r.regex, r.keywords
		c := glCompiled{id: r.id, re: lazyCompile(pattern), secretGroup: r.secretGroup, entropy: r.entropy, multiLine: r.multiLine,
			shape: sync.OnceValue(func() glShape { return analyse(pattern, keywords) })}
		for _, a := range r.allow {
			c.allow = append(c.allow, compileAllow(a))
		}
		g.rules = append(g.rules, c)
		for _, kw := range r.keywords {
			kw = strings.ToLower(kw)
			if len(kw) < 2 {
				continue
			}
			// Every case of the first two bytes is a key of its own, so
			// the scan looks a pair up as it is, without folding it.
			for _, b0 := range caseVariants(kw[0]) {
				for _, b1 := range caseVariants(kw[1]) {
					k := uint16(b0)<<8 | uint16(b1)
					byKey[k] = append(byKey[k], glKeyword{word: kw, rule: len(g.rules) - 1})
				}
			}
		}
	}
	g.lists = [][]glKeyword{nil}
	g.thirds = [][4]uint64{{}}
	for _, k := range slices.Sorted(maps.Keys(byKey)) { // the keys in use, not all 65536
		g.first2[k] = uint16(len(g.lists))
		g.lists = append(g.lists, byKey[k])
		var mask [4]uint64
		for _, kw := range byKey[k] {
			if len(kw.word) < 3 {
				mask = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
				break
			}
			c := kw.word[2]
			mask[c>>6] |= 1 << (c & 63)
		}
		g.thirds = append(g.thirds, mask)
	}
	return g
}

// ranTo records how far into the text a rule's pattern has run: find
// runs it again only on a window that reaches further.
type ranTo struct{ rule, to int }

// Window bounds: a pattern runs on the keyword's line, at most this much
// of it either side (extended to the nearest space so no token is cut),
// and a multi-line rule on the text from the keyword's line on.
const (
	glBefore    = 512
	glAfter     = 4096
	glMultiLine = 16 << 10
	glSnap      = 64
)

// find adds the gitleaks rules' secrets in s to sc.catalog.
func (g *glEngine) find(s string, sc *scanner) {
	// The rules whose pattern has run, and the end of the text it has
	// seen; few rules meet a keyword in one text, so a short list.
	var done []ranTo
	for i := 0; i+1 < len(s); i++ {
		li := g.first2[uint16(s[i])<<8|uint16(s[i+1])]
		if li == 0 {
			continue
		}
		if i+2 < len(s) {
			if c := lowerByte(s[i+2]); g.thirds[li][c>>6]&(1<<(c&63)) == 0 {
				continue
			}
		}
		for _, kw := range g.lists[li] {
			if !hasPrefixFold(s[i:], kw.word) {
				continue
			}
			rl := &g.rules[kw.rule]
			sh := rl.shape()
			if sh.lead && i > 0 && isWordByte(s[i-1]) {
				continue
			}
			from, to := glWindow(s, i, rl.multiLine, sh.span)
			if rl.multiLine && i+len(kw.word) < to {
				// A multi-line pattern's window ends where its keyword
				// comes again: "curl … \\\n --user a:b" followed by
				// "curl -u c:d" would otherwise match greedily up to the
				// second -u and never report the first.
				if k := g.nextKeyword(s, i+len(kw.word), to, kw.word, sh.lead); k >= 0 {
					to = k
				}
			}
			// A window the last run already covered is skipped; one
			// that reaches further is run again (what it repeats, merge
			// joins).
			k := slices.IndexFunc(done, func(d ranTo) bool { return d.rule == kw.rule })
			switch {
			case k < 0:
				done = append(done, ranTo{kw.rule, to})
			case to <= done[k].to:
				continue
			default:
				done[k].to = to
			}
			g.run(rl, &sh, s, from, to, sc)
		}
	}
}

// nextKeyword is the offset of word's next occurrence in s[from:to], or
// -1; for a rule whose matches start with a keyword at a word boundary
// (lead), only such an occurrence counts, as only it is run.
func (g *glEngine) nextKeyword(s string, from, to int, word string, lead bool) int {
	for from < to {
		k := indexFold(s[from:to], word)
		if k < 0 {
			return -1
		}
		if at := from + k; !lead || at == 0 || !isWordByte(s[at-1]) {
			return at
		}
		from += k + 1
	}
	return -1
}

// hasPrefixFold reports whether s starts with the lower-case word, ASCII
// case ignored.
func hasPrefixFold(s, word string) bool {
	if len(s) < len(word) {
		return false
	}
	for k := 0; k < len(word); k++ {
		if lowerByte(s[k]) != word[k] {
			return false
		}
	}
	return true
}

// glWindow returns the text a pattern runs on for a keyword at i: the
// keyword's line and the next (gitleaks' assignment patterns let a value
// follow on the next line: "<oktaToken>\n  00f…"), no further either side
// than the pattern's span, widened to the nearest byte that cannot be
// inside a token so that \b and $ at the window's edges mean what they
// mean in the whole text.
func glWindow(s string, i int, multi bool, span int) (int, int) {
	before, after := glBefore, glAfter
	if multi {
		after = glMultiLine
	}
	if span >= 0 {
		before, after = min(before, span), min(after, span)
	}
	// The line bounds are looked for only as far as the window reaches:
	// a JSONL record is one line of megabytes.
	lo, hi := max(0, i-before-glSnap), min(len(s), i+after+glSnap)
	ls, le := lo, hi
	if !multi {
		ls = lo + strings.LastIndexByte(s[lo:i], '\n') + 1
		if k := strings.IndexByte(s[i:hi], '\n'); k >= 0 {
			le = i + k
			if k2 := strings.IndexByte(s[le+1:hi], '\n'); k2 >= 0 {
				le = le + 1 + k2
			}
		}
	}
	from, to := max(ls, i-before), min(le, i+after)
	for from > ls && isTokenByte(s[from-1]) {
		from--
	}
	for to < le && isTokenByte(s[to]) {
		to++
	}
	return from, to
}

// isTokenByte reports a byte that can continue a token.
func isTokenByte(c byte) bool { return isIdentChar(c) || c == '+' || c == '/' || c == '=' || c == '~' }

// maxMatchLen is the most bytes re can match (ASCII classes count one
// byte), or -1 when it has no bound.
func maxMatchLen(re *syntax.Regexp) int {
	n := maxLenOf(re.Simplify())
	if n > glMultiLine {
		return -1
	}
	return n
}

func maxLenOf(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(string(re.Rune))
	case syntax.OpCharClass:
		if len(re.Rune) > 0 && re.Rune[len(re.Rune)-1] < utf8.RuneSelf {
			return 1
		}
		return utf8.UTFMax
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return utf8.UTFMax
	case syntax.OpCapture:
		return maxLenOf(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus:
		return -1
	case syntax.OpQuest:
		return maxLenOf(re.Sub[0])
	case syntax.OpRepeat:
		if re.Max < 0 {
			return -1
		}
		n := maxLenOf(re.Sub[0])
		if n < 0 {
			return -1
		}
		return re.Max * n
	case syntax.OpConcat, syntax.OpAlternate:
		total := 0
		for _, sub := range re.Sub {
			n := maxLenOf(sub)
			if n < 0 {
				return -1
			}
			if re.Op == syntax.OpConcat {
				total += n
			} else {
				total = max(total, n)
			}
		}
		return total
	}
	return 0
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// run applies one rule to s[from:to] with gitleaks' checks: the secret
// group, the entropy floor, the global and the rule's allowlists.
func (g *glEngine) run(rl *glCompiled, sh *glShape, s string, from, to int, sc *scanner) {
	w := s[from:to]
	for _, group := range sh.need {
		if !slices.ContainsFunc(group, func(lit string) bool { return containsFold(w, lit) }) {
			return
		}
	}
	if !hasRun(w, sh.runs) {
		return
	}
	for _, m := range rl.re().FindAllStringSubmatchIndex(w, -1) {
		ms, me := m[0], m[1]
		for me > ms && w[me-1] == '\n' {
			me--
		}
		gs, ge := ms, me
		if n := len(m) / 2; n > 1 {
			if rl.secretGroup > 0 {
				if rl.secretGroup >= n || m[2*rl.secretGroup] < 0 {
					continue
				}
				gs, ge = m[2*rl.secretGroup], m[2*rl.secretGroup+1]
			} else {
				for k := 1; k < n; k++ {
					if m[2*k] >= 0 && m[2*k+1] > m[2*k] {
						gs, ge = m[2*k], m[2*k+1]
						break
					}
				}
			}
		}
		secret := w[gs:ge]
		if secret == "" || rl.entropy > 0 && shannon(secret) <= rl.entropy {
			continue
		}
		if strings.HasPrefix(secret, marker) || glPlaceholder(secret) {
			continue
		}
		line := lineAt(s, from+ms)
		if g.global.allows(secret, w[ms:me], line) {
			continue
		}
		allowed := false
		for k := range rl.allow {
			if rl.allow[k].allows(secret, w[ms:me], line) {
				allowed = true
				break
			}
		}
		if !allowed {
			sc.catalog = append(sc.catalog, Finding{Kind: rl.id, Start: from + gs, End: from + ge})
		}
	}
}

// lineAt is the line of s that holds offset i.
func lineAt(s string, i int) string {
	ls := strings.LastIndexByte(s[:i], '\n') + 1
	le := len(s)
	if k := strings.IndexByte(s[i:], '\n'); k >= 0 {
		le = i + k
	}
	return s[ls:le]
}

// allows is gitleaks' allowlist check on text without a path or commit.
func (a *glAllowC) allows(secret, match, line string) bool {
	target := secret
	switch a.target {
	case "match":
		target = match
	case "line":
		target = line
	}
	regex := false
	for _, re := range a.res {
		if re().MatchString(target) {
			regex = true
			break
		}
	}
	stop := false
	if len(a.stopwords) > 0 {
		lower := strings.ToLower(secret)
		for _, w := range a.stopwords {
			if strings.Contains(lower, w) {
				stop = true
				break
			}
		}
	}
	if a.and {
		return (len(a.res) == 0 || regex) && (len(a.stopwords) == 0 || stop) && (len(a.res) > 0 || len(a.stopwords) > 0)
	}
	return regex || stop
}

// shannon is the Shannon entropy of s in bits per byte, as gitleaks
// computes it (over the whole secret).
func shannon(s string) float64 {
	var counts [256]int
	for k := 0; k < len(s); k++ {
		counts[s[k]]++
	}
	n := float64(len(s))
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// glPlaceholder is valuePlaceholder (a template reference, a mask, a
// phrase of plain words, "changeme"), without tokenPlaceholder's run
// test: a rule's pattern already says a key is there, and real keys have
// long runs (a Twitter bearer token starts with 22 A's).
func glPlaceholder(secret string) bool {
	return valuePlaceholder(secret) || placeholderPhrase(secret)
}

// requiredLiterals returns the literal groups pattern's top-level
// sequence holds: each a literal, or an alternation of literals, of at
// least three bytes (shorter ones rule little out), lower-cased.
func requiredLiterals(re *syntax.Regexp) [][]string {
	var out [][]string
	var walk func(re *syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		switch re.Op {
		case syntax.OpCapture:
			walk(re.Sub[0])
		case syntax.OpConcat:
			for _, sub := range re.Sub {
				walk(sub)
			}
		case syntax.OpLiteral:
			if lit := strings.ToLower(string(re.Rune)); len(lit) >= 3 {
				out = append(out, []string{lit})
			}
		case syntax.OpAlternate:
			var group []string
			for _, sub := range re.Sub {
				lit := ""
				if sub.Op == syntax.OpLiteral {
					lit = strings.ToLower(string(sub.Rune))
				}
				if len(lit) < 3 {
					return
				}
				group = append(group, lit)
			}
			out = append(out, group)
		}
	}
	walk(re)
	return out
}

// containsFold reports whether s holds the lower-case lit, ASCII case
// ignored.
func containsFold(s, lit string) bool { return indexFold(s, lit) >= 0 }

// indexFold is the offset of the lower-case lit in s, ASCII case
// ignored, or -1.
func indexFold(s, lit string) int {
	for i := 0; i+len(lit) <= len(s); i++ {
		if lowerByte(s[i]) == lit[0] && hasPrefixFold(s[i:], lit) {
			return i
		}
	}
	return -1
}

// caseVariants returns the lower-case byte c and, for a letter, its upper
// case.
func caseVariants(c byte) []byte {
	if c >= 'a' && c <= 'z' {
		return []byte{c, c - 'a' + 'A'}
	}
	return []byte{c}
}

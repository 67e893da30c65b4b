package prose

import (
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// minGateLiteral is the shortest literal, in bytes, worth a gate: shorter
// ones are in nearly every text and would only add the search to the
// regexp's cost.
const minGateLiteral = 3

// requiredLiterals returns literals one of which every match of re
// contains, and false when it cannot name such a set.
func requiredLiterals(re *syntax.Regexp) ([]GateLiteral, bool) {
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
		var out []GateLiteral
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
		var best []GateLiteral
		bestLen := 0
		consider := func(lits []GateLiteral) {
			if len(lits) == 0 {
				return
			}
			shortest := len(lits[0].Text)
			for _, l := range lits[1:] {
				shortest = min(shortest, len(l.Text))
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
							lits[i].LineStart = lits[i].Prefix
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
func gateLiterals(texts []exactText) ([]GateLiteral, bool) {
	out := make([]GateLiteral, 0, len(texts))
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
func literalOf(t exactText) (GateLiteral, bool) {
	if !t.fold {
		// Bytes, not runes: "✕ " is four bytes a substring search finds
		// as rarely as any four ASCII ones.
		return GateLiteral{Text: t.text, Prefix: true}, len(t.text) >= minGateLiteral
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
	return GateLiteral{Text: best, Fold: true, Prefix: bestAt == 0}, len(best) >= minGateLiteral
}

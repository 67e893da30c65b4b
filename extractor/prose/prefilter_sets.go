package prose

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// setText is one text a literal-set pattern matches, as it appears in
// text ASCII lower-cased, with the offsets in it where \b must hold.
type setText struct {
	Text   string
	bounds []int
}

// maxSetTexts bounds a literal set: past it, a search per text would
// cost more than the regexp.
const maxSetTexts = 64

// LiteralSet returns the texts re matches, compared with the text ASCII
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
func LiteralSet(re *syntax.Regexp) ([]setText, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []setText{{}}, true
	case syntax.OpWordBoundary:
		return []setText{{bounds: []int{0}}}, true
	case syntax.OpCapture:
		return LiteralSet(re.Sub[0])
	case syntax.OpLiteral:
		return literalSetText(re)
	case syntax.OpCharClass:
		return classSet(re)
	case syntax.OpQuest:
		sub, ok := LiteralSet(re.Sub[0])
		if !ok || len(sub)+1 > maxSetTexts {
			return nil, false
		}
		return append(sub, setText{}), true
	case syntax.OpAlternate:
		return alternateSet(re)
	case syntax.OpConcat:
		return concatSet(re)
	}
	return nil, false
}

// literalSetText is literalSet's one text for a literal: ASCII letters
// only case-folded, non-ASCII runes only without a case.
func literalSetText(re *syntax.Regexp) ([]setText, bool) {
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
		if IsLowerASCII(c) || isUpperASCII(c) {
			if !fold {
				return nil, false
			}
			c = lowerASCII(c)
		}
		b = append(b, c)
	}
	return []setText{{Text: string(b)}}, true
}

// classSet is literalSet's texts for a character class: at most four
// ASCII bytes holding both cases of their letters, plus a few non-ASCII
// runes.
func classSet(re *syntax.Regexp) ([]setText, bool) {
	var in [128]bool
	out, ok := classRunes(re.Rune, &in)
	if !ok {
		return nil, false
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
		if IsLowerASCII(b) && !in[b-'a'+'A'] {
			return nil, false
		}
		if out = append(out, setText{Text: string(b)}); len(out) > 4 {
			return nil, false
		}
	}
	return out, true
}

// classRunes marks a class's ASCII runes in in and returns its non-ASCII
// ones as texts, false when a non-ASCII range is too wide to spell out.
func classRunes(ranges []rune, in *[128]bool) ([]setText, bool) {
	var out []setText
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			switch {
			case r < utf8.RuneSelf:
				in[r] = true
			case r == Kelvin || r == LongS:
				// Never in the text setMatch reads.
			case ranges[i+1]-ranges[i] > 8:
				return nil, false
			default:
				out = append(out, setText{Text: string(r)})
			}
		}
	}
	return out, true
}

// alternateSet is literalSet's texts for an alternation: all of each
// alternative's.
func alternateSet(re *syntax.Regexp) ([]setText, bool) {
	var out []setText
	for _, sub := range re.Sub {
		texts, ok := LiteralSet(sub)
		if !ok || len(out)+len(texts) > maxSetTexts {
			return nil, false
		}
		out = append(out, texts...)
	}
	return out, true
}

// concatSet is literalSet's texts for a concatenation: every way of
// joining one text of each part, \b offsets carried along.
func concatSet(re *syntax.Regexp) ([]setText, bool) {
	out := []setText{{}}
	for _, sub := range re.Sub {
		texts, ok := LiteralSet(sub)
		if !ok || len(out)*len(texts) > maxSetTexts {
			return nil, false
		}
		next := make([]setText, 0, len(out)*len(texts))
		for _, a := range out {
			for _, b := range texts {
				t := setText{Text: a.Text + b.Text, bounds: slices.Clone(a.bounds)}
				for _, p := range b.bounds {
					t.bounds = append(t.bounds, len(a.Text)+p)
				}
				next = append(next, t)
			}
		}
		out = next
	}
	return out, true
}

// kelvin and longS are the only non-ASCII runes that (?i) folds to an
// ASCII letter (k and s; TestFoldSpecials checks).
const (
	Kelvin = '\u212A'
	LongS  = '\u017F'
)

// setReadable reports whether setMatch answers for s as the regexp: s
// is ASCII, or valid UTF-8 (Go's \b and the regexp's runes then agree
// with bytes: a non-ASCII byte is no word byte, and a text found is
// found at rune boundaries) without K or ſ, which asciiLower does not
// fold.
func setReadable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return utf8.ValidString(s) && !strings.ContainsRune(s, Kelvin) && !strings.ContainsRune(s, LongS)
		}
	}
	return true
}

// setMatch reports whether lower, a setReadable text lower-cased, holds one
// of g.set's texts with its word boundaries.
func (g *RegexGate) setMatch(lower string) bool {
	word := func(i int) bool { return i >= 0 && i < len(lower) && isWordASCII(lower[i]) }
	for _, t := range g.Set {
		for from := 0; from <= len(lower); {
			i := strings.Index(lower[from:], t.Text)
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

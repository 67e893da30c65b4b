package prose

import (
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxHeads bounds the texts a pattern anchored at the text's start may
// begin with: past it, trying each costs more than the regexp's own
// first step.
const maxHeads = 32

// headText is a text every match of an anchored pattern may begin with;
// fold marks one compared as the regexp's (?i) compares, rune by rune
// under simple case folding (so "ſ" matches "s", and "K" "k").
type headText struct {
	text string
	fold bool
}

// startHeads returns the texts one of which begins every match of re,
// false when it cannot name them (a class, a dot, or a match that may be
// empty, begins it). It reads the pattern as parsed, not its literals'
// gate: an anchored pattern applied to every line of an output (the
// harness wrapper lines) then costs a comparison of the line's first
// bytes, not a search of the whole line for each literal.
func startHeads(re *syntax.Regexp) ([]headText, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return []headText{{text: string(re.Rune), fold: re.Flags&syntax.FoldCase != 0}}, true
	case syntax.OpCharClass:
		// A small class is its runes ("[-*•]"); the parser has already
		// spelled out a case-folded class's other cases.
		var out []headText
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(out) == maxHeads {
					return nil, false
				}
				out = append(out, headText{text: string(r)})
			}
		}
		return out, len(out) > 0
	case syntax.OpCapture, syntax.OpPlus:
		return startHeads(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min < 1 {
			return nil, false
		}
		return startHeads(re.Sub[0])
	case syntax.OpAlternate:
		var out []headText
		for _, sub := range re.Sub {
			var ok bool
			if out, ok = appendHeads(out, sub); !ok {
				return nil, false
			}
		}
		return out, true
	case syntax.OpConcat:
		// Assertions take no text; an optional part adds its heads and
		// the next part's; the first part that must match ends it.
		var out []headText
		for _, sub := range re.Sub {
			switch sub.Op {
			case syntax.OpBeginText, syntax.OpBeginLine, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
				continue
			case syntax.OpQuest, syntax.OpStar:
				var ok bool
				if out, ok = appendHeads(out, sub.Sub[0]); !ok {
					return nil, false
				}
				continue
			}
			return appendHeads(out, sub)
		}
	}
	return nil, false
}

// appendHeads adds re's heads to out, false when re has none or they
// would pass maxHeads.
func appendHeads(out []headText, re *syntax.Regexp) ([]headText, bool) {
	heads, ok := startHeads(re)
	if !ok || len(out)+len(heads) > maxHeads {
		return nil, false
	}
	return append(out, heads...), true
}

// beginsWithHead reports whether s begins with one of heads.
func beginsWithHead(s string, heads []headText) bool {
	for _, h := range heads {
		if h.fold {
			if hasPrefixFold(s, h.text) {
				return true
			}
		} else if strings.HasPrefix(s, h.text) {
			return true
		}
	}
	return false
}

// hasPrefixFold reports whether s begins with prefix under simple case
// folding, the equivalence regexp's (?i) matches by.
func hasPrefixFold(s, prefix string) bool {
	for _, pr := range prefix {
		if s == "" {
			return false
		}
		sr, n := utf8.DecodeRuneInString(s)
		s = s[n:]
		if sr == pr {
			continue
		}
		if sr < utf8.RuneSelf && pr < utf8.RuneSelf {
			if lowerASCII(byte(sr)) != lowerASCII(byte(pr)) {
				return false
			}
			continue
		}
		if !sameFoldOrbit(sr, pr) {
			return false
		}
	}
	return true
}

// sameFoldOrbit reports whether a and b fold to each other.
func sameFoldOrbit(a, b rune) bool {
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

package redact

import "regexp/syntax"

// A cheaper test before a rule's regexp: most gitleaks patterns end in
// the secret itself, one character class repeated a fixed number of
// times ([a-f0-9]{32}, [a-z0-9]{24}). A keyword's window without a run
// of that class at least that long cannot match, and scanning the window
// for the run costs a table look-up a byte, where the regexp (often
// led by a lazy [\w.-]{0,50}? tried at every start) costs a hundred
// times more. The runs are derived from each pattern, so the rules stay
// data.

// minRunNeed is the shortest run worth testing for: shorter runs occur
// in almost any window.
const minRunNeed = 8

// runNeed is a class run a pattern cannot match without.
type runNeed struct {
	in  [256]bool
	min int
}

// glShape is what a rule's pattern says about its matches, used to skip
// windows where it cannot match.
type glShape struct {
	// span is the longest text the pattern can match, or -1 when it has
	// no bound: a keyword's window reaches no further than that.
	span int
	// need lists literals the pattern cannot match without (one of each
	// group, ASCII case ignored).
	need [][]string
	// runs are the class runs one of which a match holds.
	runs []runNeed
	// lead: every match starts with a keyword at a word boundary
	// (keywordLeads), so a keyword inside a word is passed over.
	lead bool
}

// analyse parses pattern once for all of its shape.
func analyse(pattern string, keywords []string) glShape {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return glShape{span: -1}
	}
	return glShape{span: maxMatchLen(re), need: requiredLiterals(re), runs: runsOf(re), lead: keywordLeads(re, keywords)}
}

func runsOf(re *syntax.Regexp) []runNeed {
	switch re.Op {
	case syntax.OpCapture:
		return runsOf(re.Sub[0])
	case syntax.OpConcat:
		// Every part is required: the one whose weakest run is longest
		// tests the most.
		var best []runNeed
		bestMin := 0
		for _, sub := range re.Sub {
			rs := runsOf(sub)
			if len(rs) == 0 {
				continue
			}
			m := rs[0].min
			for _, r := range rs[1:] {
				m = min(m, r.min)
			}
			if m > bestMin {
				best, bestMin = rs, m
			}
		}
		return best
	case syntax.OpAlternate:
		// One branch is required: each must name a run.
		var out []runNeed
		for _, sub := range re.Sub {
			rs := runsOf(sub)
			if len(rs) == 0 {
				return nil
			}
			out = append(out, rs...)
		}
		return out
	case syntax.OpRepeat:
		if re.Min < minRunNeed || re.Sub[0].Op != syntax.OpCharClass {
			if re.Min >= 1 {
				return runsOf(re.Sub[0])
			}
			return nil
		}
		r := runNeed{min: re.Min}
		cls := re.Sub[0].Rune
		for k := 0; k+1 < len(cls); k += 2 {
			lo, hi := cls[k], cls[k+1]
			if hi > 0x7F {
				// Non-ASCII runes: any byte of their UTF-8 encoding.
				for c := 0x80; c <= 0xFF; c++ {
					r.in[c] = true
				}
				hi = min(hi, 0x7F)
			}
			for c := lo; c <= hi; c++ {
				r.in[c] = true
			}
		}
		return []runNeed{r}
	}
	return nil
}

// hasRun reports whether w holds a run of one of runs (true when runs
// is empty: nothing is known).
func hasRun(w string, runs []runNeed) bool {
	if len(runs) == 0 {
		return true
	}
	for k := range runs {
		r := &runs[k]
		n := 0
		for i := 0; i < len(w); i++ {
			if r.in[w[i]] {
				if n++; n >= r.min {
					return true
				}
			} else {
				n = 0
			}
		}
	}
	return false
}

// keywordLeads reports whether every match of pattern starts, at a word
// boundary, with one of keywords: the pattern is `\b` then a literal (or
// an alternation of literals) each of which begins with a keyword and
// with a word character. Then a keyword found inside a word ("ext_" in
// "output_text_", "s." in "files.") cannot start a match, and the rule
// need not run there: any match has a keyword of its own at its start.
func keywordLeads(re *syntax.Regexp, keywords []string) bool {
	if re.Op != syntax.OpConcat || len(re.Sub) < 2 || re.Sub[0].Op != syntax.OpWordBoundary {
		return false
	}
	leads := leadLiterals(re.Sub[1])
	if len(leads) == 0 {
		return false
	}
	for _, l := range leads {
		l = asciiLower(l)
		if l == "" || !isWordByte(l[0]) {
			return false
		}
		ok := false
		for _, kw := range keywords {
			if kw = asciiLower(kw); kw != "" && len(kw) <= len(l) && l[:len(kw)] == kw {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// leadLiterals returns the literals a match of re must start with, or
// nil when it can start otherwise.
func leadLiterals(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpCapture:
		return leadLiterals(re.Sub[0])
	case syntax.OpLiteral:
		return []string{string(re.Rune)}
	case syntax.OpConcat:
		if len(re.Sub) == 0 {
			return nil
		}
		leads := leadLiterals(re.Sub[0])
		// Literals after the first part lengthen every lead:
		// (?:sc|ext)_ leads with sc_ or ext_.
		for _, sub := range re.Sub[1:] {
			if sub.Op != syntax.OpLiteral || sub.Flags&syntax.FoldCase != 0 {
				break
			}
			for k := range leads {
				leads[k] += string(sub.Rune)
			}
		}
		return leads
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			ls := leadLiterals(sub)
			if len(ls) == 0 {
				return nil
			}
			out = append(out, ls...)
		}
		return out
	}
	return nil
}

// isWordByte is a byte of \w, which \b tests against.
func isWordByte(c byte) bool { return isKeyChar(c) || c == '_' }

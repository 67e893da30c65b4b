package prose

import "strings"

// splitAlternatives returns a gate (not yet compiled) for each top-level
// alternative of pattern and the alternatives' sources, or nil when
// pattern is no alternation its source can be split at (splitSource) or
// splitting gates none of them better.
func splitAlternatives(pattern string) ([]*RegexGate, []string) {
	parts := SplitSource(pattern)
	if parts == nil {
		return nil, nil
	}
	alts := make([]*RegexGate, 0, len(parts))
	better := false
	for _, part := range parts {
		a, ok := analyzeGate(part)
		if !ok {
			return nil, nil
		}
		better = better || (a.Lits != nil && a.lineLocal) || a.Alts != nil
		alts = append(alts, a)
	}
	if !better {
		return nil, nil
	}
	return alts, parts
}

// SplitSource cuts pattern's source at the "|" of its outermost
// alternation: below leading flag groups ("(?im)") and groups that wrap
// the whole rest ("(…)", "(?:…)", "(?i:…)"), outside any other group,
// character class or escape. Each part carries the leading flags, so it
// matches alone what it matched as an alternative of the whole. It
// returns nil when there is no such alternation, or when an alternative
// sets flags for those after it ("a|(?i)b|c") or quotes with \Q…\E,
// which the cut would not carry over. The source is cut, not the parsed
// tree re-printed: syntax.Regexp.String folds every case-insensitive
// class again, which cost more at first use than the split saved.
func SplitSource(pattern string) []string {
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

package facts

import (
	"slices"
	"strings"
)

// gitSeg is one git invocation of a shell command: its subcommand and
// arguments, quotes removed.
type gitSeg struct {
	sub  string
	args []string
	text string
}

// gitSegments lists the git invocations of a shell command, in order.
func gitSegments(cmd string) []gitSeg {
	if !strings.Contains(cmd, "git") {
		return nil
	}
	var out []gitSeg
	for _, part := range splitShell(cmd) {
		words := shellWords(part)
		i := slices.IndexFunc(words, func(w string) bool { return gitCmdRe.MatchString(w) })
		if i < 0 {
			continue
		}
		j := i + 1
		for j < len(words) && strings.HasPrefix(words[j], "-") {
			switch words[j] {
			case "-C", "-c", "--git-dir", "--work-tree", "--namespace":
				j++
			}
			j++
		}
		if j >= len(words) {
			continue
		}
		out = append(out, gitSeg{sub: words[j], args: words[j+1:], text: strings.TrimSpace(part)})
	}
	return out
}

// splitShell cuts a command line at unquoted &&, ||, ;, | and newlines.
func splitShell(cmd string) []string {
	var parts []string
	var cur strings.Builder
	var quote rune
	rs := []rune(cmd)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(rs) {
				cur.WriteRune(c)
				i++
				c = rs[i]
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ';' || c == '\n' || c == '|' || c == '&':
			parts = append(parts, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteRune(c)
	}
	return append(parts, cur.String())
}

// shellWords splits one simple command into words, removing quotes.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	var quote rune
	in := false
	for _, c := range s {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteRune(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '(' && !in:
			// An unquoted word cannot start with "(": what follows is a
			// subshell or, in console pastes, the call's description.
			return words
		case c == ' ' || c == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

// operands are a segment's arguments that are not options, skipping the
// values of the options named in valued.
func (s gitSeg) operands(valued ...string) []string {
	var out []string
	dashdash := false
	for i := 0; i < len(s.args); i++ {
		a := s.args[i]
		if dashdash {
			out = append(out, a)
			continue
		}
		if a == "--" {
			dashdash = true
			continue
		}
		if strings.HasPrefix(a, "-") {
			// An option that takes its value in the next word, alone
			// ("-m") or ending a bundle of short options ("-am").
			if slices.Contains(valued, a) || len(a) > 2 && a[1] != '-' && !strings.Contains(a, "=") && slices.Contains(valued, "-"+a[len(a)-1:]) {
				i++
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

// flag reports whether the segment has one of the long options, or a
// short option letter (also inside a bundle such as -am).
func (s gitSeg) flag(short byte, long ...string) bool {
	for _, a := range s.args {
		if a == "--" {
			return false
		}
		if slices.Contains(long, a) {
			return true
		}
		if short != 0 && len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], short) >= 0 {
			// A bundle stops at an option that takes a value (-m"msg").
			if k := strings.IndexAny(a[1:], "mFCc"); k < 0 || strings.IndexByte(a[1:], short) < k {
				return true
			}
		}
	}
	return false
}

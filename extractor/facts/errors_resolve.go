package facts

import (
	"path"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// More evidence that settles an error: a rerun of the same file from
// another directory, the same interpreter under its versioned name, a
// later chain that ran every step of the failed one, and a report, any
// time later, that says how the work went on without it.

// programAlias folds the versioned names of one program into one:
// python3, python3.11 → python; pip3 → pip. A command that failed as
// `python x.py` and ran as `python3 x.py` is the same attempt.
func programAlias(name string) string {
	for _, p := range []string{"python", "pip"} {
		if rest, ok := strings.CutPrefix(name, p); ok && strings.Trim(rest, "0123456789.") == "" {
			return p
		}
	}
	return name
}

// sameArg reports two command arguments that name the same thing: equal,
// or one a path suffix of the other at a directory boundary
// (competitors/x.py and bench/competitors/x.py, run from bench/ or from
// the root).
func sameArg(a, b string) bool {
	a, b = strings.TrimPrefix(a, "./"), strings.TrimPrefix(b, "./")
	return a == b || strings.HasSuffix(b, "/"+a) || strings.HasSuffix(a, "/"+b)
}

// argsCovered reports that every argument of small names the same thing
// as some argument of big.
func argsCovered(small, big []string) bool {
	for _, s := range small {
		found := false
		for _, b := range big {
			if sameArg(s, b) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// sameProgramKey compares two programKeys with aliases folded and path
// arguments compared by suffix.
func sameProgramKey(a, b string) bool {
	fa, fb := strings.Fields(a), strings.Fields(b)
	if len(fa) == 0 || len(fa) != len(fb) || programAlias(fa[0]) != programAlias(fb[0]) {
		return false
	}
	for i := 1; i < len(fa); i++ {
		if !sameArg(fa[i], fb[i]) {
			return false
		}
	}
	return true
}

// aliasedHead is programHead with the program's versioned name folded.
func aliasedHead(key string) string {
	h := programHead(key)
	first, rest, _ := strings.Cut(h, " ")
	if rest != "" {
		return programAlias(first) + " " + rest
	}
	return programAlias(first)
}

// unquoted is cmd with quoted spans blanked, for looking at its
// operators.
func unquoted(cmd string) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			b.WriteByte(' ')
			continue
		case c == '"' || c == '\'':
			quote = c
			b.WriteByte(' ')
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// chainSteps splits a command at && outside quotes into its real steps
// (the environment set-up that segments drops left out).
func chainSteps(cmd string) []string {
	var out []string
	for _, s := range strings.Split(unquotedSplit(NormalizeCommand(cmd)), "\x00") {
		out = append(out, segments(s)...)
	}
	return out
}

// unquotedSplit marks each && outside quotes with a NUL.
func unquotedSplit(cmd string) string {
	u := unquoted(cmd)
	var b strings.Builder
	for i := 0; i < len(cmd); i++ {
		if i+1 < len(cmd) && u[i] == '&' && u[i+1] == '&' {
			b.WriteByte(0)
			i++
			continue
		}
		b.WriteByte(cmd[i])
	}
	return b.String()
}

// chainCovers reports that the successful command ok ran every step of
// the failed command failed, each step the same program on the same
// target: `build && run -e "require(x)"` failed, and `build && run -e
// "require(x); log(ok)" && images` went through. ok must be a pure &&
// chain, so that its success vouches for each step.
func chainCovers(failed, ok string) bool {
	if !strings.Contains(unquoted(ok), "&&") || strings.ContainsAny(unquoted(ok), ";\n") || strings.Contains(unquoted(ok), "||") {
		return false
	}
	fs, os := chainSteps(failed), chainSteps(ok)
	if len(fs) == 0 || len(fs) > len(os) {
		return false
	}
	for _, f := range fs {
		fk := ProgramKey(f)
		found := false
		for _, o := range os {
			if sameProgramKey(fk, ProgramKey(o)) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

var (
	// blockedSayRe is a report that something could not be had: an
	// install blocked, a package unavailable.
	blockedSayRe = prose.LazyRE(rulebook.Pattern("facts.blocked-say"))
	// wentOnSayRe is how the work went on without it.
	wentOnSayRe = prose.LazyRE(rulebook.Pattern("facts.went-on-say"))
)

// laterReport reads an assistant report at any distance from an error:
// a sentence that names what an open error was about (a package of a
// failed install, a file it names), says it could not be had, and says
// how the work went on, settles it as a workaround with that sentence as
// its note ("pytest/fastapi installation is blocked …, so execution used
// unittest-based tests"). A report within noteTurns is read by said too.
func (l *errorLog) laterReport(m handoff.Message, clean string) {
	if !blockedSayRe.MatchString(clean) {
		return
	}
	var sentences []string
	for _, e := range l.list {
		if e.rec.Resolution != handoff.ResolutionUnresolved || e.last >= m.Index {
			continue
		}
		subjects := append(append([]string(nil), e.pkgs...), e.files...)
		if len(subjects) == 0 {
			continue
		}
		if sentences == nil {
			sentences = prose.ProseSentences(clean)
		}
		for _, s := range sentences {
			if blockedSayRe.MatchString(s) && wentOnSayRe.MatchString(s) && namesAny(s, subjects) {
				e.resolve(handoff.ResolutionWorkaround, m.Ref())
				e.rec.ResolutionNotes = prose.Truncate(strings.TrimSpace(strings.TrimLeft(s, "#*->• ")), errorNotesLimit)
				break
			}
		}
	}
}

// namesAny reports a sentence that names one of the subjects as a word
// (a package name, a file's base name).
func namesAny(s string, subjects []string) bool {
	lower := strings.ToLower(s)
	for _, sub := range subjects {
		sub = strings.ToLower(path.Base(sub))
		if len(sub) < 3 {
			continue
		}
		for i := 0; ; {
			j := strings.Index(lower[i:], sub)
			if j < 0 {
				break
			}
			j += i
			end := j + len(sub)
			if (j == 0 || !wordByte(lower[j-1])) && (end == len(lower) || !wordByte(lower[end])) {
				return true
			}
			i = end
		}
	}
	return false
}

func wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// aliasResolution is how a rerun under another name settles an error:
// a program that was missing ("python: command not found") and ran
// under its versioned name was worked around, not fixed.
func aliasResolution(e *openError, prog string) handoff.Resolution {
	if firstWord(e.prog) != firstWord(prog) && strings.Contains(strings.ToLower(e.rec.Message), "command not found") {
		return handoff.ResolutionWorkaround
	}
	return handoff.ResolutionFixed
}

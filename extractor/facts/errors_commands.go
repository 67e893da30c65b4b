package facts

import (
	"path"
	"strings"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

var segSplitRe = prose.LazyRE(rulebook.Pattern("facts.seg-split"))

// segments splits a command into its sequential parts, without those that
// only set up the environment (cd, export, source, mkdir -p, set).
func segments(cmd string) []string {
	var out []string
	for _, s := range segSplitRe.Split(cmd, -1) {
		s = strings.TrimSpace(s)
		f := strings.Fields(s)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "cd", "export", "source", ".", "set", "pushd", "popd", "mkdir", "unset", "true", "rm", "echo", "clear", "sleep", "printf":
			continue
		}
		out = append(out, s)
	}
	return out
}

// programFields is the words of the program a command runs and its
// arguments: the last segment of a chain (what the chain is for), before
// any pipe, with environment assignments and wrappers (timeout 30, sudo)
// skipped.
func programFields(cmd string) []string {
	segs := segments(NormalizeCommand(cmd))
	if len(segs) == 0 {
		return nil
	}
	seg, _, _ := strings.Cut(segs[len(segs)-1], "|")
	f := strings.Fields(seg)
	for len(f) > 0 && (strings.Contains(f[0], "=") || isWrapper(f[0])) {
		if f[0] == "timeout" && len(f) > 1 {
			f = f[1:]
		}
		f = f[1:]
	}
	return f
}

// ProgramKey is the program a command runs and what it runs on, with flags
// dropped: "gcc -I inc a.c -o a" and "gcc a.c -O2 -o a" share "gcc a.c a".
// Environment assignments and wrappers (timeout, sudo) are skipped; the
// last real segment of a chain, what the chain is for, decides.
func ProgramKey(cmd string) string {
	f := programFields(cmd)
	if len(f) == 0 {
		return ""
	}
	key := []string{path.Base(f[0])}
	if len(f) > 1 && IsWord(f[1]) {
		key = append(key, f[1])
	}
	files := 0
	for _, a := range f[1:] {
		if strings.HasPrefix(a, "-") || !(strings.Contains(a, ".") || strings.Contains(a, "/")) {
			continue
		}
		key = append(key, strings.Trim(a, `"'`))
		if files++; files == 2 {
			break
		}
	}
	return strings.Join(key, " ")
}

func isWrapper(w string) bool {
	switch w {
	case "sudo", "time", "timeout", "env", "nohup", "exec", "npx", "bunx", "uvx":
		return true
	}
	return false
}

var wordRe = prose.LazyRE(rulebook.Pattern("facts.command-word"))

// IsWord reports whether s can be a program or subcommand name (a letter,
// then letters, digits, _, : or -), not a path, flag or argument.
func IsWord(s string) bool { return wordRe.MatchString(s) }

// helpOnly reports a run that only prints help or a version, which
// proves nothing about an earlier failure.
func helpOnly(cmd string) bool {
	for _, f := range strings.Fields(cmd) {
		switch f {
		case "--help", "-h", "--version", "-V", "help":
			return true
		}
	}
	return false
}

var (
	// hookFailedRe is a commit hook's verdict line as pre-commit prints
	// it ("ruff.......Failed").
	hookFailedRe = prose.LazyRE(rulebook.Pattern("facts.hook-failed"))
	installRe    = prose.LazyRE(rulebook.Pattern("facts.install"))
)

// installPackages lists the packages an install command asks for, bare
// names in lower case ("cupy-cuda12x", "pre-commit"): the same package
// installed by pip, pipx or brew is the same need met.
func installPackages(cmd string) []string {
	var out []string
	for _, seg := range segments(NormalizeCommand(cmd)) {
		m := installRe.FindStringSubmatch(seg)
		if m == nil {
			continue
		}
		for _, a := range strings.Fields(m[1]) {
			if strings.HasPrefix(a, "-") || strings.ContainsAny(a, "|>&;") {
				continue
			}
			a = strings.ToLower(strings.Trim(a, `"'`))
			if i := strings.IndexAny(a, "=<>~[@"); i > 0 {
				a = a[:i]
			}
			a = path.Base(a)
			if a != "" && a != "." {
				out = append(out, a)
			}
		}
	}
	return out
}

// principalArgs are what a command works on: the paths and URLs of its
// last real segment, without the values of flags ("wget -P /tmp URL"
// works on URL), so a retry with other flags is the same attempt.
func principalArgs(cmd string) []string {
	segs := segments(NormalizeCommand(cmd))
	if len(segs) == 0 {
		return nil
	}
	f := strings.Fields(splitUnquoted(segs[len(segs)-1], '|')[0])
	var out []string
	for i := 1; i < len(f); i++ {
		a := strings.Trim(f[i], `"'`)
		if strings.HasPrefix(a, "-") {
			if !strings.Contains(a, "=") && len(a) == 2 && i+1 < len(f) && !strings.HasPrefix(f[i+1], "-") && !strings.Contains(f[i+1], "://") {
				i++ // a short flag's value (-P /tmp, -o out)
			}
			continue
		}
		if strings.Contains(a, "://") || strings.Contains(a, "/") || strings.Contains(a, ".") {
			out = append(out, a)
		}
	}
	return out
}

// programHead is a programKey's program and subcommand.
func programHead(key string) string {
	f := strings.Fields(key)
	if len(f) > 1 && IsWord(f[1]) {
		return f[0] + " " + f[1]
	}
	if len(f) > 0 {
		return f[0]
	}
	return ""
}

func subset(small, big []string) bool {
	for _, s := range small {
		found := false
		for _, b := range big {
			if s == b {
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

func sharesItem(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(s, " ")
	return w
}

func sharesFile(files, bases []string) bool {
	for _, f := range files {
		for _, b := range bases {
			if f == b {
				return true
			}
		}
	}
	return false
}

func mentionsAny(cmd string, files []string) bool {
	for _, f := range files {
		if strings.Contains(cmd, f) {
			return true
		}
	}
	return false
}

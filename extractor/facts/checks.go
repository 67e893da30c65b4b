package facts

import (
	"path"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// A check is a command that verifies the project without running its
// tests: a build, a type check, a linter, a syntax check, a dry run. Test
// runners are TestState's; everything here is recognised by the shape of
// the command alone, so it works for any agent and any language.

// checkLog keeps the newest result of each distinct check (program and
// target), in the order of their newest runs.
type checkLog struct {
	list  []handoff.CheckState
	at    []int // codeEdits when each entry's newest run finished
	byKey map[string]int
	keys  []string
}

func newCheckLog() *checkLog { return &checkLog{byKey: map[string]int{}} }

// observe records a shell call's result when the command is a check. A
// test command is never a check (TestState has it), even when it builds
// first ("make && ./tests/run"). The call's memo says whether it is one,
// made once per command.
func (l *checkLog) observe(call *CallInfo, r handoff.ToolResult, fail bool, m handoff.Message, codeEdits int) {
	if call.testCommand() {
		return
	}
	command := call.Command
	seg, kind, trailing, ok := checkSegmentOf(call.normalized())
	if !ok {
		return
	}
	key := checkKey(seg)
	cs := handoff.CheckState{Command: strings.TrimSpace(command), Kind: kind, Source: m.Ref(), Line: m.Line}
	cs.Status, cs.Summary = CheckOutcome(r, fail, trailing)
	i, seen := l.byKey[key]
	if seen {
		prev := l.list[i]
		cs.PassedBefore = prev.PassedBefore || prev.Status == handoff.TestsPassing
		if cs.Status == handoff.TestsFailing && prev.Status == handoff.TestsFailing {
			cs.Failures = prev.Failures
		}
		// Move the check to the end: the list is in order of newest runs.
		l.list = append(l.list[:i], l.list[i+1:]...)
		l.at = append(l.at[:i], l.at[i+1:]...)
		l.keys = append(l.keys[:i], l.keys[i+1:]...)
		for j := i; j < len(l.keys); j++ {
			l.byKey[l.keys[j]] = j
		}
	}
	if cs.Status == handoff.TestsFailing {
		cs.Failures++
	}
	l.byKey[key] = len(l.list)
	l.list = append(l.list, cs)
	l.at = append(l.at, codeEdits)
	l.keys = append(l.keys, key)
}

// states returns the checks, newest run last, each with the code edits
// made after it.
func (l *checkLog) states(codeEdits int) []handoff.CheckState {
	if len(l.list) == 0 {
		return nil
	}
	out := make([]handoff.CheckState, len(l.list))
	for i, c := range l.list {
		c.EditsAfter = codeEdits - l.at[i]
		out[i] = c
	}
	return out
}

// probeProgs are programs that only read or filter what a check wrote:
// a chain's failure after them is theirs as much as the check's (a grep
// that matched nothing exits 1).
var probeProgs = rulebook.WordSet("facts.probe-programs")

// CheckSegment finds the last segment of a chain that is a check: what it
// is (kind), and whether other commands run after it (trailing), which
// makes the chain's exit status not the check's own.
func CheckSegment(command string) (seg, kind string, trailing, ok bool) {
	return checkSegmentOf(NormalizeCommand(command))
}

// checkSegmentOf is CheckSegment of a command already normalised, which a
// call's memo holds (the error log normalises the same command).
func checkSegmentOf(normalized string) (seg, kind string, trailing, ok bool) {
	segs := segments(normalized)
	for i := len(segs) - 1; i >= 0; i-- {
		head, _, _ := strings.Cut(segs[i], "|")
		if k := checkKind(head); k != "" {
			return head, k, i < len(segs)-1, true
		}
	}
	return "", "", false, false
}

// checkKey is what makes two runs the same check: the program, its
// subcommand words and targets, with flags and redirections dropped
// ("pdflatex -interaction=nonstopmode paper.tex > log" and "pdflatex
// paper.tex" are one check, and so is "pdflatex src/paper.tex"; "npm run
// build" and "npm run lint" are two).
func checkKey(seg string) string {
	f := checkFields(seg)
	if len(f) == 0 {
		return ""
	}
	key := []string{path.Base(f[0])}
	for _, a := range f[1:] {
		if strings.HasPrefix(a, "-") || strings.Contains(a, "$(") {
			continue
		}
		// A file target by its name: "pdflatex src/paper.tex" and, after
		// `cd src`, "pdflatex paper.tex" build the same document.
		key = append(key, path.Base(strings.Trim(a, `"'`)))
		if len(key) == 4 {
			break
		}
	}
	return strings.Join(key, " ")
}

// CheckKey returns the key that makes two commands the same check, "" when
// the command is not a check: for matching a failed command against a
// later run of the same build.
func CheckKey(command string) string {
	if IsTestCommand(command) {
		return ""
	}
	seg, _, _, ok := CheckSegment(command)
	if !ok {
		return ""
	}
	return checkKey(seg)
}

var (
	// CheckErrorRe is a line in which a build, compiler, linter or
	// typesetter reports an error, in the forms the common tools print.
	CheckErrorRe = prose.ScreenedLines(rulebook.Pattern("facts.check-error"), 1,
		// Each alternative needs one of these, lower-cased: "err" in error,
		// [ERROR], ERROR: and npm ERR!; the build failures; make's ": ***";
		// "! " and "⨯ " (the LaTeX and Next.js error lines); FATAL:. None
		// holds a k or an s, the letters (?i) also matches with non-ASCII
		// runes (K, ſ), so ASCII lower-casing finds every fold. A match
		// spans at most three non-blank lines, with \s* between: "file:1:",
		// "error" (which holds "err") and ": msg", so one either side of
		// the line with the text.
		[]string{"err", "failed to compile", "build fail", "compilation terminated", ": ***", "! ", "⨯ ", "fatal:"})
	// checkPassRe is a line in which a build or check says it finished
	// well.
	checkPassRe = prose.LazyRE(rulebook.Pattern("facts.check-pass"))
	fileTokenRe = prose.LazyRE(rulebook.Pattern("facts.pass-line-file"))
)

// CheckOutcome reads a check's status and the line that says so. A chain
// that goes on after the check (trailing) fails for its own reasons too
// (a grep that matched nothing), so its failure alone is "unknown"; a
// check piped into tail or head exits 0 whatever it did, so an error line
// in the output counts even when the call succeeded, and so does a line
// that says in words that something failed (failureWordLine).
func CheckOutcome(r handoff.ToolResult, fail, trailing bool) (handoff.TestStatus, string) {
	out := r.Content
	if _, body, ok := specStoryShell(out); ok {
		out = body
	}
	if fail && bareFailure(r, out) {
		return handoff.TestsUnknown, ""
	}
	errLine := strings.TrimSpace(CheckErrorRe.FindString(out))
	// A line that says in words that it failed ("unhealthy", "❌ 5
	// TEST(S) FAILED") fails the run whatever its exit status, and heads
	// it when no tool's error line does.
	worded := ""
	if errLine == "" {
		worded = failureWordLine(out)
	}
	switch {
	case errLine != "" && (fail || !trailing):
		return handoff.TestsFailing, prose.Truncate(errLine, 200)
	case worded != "":
		return handoff.TestsFailing, worded
	case fail && passLine(out) != "":
		// A non-zero exit with no error line after a success line
		// (pdflatex writes the PDF and still exits 1): not proven either
		// way, and the line says what it made.
		return handoff.TestsUnknown, passLine(out)
	case fail && !trailing:
		// The last line, when it says more than a bare "Error" or exit code.
		l := lastLine(out)
		if len(l) < 16 || strings.HasPrefix(l, "Exit code") {
			l = ""
		}
		return handoff.TestsFailing, prose.Truncate(l, 200)
	case fail:
		return handoff.TestsUnknown, ""
	case errLine != "":
		return handoff.TestsFailing, prose.Truncate(errLine, 200)
	}
	return handoff.TestsPassing, passLine(out)
}

// passLine is the line of a passing check's output that says what it
// made: the last success line, preferring one that names a file
// ("Output written on paper.pdf (25 pages)", "Linking C shared library
// libx.so") over a bare "Built target x".
func passLine(out string) string {
	var best, named string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || !checkPassRe.MatchString(l) {
			continue
		}
		best = l
		if fileTokenRe.MatchString(l) {
			named = l
		}
	}
	if named != "" {
		best = named
	}
	return prose.Truncate(best, 200)
}

// lastLine is the last non-empty line of out.
func lastLine(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// bareFailure is a failed call whose result shows nothing of the command:
// no exit code and no output but "Error". The harness failed to run it
// (a shell left in a deleted directory, a sandbox), so whether the build
// or the tests would pass is unknown, not "failing".
func bareFailure(r handoff.ToolResult, out string) bool {
	if _, known := ExitCode(r); known {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(out)) {
	case "", "error", "error.":
		return true
	}
	return false
}

package facts

import (
	"path"
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
)

// Failures that are not problems for a successor are not recorded as
// errors; Facts.Ignored counts them by kind:
//
//   - ignoreNoMatch: a search (grep, rg, find, …) that found nothing;
//   - ignoreProbe: a check whose failure is its answer (which, command -v,
//     test -f, [ -e, ls or a read of a missing path, --version, git diff
//     --exit-code);
//   - ignoreRejected: the person declined or interrupted the tool call;
//   - ignoreHarness: the harness refusing a call on procedure ("File has
//     not been read yet", "old_string and new_string are the same", a
//     `cd` outside the allowed directories that it blocked), or failing
//     itself: a compaction or a model API request that failed or was
//     aborted is the harness's trouble, not the project's;
//   - ignoreRunning: a process the harness stopped waiting for while it
//     was still running (a server left serving, "no new output after N
//     seconds"): it did not fail, it was left running.
const (
	IgnoreNoMatch  = "no_match"
	IgnoreProbe    = "probe"
	IgnoreRejected = "rejected"
	IgnoreHarness  = "harness"
	ignoreRunning  = "running"
)

// IgnoredKind says why a failure is not an error for a successor, or ""
// when it is one.
func IgnoredKind(call *CallInfo, content string) string {
	return IgnoredResult(call, handoff.ToolResult{Content: content})
}

// IgnoredResult is ignoredKind with the result's exit code, which tells a
// process left running (-1) from one that failed.
func IgnoredResult(call *CallInfo, r handoff.ToolResult) string {
	content := r.Content
	if kind := harnessVerdict(content); kind != "" {
		return kind
	}
	body := OutputBody(content)
	// A look that found nothing, whatever shape the command had; a
	// single probe program is judged more finely below.
	looked := ""
	if probesMissing(call, content, body) {
		looked = IgnoreNoMatch
	}
	if call == nil {
		return looked
	}
	if code, ok := ExitCode(r); ok && code == -1 && RunningRe.MatchString(prose.HeadOf(content, 4000)) {
		return ignoreRunning
	}
	if !call.Shell() {
		// A read of a missing file is a probe too.
		if missingRead(call, body) {
			return IgnoreProbe
		}
		return looked
	}
	segs := segments(NormalizeCommand(call.Command))
	if noMatchLast(segs, r, body) {
		return IgnoreNoMatch
	}
	if len(segs) != 1 {
		return looked
	}
	if kind := probeVerdict(segs[0], body); kind != "" {
		return kind
	}
	return looked
}

// probeVerdict judges a failed command of one segment by its programs: a
// search at the end of the pipeline that found nothing, or a probe at its
// start (which, test, ls of a missing path, git diff --exit-code, a
// --version). "" leaves the verdict to the caller.
func probeVerdict(seg string, body []string) string {
	pipeline := splitUnquoted(seg, '|')
	last := strings.Fields(pipeline[len(pipeline)-1])
	first := strings.Fields(pipeline[0])
	if len(first) == 0 || len(last) == 0 {
		return ""
	}
	allMissing := len(body) > 0 && !slices.ContainsFunc(body, func(l string) bool { return !MissingPathRe.MatchString(l) })
	if searchFoundNothing(last, body, allMissing) {
		return IgnoreNoMatch
	}
	if probeProgram(first[0], seg, allMissing) || versionProbe(first) {
		return IgnoreProbe
	}
	return ""
}

// searchFoundNothing reports a search program (grep, rg, find, git grep)
// that printed nothing, or only that its paths are missing.
func searchFoundNothing(last, body []string, allMissing bool) bool {
	switch prog := path.Base(last[0]); prog {
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "find", "fd", "git":
		if prog == "git" && (len(last) < 2 || last[1] != "grep") {
			return false
		}
		return len(body) == 0 || allMissing
	}
	return false
}

// probeProgram reports a program whose failure is its answer: a lookup
// (which, test, stat), a read of paths that are missing, a git or diff
// run that only asks whether there is a difference.
func probeProgram(prog, seg string, allMissing bool) bool {
	switch path.Base(prog) {
	case "which", "type", "test", "[", "[[", "pgrep", "cmp", "stat", "file", "command", "hash":
		return true
	case "ls", "cat", "head", "tail", "sed", "nl", "wc", "less", "tree":
		return allMissing
	case "git":
		return strings.Contains(seg, "--exit-code") || strings.Contains(seg, "--quiet") || strings.Contains(seg, "--verify")
	case "diff":
		return strings.Contains(seg, " -q")
	}
	return false
}

// versionProbe reports a run that only asks a program's version ("node
// --version", "python -m pip --version").
func versionProbe(first []string) bool {
	if len(first) == 2 && (first[1] == "--version" || first[1] == "-v" || first[1] == "-V" || first[1] == "version") {
		return true
	}
	return len(first) == 4 && first[1] == "-m" && (first[3] == "--version" || first[3] == "-V")
}

// harnessVerdict is ignoreRejected when the person declined the call,
// ignoreHarness when the harness refused it or failed itself, "" else.
func harnessVerdict(content string) string {
	head := strings.TrimSpace(prose.HeadOf(content, 2000))
	head = strings.TrimPrefix(head, "Error: ")
	if RejectedRe.MatchString(head) {
		return IgnoreRejected
	}
	if HarnessRe.MatchString(head) || HarnessAPIRe.MatchString(head) {
		return IgnoreHarness
	}
	return ""
}

// missingRead reports a read tool's short answer that its file does not
// exist.
func missingRead(call *CallInfo, body []string) bool {
	return len(body) <= 2 && strings.Contains(strings.ToLower(strings.Join(body, " ")), "does not exist") &&
		strings.HasPrefix(strings.ToLower(call.Name), "read")
}

// noMatchLast reports a chain whose last stage is a search (grep, rg,
// git grep) that printed nothing and exited 1: grep's "no line matched",
// which is the answer the chain asked for (`make … && grep undefined
// log`: no undefined references), not a failure. Exit 2 and up is a
// search error; a chain of one segment is judged by ignoredResult.
func noMatchLast(segs []string, r handoff.ToolResult, body []string) bool {
	if len(segs) < 2 || len(body) > 0 {
		return false
	}
	if code, ok := ExitCode(r); ok && code != 1 {
		return false
	}
	pipeline := splitUnquoted(segs[len(segs)-1], '|')
	last := strings.Fields(pipeline[len(pipeline)-1])
	if len(last) == 0 {
		return false
	}
	switch path.Base(last[0]) {
	case "grep", "egrep", "fgrep", "rg":
		return true
	case "git":
		return len(last) > 1 && last[1] == "grep"
	}
	return false
}

// splitUnquoted splits s at sep where sep is outside quotes, so the
// alternation in `rg "a|b" dir` is not read as a pipe.
func splitUnquoted(s string, sep byte) []string {
	var out []string
	var quote byte
	start := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '\\':
			i++
		case c == sep:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// probesMissing reports output that only says that paths a search or
// read-only tool was given do not exist, apart from text the command
// echoes itself: a look that found nothing, in any number of segments.
func probesMissing(call *CallInfo, content string, body []string) bool {
	cmd := ""
	if call != nil {
		cmd = call.Command
	}
	if c, _, ok := specStoryShell(content); ok {
		cmd = c
	}
	missing := 0
	for _, l := range body {
		switch {
		case probeWarnRe.MatchString(l) && MissingPathRe.MatchString(l):
			missing++
		case cmd != "" && strings.Contains(cmd, l):
		default:
			return false
		}
	}
	return missing > 0
}

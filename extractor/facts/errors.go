package facts

import (
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

var (
	ExitHeaderRe = prose.Gated(rulebook.Pattern("facts.exit-header"))
	// ContentFailRe recognises failure text where the format gives no
	// exit flag: launch and sandbox failures, rejected patches, Python
	// tracebacks, missing commands, compiler errors, failing tests, and a
	// process that crashed (glibc's heap checks, a signal's core dump)
	// behind a pipe that hid its exit status.
	ContentFailRe = prose.Gated(rulebook.Pattern("facts.content-fail"))
	RejectedRe    = prose.Gated(rulebook.Pattern("facts.rejected"))
	HarnessRe     = prose.Gated(rulebook.Pattern("facts.harness"))
	// HarnessAPIRe is the harness's own failure, answering a slash
	// command or a call: its compaction or its model request failed.
	HarnessAPIRe = prose.Gated(rulebook.Pattern("facts.harness-api"))
	// RunningRe is output of a process that is still up when the harness
	// stops waiting: a server announcing where it listens, or the
	// harness's own note that the command went quiet.
	RunningRe = prose.Gated(rulebook.Pattern("facts.running"))
	// probeWarnRe is a search or read-only tool's own complaint about a
	// path it was given ("grep: x: No such file or directory", "ugrep:
	// warning: …", "wc: x: open: …").
	probeWarnRe   = prose.LazyRE(rulebook.Pattern("facts.probe-warn"))
	MissingPathRe = prose.Gated(rulebook.Pattern("facts.missing-path"))
	WrapperLineRe = prose.Gated(rulebook.Pattern("facts.wrapper-line"))
)

// ExitCode returns the result's exit code: the format's own, else the one
// a Codex header states.
func ExitCode(r handoff.ToolResult) (int, bool) {
	if r.ExitCode != nil {
		return *r.ExitCode, true
	}
	// Most results name no exit code: the gate's substring search
	// answers for them without the regexp.
	if head := prose.HeadOf(r.Content, 600); ExitHeaderRe.MayMatch(head) {
		if m := ExitHeaderRe.FindStringSubmatch(head); m != nil {
			n, err := strconv.Atoi(m[1])
			return n, err == nil
		}
	}
	return 0, false
}

// Failed judges a result: the format's error flag or exit code when it has
// one, the content's shape when it has none.
func Failed(r handoff.ToolResult) bool {
	if r.IsError {
		return true
	}
	if code, ok := ExitCode(r); ok {
		return code != 0
	}
	return ContentFailRe.MatchString(r.Content)
}

// OutputBody is a result's text without wrapper headers and blank lines.
//
// A bare "Error" is how Claude Code reports a non-zero exit that printed
// nothing, so it is no output at all.
func OutputBody(content string) []string {
	if _, out, ok := specStoryShell(content); ok {
		content = out
	}
	content = strings.TrimPrefix(strings.TrimSpace(content), "Error: ")
	if content == "Error" {
		return nil
	}
	var lines []string
	wrappers := WrapperLineRe.MayMatch(content) // else no line is one
	for _, l := range strings.Split(content, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || (wrappers && WrapperLineRe.MatchString(l)) {
			continue
		}
		lines = append(lines, l)
	}
	return lines
}

var toolErrTagRe = prose.LazyRE(rulebook.Pattern("facts.tool-err-tag"))

var (
	BuildErrorRe = prose.Gated(rulebook.Pattern("facts.build-error"))
	buildCmdRe   = prose.LazyRE(rulebook.Pattern("facts.build-cmd"))
	testFailRe   = prose.LazyRE(rulebook.Pattern("facts.test-fail"))
)

// classifyError names the class of a failure from the command and output.
func classifyError(call *CallInfo, content string) string {
	shell := call.Shell()
	command := ""
	if call != nil {
		command = call.Command
	}
	switch {
	case shell && IsTestCommand(command):
		return "test_failure"
	case testFailRe.MatchString(content):
		return "test_failure"
	case BuildErrorRe.MatchString(content) || (shell && buildCmdRe.MatchString(NormalizeCommand(command))):
		return "build_error"
	case shell:
		return "command_failed"
	}
	return "tool_error"
}

var (
	fenceRe = prose.LazyRE(rulebook.Pattern("text.fence-block"))
)

// firstSentences returns the first n sentences of prose, code removed.
func firstSentences(text string, n int) string {
	var out []string
	for _, s := range prose.ProseSentences(fenceRe.ReplaceAllString(text, " ")) {
		s = strings.TrimSpace(strings.TrimLeft(s, "#*->• "))
		if len(s) < 12 || !strings.Contains(s, " ") {
			continue
		}
		out = append(out, s)
		if len(out) == n {
			break
		}
	}
	return strings.Join(out, " ")
}

// lastSentences returns the last n sentences of prose, code removed: what
// the assistant said it was about to do.
func lastSentences(text string, n int) string {
	all := prose.ProseSentences(fenceRe.ReplaceAllString(text, " "))
	var out []string
	for i := len(all) - 1; i >= 0 && len(out) < n; i-- {
		if s := strings.TrimSpace(strings.TrimLeft(all[i], "#*->• ")); len(s) >= 12 && strings.Contains(s, " ") {
			out = append([]string{s}, out...)
		}
	}
	return prose.Truncate(strings.Join(out, " "), errorContextLimit)
}

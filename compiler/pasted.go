package compiler

import (
	"strings"

	"github.com/handoff-cli/handoff/internal/lazyre"
)

var (
	// logLineRe is a line of tool output rather than prose: a bullet or
	// status mark a tool prints, a timestamp, a log level, a path, a
	// runner's step header.
	logLineRe = lazyre.New(`^\s*(?:[•⨯✗✓✔›»$]|\d{1,4}[-:/.]\d|\[?\d{1,2}:\d{2}|\[?(?:INFO|WARN(?:ING)?|ERROR|DEBUG|TRACE)\b|/[\w.-]+/|(?:Run|Downloading|Extracting|Installing|Building|Compiling|Finished|Running)\b|at \S+\(|\w[\w .-]{0,30}:\s|::)`)
	// logKeyRe is a log line worth keeping: what failed and why.
	logKeyRe = lazyre.New(`(?i)⨯|✗|\berror\b|\bfail(?:ed|ure|s)?\b|\bfatal\b|\bpanic\b|\bexception\b|\bdenied\b|\bnot found\b|\bunsupported\b|\bare supported\b|\bexit (?:code|status) [1-9]`)
)

// Limits on a pasted log's digest.
const (
	pastedMinLines = 6
	pastedKeyLines = 4
)

// pastedLog returns the digest of a message of the person's that is
// mostly pasted tool output (a CI log, a stack trace): its first line and
// the lines that say what failed, in order, marked as a paste. A log's
// download and setup lines would otherwise fill the quote before the one
// line that matters. ok is false for a message that is not a log.
func pastedLog(text string) (digest string, ok bool) {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) < pastedMinLines {
		return "", false
	}
	logLike := 0
	for _, l := range lines {
		if logLineRe.MatchString(l) {
			logLike++
		}
	}
	if 2*logLike < len(lines) {
		return "", false
	}
	keep := []string{lines[0]}
	for _, l := range lines[1:] {
		if len(keep) > pastedKeyLines {
			break
		}
		if logKeyRe.MatchString(l) {
			keep = append(keep, l)
		}
	}
	if len(keep) == 1 {
		return "", false // no line says what went wrong: quote it as it is
	}
	return strings.Join(keep, "\n"), true
}

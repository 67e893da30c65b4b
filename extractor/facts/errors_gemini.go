package facts

import (
	"strings"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// Gemini CLI's shell tool frames a command's output with a header and a
// footer of labelled lines:
//
//	Command: <the command>
//	Directory: (root)
//	Output: <first line of output>
//	…
//	Error: (none)
//	Exit Code: 0
//	Signal: (none)
//	Background PIDs: (none)
//	Process Group PGID: 40021
//
// The frame is the harness's, not the program's: "Error: (none)" says
// there was no error, and the echoed command is not output. Read as
// output, the footer's "Error:" scores as a failure headline on every
// Gemini shell result.
var (
	gemFooterRe = prose.LazyRE(rulebook.Pattern("facts.gem-footer"))
	gemHeaderRe = prose.LazyRE(rulebook.Pattern("facts.gem-header"))
	gemOutputRe = prose.LazyRE(rulebook.Pattern("facts.gem-output"))
)

// GemShellFramed reports content in the Gemini shell frame: it opens
// with the echoed command and closes with the process footer.
func GemShellFramed(content string) bool {
	return strings.HasPrefix(content, "Command: ") &&
		(strings.Contains(content, "\nProcess Group PGID: ") || strings.Contains(content, "\nExit Code: ") || strings.Contains(content, "\nError: (none)"))
}

// GemShellLines drops the Gemini shell frame from lines (trimmed output
// lines of a framed result): the header lines, the footer's empty
// fields, and the "Output:" label in front of the first output line. A
// footer "Error: <text>" that is not (none) stays: it is the error.
func GemShellLines(lines []string) []string {
	out := lines[:0]
	header := true
	for _, l := range lines {
		if header && gemHeaderRe.MatchString(l) {
			continue
		}
		header = false
		if gemFooterRe.MatchString(l) {
			continue
		}
		if gemOutputRe.MatchString(l) {
			l = strings.TrimSpace(l[strings.IndexByte(l, ':')+1:])
			if l == "" {
				continue
			}
		}
		out = append(out, l)
	}
	return out
}

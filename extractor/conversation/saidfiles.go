package conversation

import (
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// maxReportedFiles bounds the files kept from the reports: the compiler
// names a few, newest first.
const maxReportedFiles = 12

var (
	changeLineRe  = prose.LazyRE(rulebook.Pattern("conversation.change-line"))
	checkResultRe = prose.LazyRE(rulebook.Pattern("conversation.check-result-line"))
	testWordRe    = prose.LazyRE(rulebook.Pattern("conversation.test-word"))
	fileNameRe    = prose.LazyRE(rulebook.Pattern("facts.file-ref"))
)

// reportedFiles is conversation.said-files: for a transcript that records
// no tool calls, the files the assistant's messages name in a line saying
// they were changed (not in one about what is next). Each file stands at
// its newest mention, so the last is the one spoken of last; code blocks
// are left out (a listing names files it does not change).
func reportedFiles(main []handoff.Message) []string {
	var files []string
	for _, m := range main {
		if m.Role != handoff.RoleAssistant || m.Sidechain || m.Text == "" {
			continue
		}
		for _, line := range strings.Split(facts.StripCode(facts.WithoutThinking(m.Text)), "\n") {
			if !changeLineRe.MatchString(line) || nextLineRe.MatchString(line) {
				continue
			}
			for _, name := range fileNameRe.FindAllString(line, -1) {
				if strings.Contains(name, "//") {
					continue // a URL's path, not a file of the project
				}
				files = slices.DeleteFunc(files, func(f string) bool { return f == name })
				files = append(files, name)
			}
		}
	}
	if len(files) > maxReportedFiles {
		files = files[len(files)-maxReportedFiles:]
	}
	return files
}

// reportedChecks is conversation.said-checks: for a transcript that
// records no tool calls, the newest line stating a test result and the
// newest stating a build result in the assistant's messages before its
// last (which the prompt quotes), newest first, cleaned of markup. Code
// blocks are left out: a listing of a command is not its result.
func reportedChecks(main []handoff.Message, last int) []string {
	var out []string
	var test, build bool
	for i := min(last, len(main)) - 1; i >= 0 && !(test && build); i-- {
		m := main[i]
		if m.Role != handoff.RoleAssistant || m.Sidechain || m.Text == "" {
			continue
		}
		lines := strings.Split(facts.StripCode(facts.WithoutThinking(m.Text)), "\n")
		for j := len(lines) - 1; j >= 0; j-- {
			line := reportLine(lines[j])
			if line == "" || !checkResultRe.MatchString(line) || nextLineRe.MatchString(line) {
				continue
			}
			isTest := testWordRe.MatchString(line)
			if (isTest && test) || (!isTest && build) {
				continue
			}
			test, build = test || isTest, build || !isTest
			out = append(out, prose.ClipSentences(line, keyLineLimit))
		}
	}
	return out
}

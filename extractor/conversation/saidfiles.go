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
	changeLineRe = prose.LazyRE(rulebook.Pattern("conversation.change-line"))
	fileNameRe   = prose.LazyRE(rulebook.Pattern("facts.file-ref"))
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

package extractor

import (
	"strings"

	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// errorContext is the last line the assistant said before a failing call.
func errorContext(said string) string {
	said = stripCode(said)
	lines := strings.Split(said, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := cleanLine(lines[i]); l != "" {
			return truncate(l, contextLimit)
		}
	}
	return ""
}

// stripCode removes fenced code blocks and pasted commands with their
// output ("$ cmd" and the lines under it up to a blank line): code is not
// a statement of intent, and output is not the speaker's words.
func stripCode(text string) string {
	if !strings.Contains(text, "```") && !strings.Contains(text, "$ ") {
		return text
	}
	var b strings.Builder
	inFence, output := false, false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence, output = !inFence, false
			continue
		}
		if inFence {
			continue
		}
		if strings.TrimSpace(line) == "" {
			output = false
		} else if output || groundPromptRe.MatchString(line) {
			output = true
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// firstSentence returns the first sentence of text that says something:
// six words or more, joined to the short ones before it ("Yes. I ran
// them …").
func firstSentence(text string) string {
	var out []string
	for _, s := range splitSentences(withoutMarkup(stripCode(text))) {
		out = append(out, strings.TrimSpace(s))
		if len(strings.Fields(s)) >= 6 || len(out) == 3 {
			break
		}
	}
	return strings.Join(out, " ")
}

var (
	// groundPromptRe is a pasted shell command line.
	groundPromptRe = lazyRE(rulebook.Pattern("facts.ground-prompt"))
	// groundFenceRe is a code fence line and its info string.
	groundFenceRe = lazyRE(rulebook.Pattern("text.fence-line"))
	// groundQuoteRe is a quoted span: “…”, "…" or `…`.
	groundQuoteRe = lazyRE(rulebook.Pattern("text.ground-quote"))
)

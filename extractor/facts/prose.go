package facts

import (
	"strings"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// ErrorContext is the last line the assistant said before a failing call.
func ErrorContext(said string) string {
	said = StripCode(said)
	lines := strings.Split(said, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := prose.CleanLine(lines[i]); l != "" {
			return prose.Truncate(l, prose.ContextLimit)
		}
	}
	return ""
}

// StripCode removes fenced code blocks and pasted commands with their
// output ("$ cmd" and the lines under it up to a blank line): code is not
// a statement of intent, and output is not the speaker's words.
func StripCode(text string) string {
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
		} else if output || GroundPromptRe.MatchString(line) {
			output = true
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// FirstSentence returns the first sentence of text that says something:
// six words or more, joined to the short ones before it ("Yes. I ran
// them …").
func FirstSentence(text string) string {
	var out []string
	for _, s := range prose.SplitSentences(prose.WithoutMarkup(StripCode(text))) {
		out = append(out, strings.TrimSpace(s))
		if len(strings.Fields(s)) >= 6 || len(out) == 3 {
			break
		}
	}
	return strings.Join(out, " ")
}

var (
	// GroundPromptRe is a pasted shell command line.
	GroundPromptRe = prose.LazyRE(rulebook.Pattern("facts.ground-prompt"))
	// GroundFenceRe is a code fence line and its info string.
	GroundFenceRe = prose.LazyRE(rulebook.Pattern("text.fence-line"))
	// GroundQuoteRe is a quoted span: “…”, "…" or `…`.
	GroundQuoteRe = prose.LazyRE(rulebook.Pattern("text.ground-quote"))
)

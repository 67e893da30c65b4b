package conversation

import (
	"strings"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// placeholderRe is a harness's stand-in for content it did not keep: an
// attachment ("[image]", "[Image #1]"), a trimmed or elided part.
var placeholderRe = prose.LazyRE(rulebook.Pattern("conversation.placeholder"))

// PlaceholderOnly reports a message that is only placeholders (an image
// pasted without words, content a fixture trimmed): it asks for nothing
// a successor can read.
func PlaceholderOnly(s string) bool {
	if !strings.HasPrefix(strings.TrimSpace(s), "[") {
		return false
	}
	rest := placeholderRe.ReplaceAllString(s, "")
	return strings.TrimSpace(rest) == ""
}

// commandWordRe is a slash command as a word of its own: "/hi", "/review",
// not a path ("/usr/bin", "src/x") nor a fraction.
var commandWordRe = prose.LazyRE(rulebook.Pattern("conversation.command-word"))

// InvokesCommand reports a short message that only runs a slash command
// in words ("Execute /hi", "run /deploy please"): at most three words, one
// of them the command. It asks for what the command does, which the
// session's next turn shows, not for work of its own.
func InvokesCommand(s string) bool {
	fields := strings.Fields(strings.TrimSpace(s))
	if len(fields) == 0 || len(fields) > 3 {
		return false
	}
	for _, f := range fields {
		if commandWordRe.MatchString(strings.TrimRight(f, ".!,")) {
			return true
		}
	}
	return false
}

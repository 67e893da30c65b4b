package compiler

import (
	"strings"

	"github.com/handoff-cli/handoff/internal/lazyre"
)

// Slash commands as the person types them: a command word of its own
// ("/hi", "/review", not a path such as "/usr/bin"), and the commands
// whose arguments are a request in words (Aider's /ask, /code, …).
var (
	commandWordRe    = lazyre.New(`^/[a-z][\w:-]*$`)
	commandStartRe   = lazyre.New(`^/[a-z][\w:-]*\b`)
	requestCommandRe = lazyre.New(`^/(?:ask|code|architect|plan|agent)\s+`)
)

// commandOnly reports a message that only runs a slash command: the
// command with under three words of arguments ("/clear", "/model opus"),
// or a few words around one ("Execute /hi"). It asks for what the command
// does, which the turns after it show; as an earlier request it spent a
// line saying nothing a successor can act on. The extractor judges
// requests the same way (extractor.isCommandOnly); this is the
// compiler's copy, as the extractor keeps such messages in the record.
func commandOnly(s string) bool {
	s = strings.TrimSpace(s)
	if loc := commandStartRe.FindStringIndex(s); loc != nil && !requestCommandRe.MatchString(s) {
		return len(strings.Fields(s[loc[1]:])) < 3
	}
	fields := strings.Fields(s)
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

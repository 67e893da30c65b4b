package conversation

import (
	"strings"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// instructionFileRe names the project instruction files harnesses inject
// into a session (Codex's "# AGENTS.md instructions for …", Claude Code's
// CLAUDE.md, Gemini CLI's GEMINI.md, Aider's CONVENTIONS.md, Cursor's
// rules, Copilot's instructions).
var instructionFileRe = prose.LazyRE(rulebook.Pattern("conversation.instruction-file"))

// maxPointedRules bounds the rules taken from one instructions file.
const maxPointedRules = 6

// pointedRules returns, as a rule list sourced at the injected message
// that carries it, the rules of each instructions file the person's own
// messages name ("Remember the migration rules in AGENTS.md"). Such a
// file is harness text, never the person's words, and most of it is
// boilerplate; but once the person points at it, its rules are theirs,
// and a successor that never saw the file would break them. A file nobody
// names stays out: its rules are the harness's to re-inject.
func pointedRules(main []handoff.Message, reqs []handoff.Request) []handoff.Request {
	named := map[string]bool{}
	for _, r := range reqs {
		for _, n := range instructionFileRe.FindAllString(r.Text, -1) {
			named[strings.ToUpper(n)] = true
		}
	}
	if len(named) == 0 {
		return nil
	}
	var out []handoff.Request
	for _, m := range main {
		if m.Role != handoff.RoleUser || !m.Meta {
			continue
		}
		head, _, _ := strings.Cut(strings.TrimSpace(m.Text), "\n")
		file := instructionFileRe.FindString(head)
		if file == "" || !named[strings.ToUpper(file)] {
			continue
		}
		named[strings.ToUpper(file)] = false // the first copy; re-injections repeat it
		var rules []string
		for _, line := range strings.Split(m.Text, "\n") {
			// Only list items: a file's paragraphs explain, its bullets rule.
			if !ListItem(strings.TrimSpace(line)) {
				continue
			}
			l := prose.CleanLine(line)
			if utf8.RuneCountInString(l) > ConstraintLimit || CodeLine(l) || !IsConstraint(l) {
				continue
			}
			rules = append(rules, file+": "+l)
			if len(rules) == maxPointedRules {
				break
			}
		}
		if len(rules) > 0 {
			out = append(out, handoff.Request{Text: "Constraints:\n- " + strings.Join(rules, "\n- "), Source: m.Ref(), Line: m.Line, Timestamp: m.Timestamp})
		}
	}
	return out
}

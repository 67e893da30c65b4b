package transcript

import (
	"strings"

	"github.com/handoff-cli/handoff"
)

// Cursor's "Export chat" writes markdown: "# <title>", a line
// "_Exported on <date> at <time> from Cursor (<version>)_", then turns
// separated by "---" rules, each opened by "**User**" or "**Cursor**" on
// its own line (seen in exports from Cursor 1.0 to 1.7). The export keeps
// what was said and the code the assistant showed, not its tool calls,
// so there are none to read; "**User**" turns are the person's,
// "**Cursor**" turns the assistant's.

var (
	cursorExportRe  = lazyRE(`(?m)^_Exported on .* from Cursor \(([\d.]+)\)_\s*$`)
	cursorTitleRe   = lazyRE(`\A\s*# (.+)`)
	cursorSpeakerRe = lazyRE(`^\*\*(User|Cursor)\*\*\s*$`)
)

func decodeCursorExport(d *Decoder, doc []byte) error {
	d.t.Session.Agent = "cursor"
	if m := cursorExportRe.Regexp().FindSubmatch(doc); m != nil {
		d.t.Session.Version = string(m[1])
	}
	if m := cursorTitleRe.Regexp().FindSubmatch(doc); m != nil {
		d.t.Session.Title = strings.TrimSpace(string(m[1]))
	}
	for _, b := range splitRules(docLines(doc)) {
		i := b.firstContent()
		if i < 0 {
			continue
		}
		sp := cursorSpeakerRe.FindStringSubmatch(strings.TrimSpace(b.lines[i]))
		if sp == nil {
			continue // the title block
		}
		text := b.body(i)
		if text == "" {
			continue
		}
		m := handoff.Message{Line: b.line + i, Role: handoff.RoleUser, Text: text}
		if sp[1] == "Cursor" {
			m.Role = handoff.RoleAssistant
		}
		d.add(m)
	}
	return nil
}

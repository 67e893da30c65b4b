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
// "**Cursor**" turns the assistant's. It is read a turn at a time
// (ruleBlocks): a block that opens with neither is the rest of the turn
// before it, whose message held a "---" rule of its own.

var (
	cursorExportRe  = lazyRE(`(?m)^_Exported on .* from Cursor \(([\d.]+)\)_\s*$`)
	cursorTitleRe   = lazyRE(`\A\s*# (.+)`)
	cursorSpeakerRe = lazyRE(`^\*\*(User|Cursor)\*\*\s*$`)
)

// cursorExportOpens reports a block that opens a turn: its first line
// names the speaker.
func cursorExportOpens(b mdBlock) bool {
	i := b.firstContent()
	return i >= 0 && cursorSpeakerRe.MatchString(strings.TrimSpace(b.lines[i]))
}

// cursorExportBlock reads one block: the first holds the title and the
// export line, the others a turn each.
func cursorExportBlock(d *Decoder, b mdBlock, first bool) {
	d.t.Session.Agent = "cursor"
	if first {
		head := strings.Join(b.lines, "\n")
		if m := cursorExportRe.FindStringSubmatch(head); m != nil {
			d.t.Session.Version = m[1]
		}
		if m := cursorTitleRe.FindStringSubmatch(head); m != nil {
			d.t.Session.Title = strings.TrimSpace(m[1])
		}
	}
	i := b.firstContent()
	if i < 0 {
		return
	}
	sp := cursorSpeakerRe.FindStringSubmatch(strings.TrimSpace(b.lines[i]))
	if sp == nil {
		return // the title block
	}
	text := b.body(i)
	if text == "" {
		return
	}
	m := handoff.Message{Line: b.line + i, Role: handoff.RoleUser, Text: text}
	if sp[1] == "Cursor" {
		m.Role = handoff.RoleAssistant
	} else {
		keepUserWords(&m)
	}
	d.add(m)
}

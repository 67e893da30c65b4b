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
//
// With no tool calls, the export's bulk is the code blocks of its turns
// (a build log or a file pasted or shown), and they are kept as tool
// output is: a fenced block is cut to MaxToolOutputBytes as it is read
// and again to OlderToolOutputBytes once RecentToolResults newer long
// blocks have been read, so memory grows with the turns, not with the
// code.

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

// newCursorExport returns the export's parser: turns a "---" block at a
// time, their code blocks aged (cursorCode).
func newCursorExport() formatParser {
	c := &cursorCode{}
	return blockFormat("Cursor chat export", func(d *Decoder, b mdBlock, first bool) {
		before := len(d.t.Messages)
		cursorExportBlock(d, b, first)
		if len(d.t.Messages) > before {
			c.clip(d, before)
		}
	}, cursorExportOpens)()
}

// cursorCode ages the code blocks of an export's messages.
type cursorCode struct {
	// recent lists the messages whose code blocks are longer than the
	// older-output limit, oldest first, with where those blocks are.
	recent []cursorFences
}

// cursorFences is a message's long code blocks: the byte range of each
// body in its text and the body's size as exported.
type cursorFences struct {
	msg       int
	bodies    [][2]int
	originals []int
}

// clip cuts message i's code blocks to MaxToolOutputBytes and those of
// the messages that fall out of the recent window to
// OlderToolOutputBytes.
func (c *cursorCode) clip(d *Decoder, i int) {
	limit, older := d.opts.MaxToolOutputBytes, d.opts.OlderToolOutputBytes
	if limit < 0 {
		return
	}
	aging := older >= 0 && older < limit
	long := limit
	if aging {
		long = older
	}
	m := &d.t.Messages[i]
	f := cursorFences{msg: i}
	for _, r := range fenceBodies(m.Text) {
		if n := r[1] - r[0]; n > long {
			f.bodies = append(f.bodies, r)
			f.originals = append(f.originals, n)
		}
	}
	if len(f.bodies) == 0 {
		return
	}
	m.Text, f.bodies = cutBodies(m.Text, f.bodies, f.originals, limit)
	if !aging {
		return
	}
	c.recent = append(c.recent, f)
	for len(c.recent) > d.opts.RecentToolResults {
		old := c.recent[0]
		c.recent = c.recent[1:]
		m := &d.t.Messages[old.msg]
		m.Text, _ = cutBodies(m.Text, old.bodies, old.originals, older)
	}
}

// cutBodies cuts each body (a byte range of text, of originals[j] bytes
// as exported) longer than limit to its head and tail, and returns the
// text and the bodies' new ranges.
func cutBodies(text string, bodies [][2]int, originals []int, limit int) (string, [][2]int) {
	var b strings.Builder
	out := make([][2]int, len(bodies))
	at := 0
	for j, r := range bodies {
		b.WriteString(text[at:r[0]])
		body := text[r[0]:r[1]]
		if len(body) > limit {
			body = clipStringOf(body, limit, originals[j])
		}
		out[j] = [2]int{b.Len(), b.Len() + len(body)}
		b.WriteString(body)
		at = r[1]
	}
	b.WriteString(text[at:])
	return b.String(), out
}

// fenceBodies returns the byte ranges of the bodies of text's fenced
// code blocks (the lines between the fences; an unclosed block runs to
// the end).
func fenceBodies(text string) [][2]int {
	var out [][2]int
	fence, start := "", 0
	for at := 0; at < len(text); {
		next := len(text)
		if end := strings.IndexByte(text[at:], '\n'); end >= 0 {
			next = at + end + 1
		}
		inside := fence != ""
		isRule(&fence, text[at:next])
		switch {
		case !inside && fence != "":
			start = next
		case inside && fence == "":
			out = append(out, [2]int{start, at})
		}
		at = next
	}
	if fence != "" && start < len(text) {
		out = append(out, [2]int{start, len(text)})
	}
	return out
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

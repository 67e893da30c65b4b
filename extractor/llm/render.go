package llm

import (
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/redact"
)

// Per-message bounds on what is sent, in runes: enough to judge, not a
// whole file dump.
const (
	sendTextLimit       = 4000
	sendToolInputLimit  = 400
	sendToolResultLimit = 1500
)

// sendable reports whether a message goes to the model at all: subagent
// traffic is not the main thread, and harness-injected text is nobody's
// decision.
func sendable(m handoff.Message) bool {
	return !m.Sidechain && !m.Meta
}

// renderMessage renders one message as a delimited data element. Every
// piece of transcript text is redacted first and then escaped, so no
// secret leaves the process and no content can close the element.
func renderMessage(m handoff.Message) string {
	var b strings.Builder
	b.WriteString(`<message index="`)
	b.WriteString(strconv.Itoa(m.Index))
	b.WriteString(`" role="`)
	b.WriteString(roleAttr(m))
	b.WriteString(`">`)
	b.WriteByte('\n')
	if t := strings.TrimSpace(m.Text); t != "" {
		b.WriteString(escapeData(headTail(redact.String(t), sendTextLimit)))
		b.WriteByte('\n')
	}
	for _, c := range m.ToolCalls {
		b.WriteString("[tool call ")
		b.WriteString(escapeData(attrSafe(c.Name)))
		b.WriteString("] ")
		b.WriteString(escapeData(headTail(redact.String(string(c.Input)), sendToolInputLimit)))
		b.WriteByte('\n')
	}
	for _, r := range m.ToolResults {
		b.WriteString("[tool result")
		if r.Name != "" {
			b.WriteString(" ")
			b.WriteString(escapeData(attrSafe(r.Name)))
		}
		if r.Failed() {
			b.WriteString(" FAILED")
		}
		if r.ExitCode != nil {
			b.WriteString(" exit=")
			b.WriteString(strconv.Itoa(*r.ExitCode))
		}
		b.WriteString("]\n")
		b.WriteString(escapeData(headTail(redact.String(r.Content), sendToolResultLimit)))
		b.WriteByte('\n')
	}
	b.WriteString("</message>\n")
	return b.String()
}

// renderWindow wraps rendered messages in the transcript element.
func renderWindow(rendered []string) string {
	n := len("<transcript>\n</transcript>\n")
	for _, r := range rendered {
		n += len(r)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString("<transcript>\n")
	for _, r := range rendered {
		b.WriteString(r)
	}
	b.WriteString("</transcript>\n")
	return b.String()
}

// roleAttr is the role attribute: only known values, so transcript text
// cannot forge an attribute.
func roleAttr(m handoff.Message) string {
	switch {
	case m.CompactSummary:
		return "summary"
	case len(m.ToolResults) > 0 && strings.TrimSpace(m.Text) == "":
		return "tool"
	}
	switch m.Role {
	case handoff.RoleUser, handoff.RoleAssistant, handoff.RoleSystem, handoff.RoleTool:
		return string(m.Role)
	}
	return "other"
}

// escapeData makes text safe inside the transcript element: angle
// brackets become entities, so "</message>" or "</transcript>" in a tool
// result is shown, not obeyed as structure.
func escapeData(s string) string {
	if !strings.ContainsAny(s, "<>") {
		return s
	}
	return strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(s)
}

// attrSafe keeps a tool name to one short line.
func attrSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ']' {
			return ' '
		}
		return r
	}, s)
	return prose.Truncate(s, 60)
}

// headTail keeps the start and the end of a long text: a command's output
// says what ran at the top and how it ended at the bottom.
func headTail(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := n * 2 / 3
	tail := n - head
	return string(r[:head]) + "\n[… " + strconv.Itoa(len(r)-n) + " characters cut …]\n" + string(r[len(r)-tail:])
}

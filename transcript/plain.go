package transcript

import (
	"strings"

	"github.com/handoff-cli/handoff"
)

// Plain text.
//
// The whole input is one user message, unless it reads as a dialogue:
// when at least one line starts with a user prefix ("User:", "Human:")
// and at least one with an assistant prefix ("Assistant:", "AI:"), the
// text is split into turns at those lines (markdown bold "**User:**" is
// accepted; "System:" starts a system turn). Text before the first turn
// becomes a system message marked Meta. Requiring both roles keeps a bug
// report that happens to contain "User: alice" in one piece.
//
// Plain text is kept whole, as it is the message itself; it is bounded
// only by the input.

// rolePrefixRe matches a turn's opening line.
var rolePrefixRe = lazyRE(`(?i)^\s{0,3}(?:\*\*)?(user|human|assistant|ai|system)(?:\*\*)?\s*:(?:\*\*)?[ \t]?(.*)$`)

type plainParser struct {
	lines []string
}

func (p *plainParser) record(_ *Decoder, line []byte, _ int) error {
	p.lines = append(p.lines, string(line))
	return nil
}

func (p *plainParser) pending() []handoff.Message { return p.build() }

func (p *plainParser) finish(d *Decoder) error {
	for _, m := range p.build() {
		d.add(m)
	}
	p.lines = nil
	return nil
}

// build turns the lines so far into messages (Index left for the caller).
func (p *plainParser) build() []handoff.Message {
	type turn struct {
		role handoff.Role
		line int // 0-based index of the opening line
		body []string
	}
	var turns []turn
	users, assistants := 0, 0
	cur := turn{role: handoff.RoleSystem}
	for i, l := range p.lines {
		m := rolePrefixRe.FindStringSubmatch(l)
		if m == nil {
			cur.body = append(cur.body, l)
			continue
		}
		turns = append(turns, cur)
		cur = turn{line: i, body: []string{m[2]}}
		switch strings.ToLower(m[1]) {
		case "user", "human":
			cur.role = handoff.RoleUser
			users++
		case "assistant", "ai":
			cur.role = handoff.RoleAssistant
			assistants++
		default:
			cur.role = handoff.RoleSystem
		}
	}
	turns = append(turns, cur)

	if users == 0 || assistants == 0 {
		text := strings.TrimSpace(strings.Join(p.lines, "\n"))
		if text == "" {
			return nil
		}
		return []handoff.Message{{Role: handoff.RoleUser, Text: text, Line: firstContentLine(p.lines)}}
	}
	var out []handoff.Message
	for _, t := range turns {
		text := strings.TrimSpace(strings.Join(t.body, "\n"))
		if text == "" {
			continue
		}
		m := handoff.Message{Role: t.role, Text: text, Line: t.line + 1}
		if t.role == handoff.RoleSystem {
			m.Meta = true
		}
		if t.line == 0 && t.role == handoff.RoleSystem {
			m.Line = firstContentLine(t.body)
		}
		out = append(out, m)
	}
	return out
}

// firstContentLine is the 1-based number of the first non-blank line.
func firstContentLine(lines []string) int {
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			return i + 1
		}
	}
	return 1
}

package transcript

import (
	"encoding/json"
	"fmt"
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
// Command output an assistant pasted into its turn is output, not the
// assistant's words: a "$ cmd" line is a Bash call and the lines under it,
// up to a blank line, its result; a fenced block of a shell session
// ("```console", or one whose first line is "$ cmd") is calls and results
// the same way. A role prefix inside a fence or a command's output does
// not start a turn: a "User: …" line in cat's output is the file's text,
// not the person speaking.
//
// Plain text is kept whole, as it is the message itself; it is bounded
// only by the input.

// rolePrefixRe matches a turn's opening line.
var rolePrefixRe = lazyRE(`(?i)^\s{0,3}(?:\*\*)?(user|human|assistant|ai|system)(?:\*\*)?\s*:(?:\*\*)?[ \t]?(.*)$`)

// shellPromptRe matches a pasted shell command line: "$ cmd" (a prompt
// character, a space, the command), at most three spaces in.
var shellPromptRe = lazyRE(`^\s{0,3}\$ (\S.*)$`)

// fenceRe matches a code fence line and its info string.
var fenceRe = lazyRE("^\\s{0,3}(```+|~~~+)\\s*([\\w+-]*)")

// consoleFenceInfo are the info strings of fences that hold a terminal
// session or a program's output rather than code the assistant wrote.
var consoleFenceInfo = map[string]bool{
	"console": true, "shell-session": true, "terminal": true, "output": true, "log": true,
}

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

// plainTurn is one speaker's turn: its role, opening line and body.
type plainTurn struct {
	role handoff.Role
	line int // 0-based index of the opening line
	body []string
}

// build turns the lines so far into messages (Index left for the caller).
func (p *plainParser) build() []handoff.Message {
	var turns []plainTurn
	users, assistants := 0, 0
	cur := plainTurn{role: handoff.RoleSystem}
	var nest nesting
	for i, l := range p.lines {
		if nest.inside(l, cur.role == handoff.RoleAssistant) {
			cur.body = append(cur.body, l)
			continue
		}
		m := rolePrefixRe.FindStringSubmatch(l)
		if m == nil {
			cur.body = append(cur.body, l)
			continue
		}
		turns = append(turns, cur)
		cur = plainTurn{line: i, body: []string{m[2]}}
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
		nest = nesting{}
		nest.inside(m[2], cur.role == handoff.RoleAssistant)
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
		if t.role == handoff.RoleAssistant {
			out = append(out, assistantMessages(t)...)
			continue
		}
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

// nesting follows the fences and command outputs of a turn line by line,
// so that a role prefix inside them is known to be text, not a turn.
type nesting struct {
	fence  string // the open fence's marker, "" outside one
	output bool   // inside a "$ cmd" line's output (assistant turns)
}

// inside reads line l and reports whether it lies inside a fence or a
// command's output, where it cannot open a turn.
func (n *nesting) inside(l string, assistant bool) bool {
	if n.fence != "" {
		if m := fenceRe.FindStringSubmatch(l); m != nil && strings.HasPrefix(m[1], n.fence) && m[2] == "" {
			n.fence = ""
		}
		return true
	}
	if m := fenceRe.FindStringSubmatch(l); m != nil {
		n.fence, n.output = m[1], false
		return false
	}
	if strings.TrimSpace(l) == "" {
		n.output = false
		return false
	}
	was := n.output
	if assistant && shellPromptRe.MatchString(l) {
		n.output = true
	}
	return was
}

// assistantMessages splits an assistant turn into its words and the
// commands it pasted with their output: the assistant's message carries
// the words and the calls, a tool message after it the results, and words
// after the output open a new assistant message.
func assistantMessages(t plainTurn) []handoff.Message {
	b := plainAssistant{}
	inOutput := false
	for k := 0; k < len(t.body); k++ {
		l, lineNo := t.body[k], t.line+k+1
		if m := fenceRe.FindStringSubmatch(l); m != nil {
			end := fenceEnd(t.body, k, m[1])
			inner := t.body[k+1 : min(end, len(t.body))]
			if consoleFenceInfo[strings.ToLower(m[2])] || len(inner) > 0 && shellPromptRe.MatchString(inner[0]) {
				b.session(inner, lineNo+1)
			} else {
				b.words(lineNo, t.body[k:min(len(t.body), end+1)]...)
			}
			k, inOutput = end, false
			continue
		}
		if cm := shellPromptRe.FindStringSubmatch(l); cm != nil {
			b.call(lineNo, cm[1])
			inOutput = true
			continue
		}
		if strings.TrimSpace(l) == "" {
			inOutput = false
			b.words(lineNo, l)
			continue
		}
		if inOutput {
			b.output(l)
			continue
		}
		b.words(lineNo, l)
	}
	return b.done(t.line + 1)
}

// fenceEnd is the index of the line closing the fence opened at k, or
// len(body) when it never closes.
func fenceEnd(body []string, k int, marker string) int {
	for j := k + 1; j < len(body); j++ {
		if m := fenceRe.FindStringSubmatch(body[j]); m != nil && strings.HasPrefix(m[1], marker) && m[2] == "" {
			return j
		}
	}
	return len(body)
}

// plainAssistant assembles an assistant turn's messages.
type plainAssistant struct {
	out     []handoff.Message
	cur     *handoff.Message // open assistant message
	text    []string
	results []handoff.ToolResult
	resLine int
	res     []string // the open result's lines
	open    bool     // a result is open
}

// words adds lines of the assistant's own text; after results, they open
// a new assistant message.
func (b *plainAssistant) words(line int, lines ...string) {
	if len(b.results) > 0 || b.open {
		if strings.TrimSpace(strings.Join(lines, "")) == "" {
			return
		}
		b.flush()
	}
	if b.cur == nil {
		b.cur = &handoff.Message{Role: handoff.RoleAssistant, Line: line}
	}
	b.text = append(b.text, lines...)
}

// call adds a Bash call for cmd and opens its result.
func (b *plainAssistant) call(line int, cmd string) {
	b.endResult()
	if b.cur == nil {
		b.cur = &handoff.Message{Role: handoff.RoleAssistant, Line: line}
	}
	in, _ := json.Marshal(map[string]string{"command": cmd})
	b.cur.ToolCalls = append(b.cur.ToolCalls, handoff.ToolCall{ID: fmt.Sprintf("plain-%d", line), Name: "Bash", Input: in})
	if len(b.results) == 0 {
		b.resLine = line + 1
	}
	b.open = true
}

// output adds a line to the open result (opening an unnamed one for
// output pasted without its command).
func (b *plainAssistant) output(l string) {
	if !b.open {
		b.call(b.resLine, "")
	}
	b.res = append(b.res, l)
}

// session reads a fenced terminal session starting at line: "$ cmd"
// lines are calls, the lines under each its output.
func (b *plainAssistant) session(inner []string, line int) {
	for k, l := range inner {
		if cm := shellPromptRe.FindStringSubmatch(l); cm != nil {
			b.call(line+k, cm[1])
			continue
		}
		if !b.open {
			b.call(line+k, "")
		}
		b.res = append(b.res, l)
	}
	b.endResult()
}

func (b *plainAssistant) endResult() {
	if !b.open {
		return
	}
	content := strings.TrimSpace(strings.Join(b.res, "\n"))
	r := handoff.ToolResult{Name: "Bash", Content: content, ExitCode: exitCodeFromText(content)}
	if calls := b.cur.ToolCalls; len(calls) > 0 {
		r.CallID = calls[len(calls)-1].ID
	}
	b.results = append(b.results, r)
	b.res, b.open = nil, false
}

// flush commits the open assistant message and the results after it.
func (b *plainAssistant) flush() {
	b.endResult()
	if b.cur != nil {
		b.cur.Text = strings.TrimSpace(strings.Join(b.text, "\n"))
		if b.cur.Text != "" || len(b.cur.ToolCalls) > 0 {
			b.out = append(b.out, *b.cur)
		}
	}
	if len(b.results) > 0 {
		b.out = append(b.out, handoff.Message{Role: handoff.RoleTool, Line: b.resLine, ToolResults: b.results})
	}
	b.cur, b.text, b.results = nil, nil, nil
}

// done returns the turn's messages; line is the turn's opening line.
func (b *plainAssistant) done(line int) []handoff.Message {
	b.flush()
	if len(b.out) > 0 && b.out[0].Role == handoff.RoleAssistant {
		b.out[0].Line = line
	}
	return b.out
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

package transcript

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
)

// Terminal pastes: what a person copied out of the Claude Code or Gemini
// CLI terminal. They hold less than the session files (no ids, no usage,
// tool input only as its one-line rendering) but are often all there is.

// Claude Code paste.
//
// "> text" opens a user turn (continued by lines indented two spaces);
// "⏺ text" (or "● text") an assistant turn; "⏺ Name(args)" is a ToolCall (Input
// {"summary": args}) on the current assistant turn; "  ⎿  text" is a
// ToolResult (continued by indented lines), IsError when it starts with
// "Error" or is the "No (tell Claude what to do differently)" rejection;
// "✻ Thinking…" and its indented lines are the next turn's Thinking. The
// user turn after a "Previous Conversation Compacted" rule, or starting
// "This session is being continued", is the CompactSummary. Anything
// else (banners, tips, cost reports, shell lines) is not part of a turn.

var (
	ccToolLineRe = lazyRE(`^[⏺●] ([A-Za-z][\w.:-]*)\((.*?)\)…?\s*$`)
	// ccToolOpenRe is a tool line whose arguments the terminal wrapped:
	// "⏺ Bash(git commit -m "Fix …" then "      … (ctrl+r to expand))".
	ccToolOpenRe = lazyRE(`^[⏺●] ([A-Za-z][\w.:-]*)\((.*)$`)
)

// wrappedToolLine reads a tool line whose arguments go on over the
// indented lines after it (a long command): the lines up to the one that
// closes the parenthesis, when a result ("⎿") follows it. It returns the
// call's name, its arguments joined on one line and how many lines after
// the first it took; ok is false when lines[i] is not such a call (a
// turn of prose that happens to start "Word(").
func wrappedToolLine(lines []string, i int) (name, args string, used int, ok bool) {
	m := ccToolOpenRe.FindStringSubmatch(strings.TrimRight(lines[i], " \t\r"))
	if m == nil {
		return "", "", 0, false
	}
	parts := []string{strings.TrimSpace(m[2])}
	for j := i + 1; j < len(lines) && j <= i+maxWrappedToolLines; j++ {
		l := strings.TrimRight(lines[j], " \t\r")
		if !strings.HasPrefix(l, "    ") {
			return "", "", 0, false
		}
		t := strings.TrimSpace(l)
		closed := strings.TrimSuffix(t, "…")
		if !strings.HasSuffix(closed, ")") {
			parts = append(parts, t)
			continue
		}
		k := j + 1
		for k < len(lines) && strings.TrimSpace(lines[k]) == "" {
			k++
		}
		if k == len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[k]), "⎿") {
			return "", "", 0, false
		}
		parts = append(parts, strings.TrimSuffix(closed, ")"))
		return m[1], strings.Join(parts, " "), j - i, true
	}
	return "", "", 0, false
}

// maxWrappedToolLines bounds how far a tool line's arguments may wrap.
const maxWrappedToolLines = 12

func decodeClaudeConsole(d *Decoder, doc []byte) error {
	d.t.Session.Agent = "claude-code"
	c := consoleBuilder{dec: d}
	compacted := false
	lines := docLines(doc)
	width := pasteWidth(lines)
	for i := 0; i < len(lines); i++ {
		lineNo := i + 1
		l := strings.TrimRight(lines[i], " \t\r")
		switch {
		case strings.HasPrefix(l, "> "):
			c.flush()
			c.open(handoff.RoleUser, lineNo, strings.TrimPrefix(l, "> "))
			if compacted || strings.HasPrefix(strings.TrimPrefix(l, "> "), compactPrefix) {
				c.cur.CompactSummary = true
				compacted = false
			}
		case strings.HasPrefix(l, "⏺ ") || strings.HasPrefix(l, "● "): // ● where the terminal lacks ⏺
			if m := ccToolLineRe.FindStringSubmatch(l); m != nil {
				c.call(lineNo, m[1], m[2])
				continue
			}
			if name, args, used, ok := wrappedToolLine(lines, i); ok {
				c.call(lineNo, name, args)
				i += used
				continue
			}
			c.flush()
			c.open(handoff.RoleAssistant, lineNo, strings.TrimPrefix(strings.TrimPrefix(l, "⏺ "), "● "))
		case strings.HasPrefix(strings.TrimLeft(l, " "), "⎿"):
			text := strings.TrimSpace(strings.TrimPrefix(strings.TrimLeft(l, " "), "⎿"))
			c.result(lineNo, text, strings.HasPrefix(text, "Error") || strings.HasPrefix(text, "No (tell Claude what to do differently)"))
		case strings.HasPrefix(l, "✻ Thinking"):
			c.flush()
			c.thinking = true
		case strings.Contains(l, "Previous Conversation Compacted"):
			c.flush()
			compacted = true
		case l == "":
			c.blank()
		case strings.HasPrefix(l, "  "):
			c.more(strings.TrimPrefix(l, "  "), softWrapped(lines, i, width))
		default:
			c.flush()
		}
	}
	c.flush()
	return nil
}

// softWrapMinWidth is the shortest line a terminal can have wrapped: no
// terminal is narrower than 80 columns, and the word that moved to the
// next line leaves at most a few columns of the width unused.
const softWrapMinWidth = 70

// softWrapped reports whether continuation line i of a terminal paste
// goes on the line before it, cut there by the terminal's width rather
// than by the person or the model: the line before is wide, and either
// the break fell on a space, which the terminal leaves at the end of the
// line before ("…clutter the ⏎  console with that.") or at the start of
// this one ("…mean they⏎   can't use…", a lower-case word: a list item
// starts with its marker and a new sentence with a capital), or this
// line's first word would not have fitted on the line before at the
// paste's width ("…even though we're passing⏎  Path.home(), the mock…").
// Joining the two keeps one sentence in one piece, so the constraints,
// decisions and quotes read from it are whole. width is pasteWidth's
// estimate, 0 when the paste has too few wide lines to tell.
func softWrapped(lines []string, i, width int) bool {
	if i == 0 {
		return false
	}
	prev := strings.TrimRight(lines[i-1], "\r")
	prevWidth := utf8.RuneCountInString(prev)
	if prevWidth < softWrapMinWidth {
		return false
	}
	if strings.HasSuffix(prev, " ") && !strings.HasSuffix(prev, "  ") {
		return true
	}
	if rest, ok := strings.CutPrefix(lines[i], "   "); ok {
		if r, _ := utf8.DecodeRuneInString(rest); unicode.IsLower(r) {
			return true
		}
	}
	body := strings.TrimSpace(strings.TrimRight(lines[i], "\r"))
	if width == 0 || body == "" || startsBlock(body) {
		return false
	}
	word, _, _ := strings.Cut(body, " ")
	return prevWidth+1+utf8.RuneCountInString(word) > width
}

// startsBlock reports whether a continuation line opens a block of its
// own (a list item, heading, table row, fence or box), which a terminal
// never produces by wrapping prose.
func startsBlock(line string) bool {
	if strings.ContainsRune("-*+#|>`•⎿│╭╰", []rune(line)[0]) {
		return true
	}
	digits := strings.TrimLeft(line, "0123456789")
	return len(digits) < len(line) && (strings.HasPrefix(digits, ".") || strings.HasPrefix(digits, ")"))
}

// minWidthLines is how many lines must reach a width before pasteWidth
// takes it as the terminal's: a few lines can be wider than the terminal
// (a box drawn for another width, wide characters counted as one).
const minWidthLines = 5

// pasteWidth estimates the width of the terminal a paste was copied from:
// the widest line length that at least minWidthLines lines reach, since
// a terminal wraps every long line at or just under its width. It is 0
// when fewer lines than that are wide enough to have been wrapped.
func pasteWidth(lines []string) int {
	counts := map[int]int{}
	for _, l := range lines {
		if n := utf8.RuneCountInString(strings.TrimRight(l, "\r")); n >= softWrapMinWidth {
			counts[n]++
		}
	}
	widths := make([]int, 0, len(counts))
	for n := range counts {
		widths = append(widths, n)
	}
	slices.Sort(widths)
	reached := 0
	for k := len(widths) - 1; k >= 0; k-- {
		if reached += counts[widths[k]]; reached >= minWidthLines {
			return widths[k]
		}
	}
	return 0
}

// Gemini CLI paste.
//
// "> text" opens a user turn, "✦ text" an assistant turn (both continued
// by lines indented two spaces). A box (" ╭─" … " ╰─") holds tool runs:
// each " │ ✔  Name rest" line is a ToolCall (Input {"summary": rest}) with
// its ToolResult made of the box lines under it; "✖"/"x" marks a failed
// run (IsError), "-" a cancelled one. Boxes without tool lines (/about,
// the exit stats) are skipped.

var gemToolLineRe = lazyRE(`^\s*│ (✔|✓|✖|✗|x|-|⊷|o|\?)\s+([A-Za-z][\w.]*)\s*(.*?)\s*│?$`)

// gemCommand is a tool line's summary without the description Gemini CLI
// appends to a shell command ("pytest --spec (Run the test suite.)"):
// the command is what ran, and the errors, tests and next step quote it.
// A trailing group is a description when it reads as a sentence: a
// capital first letter and a closing full stop ("(List the files.)").
func gemCommand(name, summary string) string {
	if !strings.EqualFold(name, "Shell") || !strings.HasSuffix(summary, ".)") {
		return summary
	}
	i := strings.LastIndex(summary, " (")
	if i <= 0 {
		return summary
	}
	if r, _ := utf8.DecodeRuneInString(summary[i+2:]); !unicode.IsUpper(r) {
		return summary
	}
	return strings.TrimSpace(summary[:i])
}

func decodeGeminiConsole(d *Decoder, doc []byte) error {
	d.t.Session.Agent = "gemini-cli"
	c := consoleBuilder{dec: d}
	inBox := false
	lines, code, skip := numberedBlocks(docLines(doc))
	width := pasteWidth(lines)
	for i, raw := range lines {
		if skip[i] {
			continue
		}
		lineNo := i + 1
		l := strings.TrimRight(raw, " \t\r")
		trimmed := strings.TrimLeft(l, " ")
		switch {
		case strings.HasPrefix(trimmed, "╭"):
			if c.cur != nil && c.cur.Role == handoff.RoleUser {
				c.flush()
			}
			inBox = true
		case strings.HasPrefix(trimmed, "╰"):
			c.endResult()
			inBox = false
		case inBox:
			if m := gemToolLineRe.FindStringSubmatch(l); m != nil {
				c.call(lineNo, m[2], gemCommand(m[2], m[3]))
				c.result(lineNo, "", m[1] == "✖" || m[1] == "✗" || m[1] == "x")
				continue
			}
			if c.res != nil {
				body := strings.TrimPrefix(trimmed, "│")
				body = strings.TrimRight(strings.TrimSuffix(strings.TrimRight(body, " "), "│"), " ")
				c.more(strings.TrimPrefix(body, "    "), false)
			}
		case strings.HasPrefix(l, "> "):
			c.flush()
			c.open(handoff.RoleUser, lineNo, strings.TrimPrefix(l, "> "))
		case strings.HasPrefix(l, "✦ "):
			c.flush()
			c.open(handoff.RoleAssistant, lineNo, strings.TrimPrefix(l, "✦ "))
		case l == "":
			c.blank()
		case strings.HasPrefix(l, "  "):
			c.more(strings.TrimPrefix(l, "  "), !code[i] && softWrapped(lines, i, width))
		default:
			c.flush()
		}
	}
	c.flush()
	return nil
}

// numberedBlocks finds the code blocks Gemini CLI prints with a line
// number before each line ("    1 feat(docs): …", "   10 Co-Authored-By: …",
// a long line continued under its text) and gives them back as the
// fenced block they were: the numbers out, each line's continuations on
// it, "```" before the first line and after the last. Read as prose, the
// numbers became part of the assistant's words ("1 feat(docs) … 2 3
// Adds …") and the code became its report. The lines keep their places
// (line numbers cite the paste): code marks a block's lines, skip the
// continuations merged into the line above them.
func numberedBlocks(lines []string) (out []string, code, skip []bool) {
	out, code, skip = lines, make([]bool, len(lines)), make([]bool, len(lines))
	copied := false
	for i := 0; i < len(lines); i++ {
		col, text, ok := numberedLine(lines[i], 1, 0)
		if !ok {
			continue
		}
		type row struct {
			at   int
			text string
		}
		rows := []row{{i, text}}
		j := i + 1
		for ; j < len(lines); j++ {
			l := strings.TrimRight(lines[j], " \t\r")
			if _, text, ok := numberedLine(l, len(rows)+1, col); ok {
				rows = append(rows, row{j, text})
				continue
			}
			if cont, ok := strings.CutPrefix(l, strings.Repeat(" ", col)); ok && cont != "" && cont[0] != ' ' {
				rows[len(rows)-1].text += " " + cont
				continue
			}
			break
		}
		if len(rows) < 2 {
			continue
		}
		if !copied {
			out, copied = slices.Clone(lines), true
		}
		for k, r := range rows {
			t := r.text
			if k == 0 {
				t = "```\n" + t
			}
			if k == len(rows)-1 {
				t += "\n```"
			}
			out[r.at], code[r.at] = "  "+t, true
		}
		for k := i; k < j; k++ {
			skip[k] = !code[k] // a continuation, now on its row
		}
		i = j - 1
	}
	return out, code, skip
}

// numberedLine reads one line of a numbered block: at least two spaces,
// the number want right-aligned so that its text starts at column col
// (any column when col is 0), a space, the text. It returns the text's
// column and the text.
func numberedLine(l string, want, col int) (int, string, bool) {
	l = strings.TrimRight(l, " \t\r")
	digits := strconv.Itoa(want)
	indent := len(l) - len(strings.TrimLeft(l, " "))
	if indent < 2 || !strings.HasPrefix(l[indent:], digits) {
		return 0, "", false
	}
	rest := l[indent+len(digits):]
	if rest != "" && rest[0] != ' ' {
		return 0, "", false
	}
	at := indent + len(digits) + 1
	if col != 0 && at != col {
		return 0, "", false
	}
	return at, strings.TrimPrefix(rest, " "), true
}

// consoleBuilder assembles turns from a terminal paste.
type consoleBuilder struct {
	dec      *Decoder
	cur      *handoff.Message // open user/assistant turn
	curText  []string         // its lines, joined when it is committed
	res      *handoff.ToolResult
	resText  []string
	results  []handoff.ToolResult
	resLine  int
	blanks   int
	thinking bool
	think    []string
}

// open starts a turn.
func (c *consoleBuilder) open(role handoff.Role, line int, text string) {
	// A prompt that is a slash command ("/compact", "/about") drives the
	// harness; it is not a request.
	c.cur = &handoff.Message{Role: role, Line: line, Meta: role == handoff.RoleUser && strings.HasPrefix(text, "/")}
	c.curText = []string{text}
	if role == handoff.RoleAssistant && len(c.think) > 0 {
		c.cur.Thinking = strings.TrimSpace(strings.Join(c.think, "\n"))
	}
	c.think, c.thinking, c.blanks = nil, false, 0
}

// more continues whatever is open: a result, a turn, or thinking. A line
// the terminal wrapped (softWrapped) goes on the turn's last line.
func (c *consoleBuilder) more(text string, wrapped bool) {
	switch {
	case c.res != nil:
		c.resText = appendLine(c.resText, text, c.blanks)
	case c.cur != nil && wrapped && c.blanks == 0 && len(c.curText) > 0:
		last := len(c.curText) - 1
		c.curText[last] = strings.TrimRight(c.curText[last], " ") + " " + strings.TrimLeft(text, " ")
	case c.cur != nil:
		c.curText = appendLine(c.curText, text, c.blanks)
	case c.thinking:
		c.think = append(c.think, text)
	}
	c.blanks = 0
}

func (c *consoleBuilder) blank() { c.blanks++ }

// call adds a tool call to the open assistant turn, opening one if needed.
func (c *consoleBuilder) call(line int, name, summary string) {
	c.endResult()
	if c.cur == nil || c.cur.Role != handoff.RoleAssistant {
		c.flushTurn()
		c.open(handoff.RoleAssistant, line, "")
	}
	in, _ := json.Marshal(map[string]string{"summary": summary})
	c.cur.ToolCalls = append(c.cur.ToolCalls, handoff.ToolCall{Name: name, Input: in})
}

// result starts a tool result for the latest call.
func (c *consoleBuilder) result(line int, text string, isErr bool) {
	c.endResult()
	r := handoff.ToolResult{IsError: isErr}
	c.resText = []string{text}
	if c.cur != nil && len(c.cur.ToolCalls) > 0 {
		r.Name = c.cur.ToolCalls[len(c.cur.ToolCalls)-1].Name
	}
	if len(c.results) == 0 {
		c.resLine = line
	}
	c.res = &r
	c.blanks = 0
}

func (c *consoleBuilder) endResult() {
	if c.res == nil {
		return
	}
	r := *c.res
	r.Content = strings.TrimSpace(strings.Join(c.resText, "\n"))
	c.resText = nil
	r.ExitCode = exitCodeFromText(r.Content)
	r.Content, r.OriginalBytes = c.dec.clipOutput(r.Content)
	c.results = append(c.results, r)
	c.res = nil
}

// flushTurn commits the open turn, then any results that followed it.
func (c *consoleBuilder) flushTurn() {
	c.endResult()
	if c.cur != nil {
		c.cur.Text = strings.TrimSpace(strings.Join(c.curText, "\n"))
		c.curText = nil
		if c.cur.Role == handoff.RoleUser && !c.cur.Meta && !c.cur.CompactSummary {
			keepUserWords(c.cur)
		}
		if c.cur.Role == handoff.RoleAssistant && nestsOutput(c.cur.Text) {
			for _, m := range splitPastedOutput(*c.cur) {
				c.dec.add(m)
			}
		} else if c.cur.Text != "" || len(c.cur.ToolCalls) > 0 {
			c.dec.add(*c.cur)
		}
		c.cur = nil
	}
	if len(c.results) > 0 {
		c.dec.add(handoff.Message{Role: handoff.RoleTool, Line: c.resLine, ToolResults: c.results})
		c.results = nil
	}
}

func (c *consoleBuilder) flush() {
	c.flushTurn()
	c.blanks = 0
}

// appendLine adds a continuation line, keeping one paragraph break for
// the blank lines before it.
func appendLine(lines []string, l string, blanks int) []string {
	if blanks > 0 && len(lines) > 0 && lines[len(lines)-1] != "" {
		lines = append(lines, "")
	}
	return append(lines, l)
}

// nestsOutput reports whether an assistant turn's text holds a pasted
// command ("$ cmd" line) or a terminal fence: output the assistant
// quoted, which must not read as its words.
func nestsOutput(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		if shellPromptRe.MatchString(l) {
			return true
		}
		if m := fenceRe.FindStringSubmatch(l); m != nil && consoleFenceInfo[strings.ToLower(m[2])] {
			return true
		}
	}
	return false
}

// splitPastedOutput splits an assistant turn of a terminal paste as a
// plain transcript's turn is split (assistantMessages): its words, the
// commands it pasted as calls and their output as results. The turn's
// thinking goes on its first message, the tool lines ("⏺ Bash(…)") of the
// turn on its last assistant message, where the results after the turn
// answer them.
func splitPastedOutput(m handoff.Message) []handoff.Message {
	out := assistantMessages(plainTurn{role: handoff.RoleAssistant, line: m.Line - 1, body: strings.Split(m.Text, "\n")})
	if len(out) == 0 {
		return []handoff.Message{m}
	}
	out[0].Thinking = m.Thinking
	if len(m.ToolCalls) > 0 {
		last := &out[len(out)-1]
		if last.Role != handoff.RoleAssistant {
			out = append(out, handoff.Message{Role: handoff.RoleAssistant, Line: m.Line})
			last = &out[len(out)-1]
		}
		last.ToolCalls = append(last.ToolCalls, m.ToolCalls...)
	}
	return out
}

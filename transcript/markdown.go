package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/handoff-cli/handoff"
)

// Markdown chat logs: Aider's .aider.chat.history.md and SpecStory's
// .specstory/history/*.md. Both are read a line at a time (mdLines) and
// split into turns at their headings, so memory holds the turn being
// read, not the document.

// docLines splits a buffered document into lines without newlines.
func docLines(doc []byte) []string {
	s := string(bytes.TrimSuffix(doc, []byte("\n")))
	return strings.Split(s, "\n")
}

// Aider.
//
// "# aider chat started at <time>" opens a session run; "#### text" lines
// are the user's prompt (consecutive ones joined); lines quoted with "> "
// are Aider's own output (commands run, edits applied, warnings) and
// become one system Message (Meta) per block, except "> Tokens: 3.2k sent,
// 21 received." which becomes the Usage of the assistant reply before it;
// every other line is the assistant's reply. Aider edits through
// SEARCH/REPLACE blocks in its reply, not tool calls, so there are none.

var (
	aiderStartRe  = lazyRE(`^# aider chat started at (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)`)
	aiderTokensRe = lazyRE(`^> Tokens: ([\d.]+)(k|m)? sent(?:, ([\d.]+)(k|m)? cache write)?(?:, ([\d.]+)(k|m)? cache hit)?, ([\d.]+)(k|m)? received`)
	aiderModelRe  = lazyRE(`^> (?:Main model|Model): (\S+)`)
	// aiderRunRe is "/run cmd" or "/test cmd" ("/run" may be written "!").
	aiderRunRe = lazyRE(`^(?:/run\s+|/test\s+|!\s*)(\S[^\n]*)$`)
	// aiderConfirmRe is a confirmation Aider asked ("Add file to the
	// chat? (Y)es/(N)o/… [Yes]: all"), logged as a "####" line when the
	// person typed more than a letter.
	aiderConfirmRe = lazyRE(`^[^\n]*\? \(Y\)es/\(N\)o[^\n]*\[(?:Yes|No)\]:[^\n]*$`)
)

// aiderReader reads an Aider chat history a line at a time (mdLines).
type aiderReader struct {
	cur           *handoff.Message
	body          turnLines
	lastAssistant int
	run           string // the call id of a /run or /test whose output comes next
}

func newAiderReader() mdReader { return &aiderReader{lastAssistant: -1} }

func (r *aiderReader) flush(d *Decoder) {
	cur := r.cur
	if cur == nil {
		return
	}
	if cur.Role == handoff.RoleSystem && r.run != "" {
		// The "> " block after "#### /run cmd" is cmd's output: the
		// result of the call added for it.
		d.add(handoff.Message{Role: handoff.RoleTool, Line: cur.Line,
			ToolResults: []handoff.ToolResult{{CallID: r.run, Name: "run", Content: aiderOutput(r.body.lines)}}})
		r.cur, r.run = nil, ""
		r.body.reset()
		return
	}
	r.run = ""
	cur.Text = strings.TrimSpace(strings.Join(r.body.lines, "\n"))
	if cur.Role == handoff.RoleUser && (strings.HasPrefix(cur.Text, "/") || aiderConfirmRe.MatchString(cur.Text)) {
		// An Aider command (/add, /run, …) or the person's answer to
		// one of Aider's confirmations, not a request.
		cur.Meta = true
	}
	if cur.Role == handoff.RoleUser && r.lastAssistant >= 0 && architectHandoff(cur.Text, d.t.Messages[r.lastAssistant].Text) {
		// Architect mode: the editor model's input, logged as "####"
		// lines, is the architect's reply just before it.
		cur.Meta = true
	}
	if cur.Text != "" {
		i := d.add(*cur)
		if cur.Role == handoff.RoleAssistant {
			r.lastAssistant = i
		}
		if cur.Role == handoff.RoleUser && !cur.Meta {
			pastedTestRun(d, cur.Text, cur.Line)
		}
	}
	if m := aiderRunRe.FindStringSubmatch(cur.Text); m != nil && cur.Role == handoff.RoleUser {
		// The person ran a shell command (/run) or the test command
		// (/test) through Aider: a shell call like any other, so its
		// tests, failures and checks are read.
		r.run = fmt.Sprintf("aider-run-%d", cur.Line)
		input, _ := json.Marshal(map[string]string{"command": strings.TrimSpace(m[1])})
		d.add(handoff.Message{Role: handoff.RoleAssistant, Line: cur.Line, Meta: true,
			ToolCalls: []handoff.ToolCall{{ID: r.run, Name: "run", Input: input}}})
	}
	r.cur = nil
	r.body.reset()
}

func (r *aiderReader) start(d *Decoder, role handoff.Role, line int) {
	r.flush(d)
	r.cur = &handoff.Message{Role: role, Line: line, Meta: role == handoff.RoleSystem}
}

func (r *aiderReader) line(d *Decoder, raw string, lineNo int) {
	l := strings.TrimRight(raw, " \t\r")
	switch {
	case aiderStartRe.MatchString(l):
		r.flush(d)
		// Aider writes local time without a zone; it is read as UTC
		// so the result does not depend on where it is parsed. It is
		// when a run of the chat started, never when it ended: only
		// StartedAt takes it.
		if t, err := time.Parse("2006-01-02 15:04:05", aiderStartRe.FindStringSubmatch(l)[1]); err == nil &&
			(d.t.Session.StartedAt.IsZero() || t.Before(d.t.Session.StartedAt)) {
			d.t.Session.StartedAt = t
		}
		r.lastAssistant = -1
	case strings.HasPrefix(l, "####"):
		text := strings.TrimSpace(strings.TrimPrefix(l, "####"))
		if r.cur == nil || r.cur.Role != handoff.RoleUser {
			r.start(d, handoff.RoleUser, lineNo)
		}
		r.body.add(d, text, r.cur.Line, lineNo)
	case l == ">" || strings.HasPrefix(l, "> "):
		if m := aiderTokensRe.FindStringSubmatch(l); m != nil {
			r.flush(d)
			if r.lastAssistant >= 0 {
				sent := aiderNumber(m[1], m[2])
				hit := aiderNumber(m[5], m[6])
				write := aiderNumber(m[3], m[4])
				d.t.Messages[r.lastAssistant].Usage = &handoff.ProviderUsage{
					InputTokens: max(sent-hit-write, 0), CacheReadInputTokens: hit, CacheCreationInputTokens: write,
					OutputTokens: aiderNumber(m[7], m[8]),
				}
			}
			return
		}
		if m := aiderModelRe.FindStringSubmatch(l); m != nil {
			d.t.Session.Model = m[1]
		}
		if r.cur == nil || r.cur.Role != handoff.RoleSystem {
			r.start(d, handoff.RoleSystem, lineNo)
		}
		r.body.add(d, strings.TrimPrefix(strings.TrimPrefix(l, ">"), " "), r.cur.Line, lineNo)
	default:
		if r.cur == nil || r.cur.Role != handoff.RoleAssistant {
			if strings.TrimSpace(l) == "" {
				switch {
				case r.cur != nil && r.cur.Role == handoff.RoleUser:
					r.flush(d) // a blank line ends a prompt
				case r.cur != nil:
					r.body.add(d, "", r.cur.Line, lineNo)
				}
				return
			}
			r.start(d, handoff.RoleAssistant, lineNo)
			r.cur.Model = d.t.Session.Model
		}
		r.body.add(d, raw, r.cur.Line, lineNo)
	}
}

func (r *aiderReader) end(d *Decoder, _ int) { r.flush(d) }

// held is the turn being read, as flush would add it, without the calls
// it may add.
func (r *aiderReader) held() []handoff.Message {
	if r.cur == nil || r.cur.Role == handoff.RoleSystem && r.run != "" {
		return nil
	}
	m := *r.cur
	if m.Text = strings.TrimSpace(strings.Join(r.body.lines, "\n")); m.Text == "" {
		return nil
	}
	return []handoff.Message{m}
}

// architectHandoff reports whether a "####" block is architect mode's
// hand-over to the editor model: the architect's reply repeated as the
// editor's input (whitespace aside).
func architectHandoff(user, assistant string) bool {
	u, a := strings.Join(strings.Fields(user), " "), strings.Join(strings.Fields(assistant), " ")
	return len(u) >= 20 && u == a
}

var (
	// pytestSessionRe and pytestSummaryRe find a pytest run pasted into a
	// message: its header rule or its closing summary rule.
	pytestSessionRe = lazyRE(`(?m)^=+ test session starts =+\s*$`)
	pytestSummaryRe = lazyRE(`(?m)^=+ (?:[^=\n]*\b(\d+) (?:failed|errors?)\b[^=\n]*|[^=\n]*\bpassed\b[^=\n]*) in [\d.]+s(?: \([^)]*\))? =+\s*$`)
)

// pastedTestRun adds the pytest run the person pasted into a message as
// a test run (a call and its result, Meta), so the tests it failed are
// known: Aider logs what was pasted, not a command.
func pastedTestRun(d *Decoder, text string, line int) {
	if !pytestSessionRe.MatchString(text) && !pytestSummaryRe.MatchString(text) {
		return
	}
	code := 0
	if m := pytestSummaryRe.FindStringSubmatch(text); m != nil && m[1] != "" {
		code = 1
	} else if strings.Contains(text, "FAILED ") || strings.Contains(text, "\nE   ") {
		code = 1
	}
	id := fmt.Sprintf("aider-pasted-%d", line)
	in, _ := json.Marshal(map[string]string{"command": "pytest"})
	d.add(handoff.Message{Role: handoff.RoleAssistant, Line: line, Meta: true,
		ToolCalls: []handoff.ToolCall{{ID: id, Name: "run", Input: in}}})
	out, orig := d.clipOutput(text)
	d.add(handoff.Message{Role: handoff.RoleTool, Line: line,
		ToolResults: []handoff.ToolResult{{CallID: id, Name: "run", Content: out, OriginalBytes: orig, ExitCode: &code}}})
}

// aiderOutput is a /run's output as Aider logged it: its "> " lines,
// without Aider's own question whether to add the output to the chat.
func aiderOutput(lines []string) string {
	var keep []string
	for _, l := range lines {
		if strings.Contains(l, "(Y)es/(N)o") && aiderConfirmRe.MatchString(strings.TrimSpace(l)) {
			continue
		}
		keep = append(keep, l)
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}

// aiderNumber reads Aider's rounded counts ("3.2k", "1.1m", "21").
func aiderNumber(n, unit string) int {
	f, err := strconv.ParseFloat(n, 64)
	if err != nil {
		return 0
	}
	switch unit {
	case "k":
		f *= 1e3
	case "m":
		f *= 1e6
	}
	return int(f)
}

// SpecStory.
//
// "_**User (time)**_" and "_**Agent (model time)**_" headings open turns
// (older exports: "_**User**_" and "_**Assistant**_")
// ("Agent - sidechain" marks Sidechain); "<think><details>…</details></think>"
// is Thinking; each "<tool-use data-tool-name=…><details>…</details></tool-use>"
// is a ToolCall on the agent turn (Input {"summary": the summary's
// backquoted argument}, or for update_plan / TodoWrite the checklist as
// {"plan"|"todos": [{step|content, status}]}) and a ToolResult with the
// body, whose exit code is read from "Process exited with code N" /
// "Exit code N". Results follow their turn as one RoleTool Message. The
// "<!-- X Session <id> -->" comment gives the session id and agent.

var (
	specHeadingRe = lazyRE(`^_\*\*(User|Agent|Assistant)( - sidechain)?(?: \(([^)]*)\))?\*\*_\s*$`)
	specSessionRe = lazyRE(`^<!-- (.+?) Session (\S+) \(`)
	specToolRe    = lazyRE(`^<tool-use\b[^>]*data-tool-name="([^"]*)"`)
	specSummaryRe = lazyRE("^<summary>Tool use: \\*\\*[^*]*\\*\\*(?: `(.*)`)?</summary>")
	specCheckRe   = lazyRE(`^\s*- \[(.)\] (.+)$`)
	specTimeRe    = lazyRE(`(\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ)`)
)

// specReader reads a SpecStory export a line at a time (mdLines).
type specReader struct {
	cur                   *handoff.Message
	text, thinking, tool  turnLines
	results               []handoff.ToolResult
	mode                  string // "", "think", "tool"
	callName, callSummary string
}

func newSpecReader() mdReader { return &specReader{} }

// message is the turn being read as flush adds it.
func (r *specReader) message() handoff.Message {
	m := *r.cur
	m.Text = strings.TrimSpace(strings.Join(r.text.lines, "\n"))
	m.Thinking = strings.TrimSpace(strings.Join(r.thinking.lines, "\n"))
	if m.Role == handoff.RoleUser {
		m.CompactSummary = strings.HasPrefix(m.Text, compactPrefix)
		if !m.CompactSummary {
			keepUserWords(&m)
		}
	}
	return m
}

func (r *specReader) flush(d *Decoder) {
	if r.cur == nil {
		return
	}
	m := r.message()
	if m.Text != "" || m.Thinking != "" || len(m.ToolCalls) > 0 {
		d.add(m)
	}
	if len(r.results) > 0 {
		d.add(handoff.Message{Role: handoff.RoleTool, Line: m.Line, Timestamp: m.Timestamp, Sidechain: m.Sidechain, ToolResults: r.results})
	}
	r.cur, r.results = nil, nil
	r.text.reset()
	r.thinking.reset()
}

func (r *specReader) line(d *Decoder, l string, lineNo int) {
	switch r.mode {
	case "think":
		if strings.HasPrefix(l, "</details></think>") {
			r.mode = ""
			return
		}
		if !strings.HasPrefix(l, "<think><details><summary>") {
			r.thinking.add(d, l, r.turnLine(lineNo), lineNo)
		}
		return
	case "tool":
		if strings.HasPrefix(l, "</details></tool-use>") {
			r.mode = ""
			body := strings.TrimSpace(strings.Join(r.tool.lines, "\n"))
			id := ""
			if j := strings.Index(body, "<tool-use-id>"); j >= 0 {
				if k := strings.Index(body[j:], "</tool-use-id>"); k > 0 {
					id = body[j+len("<tool-use-id>") : j+k]
				}
			}
			call := handoff.ToolCall{ID: id, Name: r.callName, Input: specInput(r.callName, r.callSummary, r.tool.lines)}
			if r.cur == nil {
				r.cur = &handoff.Message{Role: handoff.RoleAssistant, Line: lineNo}
			}
			r.cur.ToolCalls = append(r.cur.ToolCalls, call)
			res := handoff.ToolResult{CallID: id, Name: r.callName, ExitCode: specExitCode(body)}
			res.Content, res.OriginalBytes = d.clipOutput(body)
			r.results = append(r.results, res)
			r.tool.reset()
			return
		}
		if !strings.HasPrefix(l, "<summary>") || r.callSummary != "" {
			r.tool.add(d, l, r.turnLine(lineNo), lineNo)
			return
		}
		if m := specSummaryRe.FindStringSubmatch(l); m != nil {
			r.callSummary = m[1]
			return
		}
		r.tool.add(d, l, r.turnLine(lineNo), lineNo)
		return
	}
	switch {
	case strings.HasPrefix(l, "_**") && specHeadingRe.MatchString(l):
		m := specHeadingRe.FindStringSubmatch(l)
		r.flush(d)
		r.cur = &handoff.Message{Role: handoff.RoleUser, Line: lineNo, Sidechain: m[2] != ""}
		if m[1] != "User" { // "Agent"; "Assistant" in older (Cursor) exports
			r.cur.Role = handoff.RoleAssistant
			if f := strings.Fields(m[3]); len(f) == 3 {
				r.cur.Model = f[0]
				d.t.Session.Model = f[0]
			}
		}
		if tm := specTimeRe.FindString(m[3]); tm != "" {
			if t, err := time.Parse("2006-01-02 15:04:05Z", tm); err == nil {
				r.cur.Timestamp = t
				d.seeTime(t)
			}
		}
	case strings.HasPrefix(l, "<!--") && specSessionRe.MatchString(l):
		m := specSessionRe.FindStringSubmatch(l)
		if d.t.Session.ID == "" {
			d.t.Session.ID = m[2]
		}
	case strings.HasPrefix(l, "<think><details>"):
		r.mode = "think"
	case strings.HasPrefix(l, "<tool-use") && specToolRe.MatchString(l):
		r.mode = "tool"
		r.callName, r.callSummary = specToolRe.FindStringSubmatch(l)[1], ""
	case r.cur == nil || l == "---" && r.cur.Role == handoff.RoleUser:
		// preamble, and the rule that closes a user turn
	default:
		r.text.add(d, l, r.cur.Line, lineNo)
	}
}

// turnLine is the line the turn being read started on, for a warning.
func (r *specReader) turnLine(lineNo int) int {
	if r.cur != nil {
		return r.cur.Line
	}
	return lineNo
}

func (r *specReader) end(d *Decoder, lines int) {
	if r.mode != "" {
		// Cut short inside a block (a file still being written): keep
		// what there is and say so.
		d.warn(lines, fmt.Sprintf("%s block not closed at the end of the document (cut short?)", map[string]string{"think": "<think>", "tool": "<tool-use>"}[r.mode]))
		if r.mode == "tool" && r.cur != nil {
			body := strings.TrimSpace(strings.Join(r.tool.lines, "\n"))
			r.cur.ToolCalls = append(r.cur.ToolCalls, handoff.ToolCall{Name: r.callName, Input: specInput(r.callName, r.callSummary, r.tool.lines)})
			res := handoff.ToolResult{Name: r.callName, ExitCode: specExitCode(body)}
			res.Content, res.OriginalBytes = d.clipOutput(body)
			r.results = append(r.results, res)
		}
	}
	r.flush(d)
}

// held is the turn being read, as flush would add it.
func (r *specReader) held() []handoff.Message {
	if r.cur == nil {
		return nil
	}
	m := r.message()
	if m.Text == "" && m.Thinking == "" && len(m.ToolCalls) == 0 {
		return nil
	}
	return []handoff.Message{m}
}

// specInput builds a call's Input from what SpecStory rendered.
func specInput(name, summary string, body []string) json.RawMessage {
	field, key := "", ""
	switch strings.ToLower(name) {
	case "update_plan":
		field, key = "plan", "step"
	case "todowrite", "write_todos":
		field, key = "todos", "content"
	}
	if field != "" {
		var items []map[string]string
		for _, l := range body {
			m := specCheckRe.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			status := "pending"
			switch m[1] {
			case "x", "X", "✓", "✔":
				status = "completed"
			case "⚡", "~", ">":
				status = "in_progress"
			}
			items = append(items, map[string]string{key: strings.TrimSpace(m[2]), "status": status})
		}
		if len(items) > 0 {
			b, _ := json.Marshal(map[string]any{field: items})
			return b
		}
	}
	if summary == "" {
		return nil
	}
	b, _ := json.Marshal(map[string]string{"summary": summary})
	return b
}

// specExitRe finds an exit status in rendered tool output.
var specExitRe = lazyRE(`(?m)^(?:Process exited with code|Exit code:?) (-?\d+)\s*$`)

func specExitCode(s string) *int {
	// A match starts a line with one of the two phrases: search from the
	// line of the first, not over the whole output.
	at := -1
	for _, phrase := range []string{"Process exited with code", "Exit code"} {
		if i := strings.Index(s, phrase); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if at < 0 {
		return nil
	}
	at = strings.LastIndexByte(s[:at], '\n') + 1
	m := specExitRe.FindStringSubmatch(s[at:])
	if m == nil {
		return nil
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return nil
	}
	return &n
}

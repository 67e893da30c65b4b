package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
)

// Gemini CLI sessions: the chat JSON (~/.gemini/tmp/<hash>/chats/
// session-*.json: {sessionId, projectHash, startTime, messages[]}), the
// JSONL variant (a metadata line, then one record per line, with
// {"$set":…} updates between), and `/chat save` checkpoints (an array of
// Gemini API contents {role: user|model, parts[]}).
//
// A record of type "user" is a user Message, "gemini" an assistant Message
// (thoughts → Thinking, tokens → Usage with the cached part split out,
// toolCalls → ToolCalls), followed by one RoleTool Message with the calls'
// results (status "error" → IsError; "Exit Code: N" in the output → the
// exit code). A record whose body is API-shaped parts[] instead of
// content reads the same (text parts → Text, thought parts → Thinking). "info", "warning" and "error" records are system Messages
// (Meta). A pretty-printed document is buffered, bounded by MaxLineBytes.

type gemRecord struct {
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	// Parts is the API-shaped body some records carry instead of
	// content ({"type":"model","parts":[{"text":…}]}).
	Parts    []gemPart `json:"parts"`
	Thoughts []struct {
		Subject     string `json:"subject"`
		Description string `json:"description"`
	} `json:"thoughts"`
	Tokens *struct {
		Input  int `json:"input"`
		Output int `json:"output"`
		Cached int `json:"cached"`
	} `json:"tokens"`
	Model     string `json:"model"`
	ToolCalls []struct {
		ID            string          `json:"id"`
		Name          string          `json:"name"`
		Args          json.RawMessage `json:"args"`
		Status        string          `json:"status"`
		Result        []gemPart       `json:"result"`
		ResultDisplay json.RawMessage `json:"resultDisplay"`
	} `json:"toolCalls"`
}

type gemPart struct {
	Text         string `json:"text"`
	Thought      bool   `json:"thought"`
	FunctionCall *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
}

type gemSessionMeta struct {
	SessionID   string `json:"sessionId"`
	StartTime   string `json:"startTime"`
	LastUpdated string `json:"lastUpdated"`
}

type geminiParser struct {
	mode openaiMode
	doc  docParser
	// callIDs counts each tool call id seen: Gemini CLI can give two
	// calls of one turn the same id ("run_shell_command-1700000000777"),
	// and a result embedded in its call must not answer the other one.
	callIDs map[string]int
}

func newGeminiParser() *geminiParser {
	p := &geminiParser{}
	p.doc = docParser{name: "Gemini CLI", decode: p.document}
	return p
}

// uniqueID is a call's id made unique in the session ("id#2" for its
// second use): the call's result is embedded in it, so the pair is
// known, and every later reader pairs by id.
func (p *geminiParser) uniqueID(id string) string {
	if id == "" {
		return id
	}
	if p.callIDs == nil {
		p.callIDs = map[string]int{}
	}
	p.callIDs[id]++
	if n := p.callIDs[id]; n > 1 {
		return id + "#" + strconv.Itoa(n)
	}
	return id
}

func (p *geminiParser) pending() []handoff.Message {
	if p.mode == modeDocument {
		return p.doc.pending()
	}
	return nil
}

func (p *geminiParser) record(d *Decoder, line []byte, lineNo int) error {
	if p.mode == modeDocument {
		return p.doc.record(d, line, lineNo)
	}
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return nil
	}
	first := p.mode == modeUnknown
	if first && (!json.Valid(trimmed) || trimmed[0] == '[') {
		p.mode = modeDocument
		return p.doc.record(d, line, lineNo)
	}
	p.mode = modeLines
	var obj map[string]json.RawMessage
	if err := decodeJSON(trimmed, &obj); err != nil {
		return fmt.Errorf("malformed JSON: %w", jsonReason(err))
	}
	if _, ok := obj["type"]; !ok {
		if first && bytes.HasPrefix(obj["messages"], []byte("[")) {
			// A whole chat document written on one line (`jq -c`), not
			// the JSONL variant's metadata line: read as a metadata
			// line, its turns were lost.
			p.mode = modeDocument
			return p.doc.record(d, line, lineNo)
		}
		if _, ok := obj["sessionId"]; ok {
			var meta gemSessionMeta
			_ = decodeJSON(trimmed, &meta)
			p.session(d, meta)
			return nil
		}
		for k := range obj {
			if strings.HasPrefix(k, "$") {
				return nil // $set / $rewindTo bookkeeping
			}
		}
		return errors.New("record has no type")
	}
	return p.message(d, trimmed, lineNo)
}

func (p *geminiParser) finish(d *Decoder) error {
	if p.mode != modeDocument {
		return nil
	}
	return p.doc.finish(d)
}

func (p *geminiParser) session(d *Decoder, meta gemSessionMeta) {
	d.t.Session.Agent = "gemini-cli"
	if d.t.Session.ID == "" {
		d.t.Session.ID = meta.SessionID
	}
	d.seeTime(parseTime(meta.StartTime))
	d.seeTime(parseTime(meta.LastUpdated))
}

// document reads a chat JSON object or a checkpoint array.
func (p *geminiParser) document(d *Decoder, doc []byte) error {
	doc = bytes.TrimSpace(doc)
	if len(doc) > 0 && doc[0] == '[' {
		return p.checkpoint(d, doc)
	}
	var meta gemSessionMeta
	member := func(k string, raw json.RawMessage) {
		switch k {
		case "sessionId":
			meta.SessionID = jsonText(raw)
		case "startTime":
			meta.StartTime = jsonText(raw)
		case "lastUpdated":
			meta.LastUpdated = jsonText(raw)
		}
	}
	err := walkJSON(d, doc, "messages", member, func(n int, raw json.RawMessage) error {
		if err := p.message(d, raw, n); err != nil {
			return d.recordError(n, err)
		}
		return nil
	})
	p.session(d, meta)
	return err
}

// message reads one chat record.
func (p *geminiParser) message(d *Decoder, raw []byte, lineNo int) error {
	var r gemRecord
	if err := decodeJSON(raw, &r); err != nil {
		return fmt.Errorf("malformed record: %w", jsonReason(err))
	}
	text, err := gemContent(r.Content)
	if err != nil {
		return err
	}
	var partThoughts string
	for _, part := range r.Parts {
		if part.Thought {
			partThoughts = joinText(partThoughts, part.Text)
		} else {
			text = joinText(text, part.Text)
		}
	}
	ts := parseTime(r.Timestamp)
	d.seeTime(ts)
	m := handoff.Message{ID: r.ID, Timestamp: ts, Line: lineNo, Text: text}
	switch r.Type {
	case "user":
		m.Role = handoff.RoleUser
		if strings.TrimSpace(text) == "" {
			return nil
		}
		gemUserFlags(&m)
	case "gemini", "model", "assistant":
		m.Role, m.Model = handoff.RoleAssistant, r.Model
		if r.Model != "" {
			d.t.Session.Model = r.Model
		}
		m.Thinking = partThoughts
		for _, t := range r.Thoughts {
			m.Thinking = joinText(m.Thinking, strings.TrimSpace(joinText(t.Subject, t.Description)))
		}
		if r.Tokens != nil && r.Tokens.Input > 0 {
			cached := min(r.Tokens.Cached, r.Tokens.Input)
			m.Usage = &handoff.ProviderUsage{InputTokens: r.Tokens.Input - cached, CacheReadInputTokens: cached, OutputTokens: r.Tokens.Output}
		}
		var results []handoff.ToolResult
		for _, c := range r.ToolCalls {
			id := p.uniqueID(c.ID)
			m.ToolCalls = append(m.ToolCalls, handoff.ToolCall{ID: id, Name: c.Name, Input: trimJSON(c.Args)})
			res := handoff.ToolResult{CallID: id, Name: c.Name, IsError: c.Status == "error"}
			var out string
			for _, part := range c.Result {
				if part.FunctionResponse != nil {
					out = joinText(out, gemResponse(part.FunctionResponse.Response))
				} else if part.Text != "" {
					out = joinText(out, part.Text)
				}
			}
			if out == "" {
				out = jsonText(c.ResultDisplay)
			}
			res.ExitCode = gemExitCode(out)
			res.Content, res.OriginalBytes = d.clipOutput(gemShellFrame(out))
			results = append(results, res)
		}
		if strings.TrimSpace(m.Text) == "" && m.Thinking == "" && len(m.ToolCalls) == 0 {
			return nil // an empty model turn (cancelled request)
		}
		d.add(m)
		if len(results) > 0 {
			d.add(handoff.Message{Role: handoff.RoleTool, Timestamp: ts, Line: lineNo, ToolResults: results})
		}
		return nil
	case "info", "warning", "error":
		m.Role, m.Meta = handoff.RoleSystem, true
		if r.Type != "info" {
			m.Text = r.Type + ": " + text
		}
	default:
		return fmt.Errorf("unknown record type %q", r.Type)
	}
	d.add(m)
	return nil
}

// checkpoint reads a `/chat save` array of Gemini API contents.
func (p *geminiParser) checkpoint(d *Decoder, doc []byte) error {
	d.t.Session.Agent = "gemini-cli"
	return walkJSON(d, doc, "", nil, func(n int, raw json.RawMessage) error {
		var c struct {
			Role  string    `json:"role"`
			Parts []gemPart `json:"parts"`
		}
		if err := decodeJSON(raw, &c); err != nil {
			return d.recordError(n, fmt.Errorf("malformed content: %w", jsonReason(err)))
		}
		if c.Role != "user" && c.Role != "model" {
			return d.recordError(n, fmt.Errorf("unknown role %q", c.Role))
		}
		m := handoff.Message{Line: n, Role: handoff.RoleUser}
		if c.Role == "model" {
			m.Role = handoff.RoleAssistant
		}
		var results []handoff.ToolResult
		for _, part := range c.Parts {
			switch {
			case part.FunctionCall != nil:
				fc := part.FunctionCall
				m.ToolCalls = append(m.ToolCalls, handoff.ToolCall{ID: fc.ID, Name: fc.Name, Input: trimJSON(fc.Args)})
			case part.FunctionResponse != nil:
				fr := part.FunctionResponse
				out := gemResponse(fr.Response)
				r := handoff.ToolResult{CallID: fr.ID, Name: fr.Name, ExitCode: gemExitCode(out), IsError: gemIsError(fr.Response)}
				r.Content, r.OriginalBytes = d.clipOutput(gemShellFrame(out))
				results = append(results, r)
			case part.Thought:
				m.Thinking = joinText(m.Thinking, part.Text)
			default:
				m.Text = joinText(m.Text, part.Text)
			}
		}
		if len(results) > 0 {
			d.add(handoff.Message{Role: handoff.RoleTool, Line: n, ToolResults: results})
		}
		if m.Role == handoff.RoleUser {
			gemUserFlags(&m)
		}
		if strings.TrimSpace(m.Text) != "" || m.Thinking != "" || len(m.ToolCalls) > 0 {
			d.add(m)
		}
		return nil
	})
}

// gemUserFlags marks what Gemini CLI puts in the user's place: the
// <state_snapshot> its chat compression writes (the summary that carries
// the history forward) and slash commands.
func gemUserFlags(m *handoff.Message) {
	t := strings.TrimSpace(m.Text)
	switch {
	case strings.HasPrefix(t, "<state_snapshot>"):
		m.CompactSummary = true
	case strings.HasPrefix(t, "/"):
		m.Meta = true
	default:
		keepUserWords(m)
	}
}

// gemContent reads content: a string or an array of {text} parts.
func gemContent(raw json.RawMessage) (string, error) {
	raw = trimJSON(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if raw[0] == '"' {
		return jsonText(raw), nil
	}
	var parts []gemPart
	if err := decodeJSON(raw, &parts); err != nil {
		return "", fmt.Errorf("malformed content: %w", jsonReason(err))
	}
	var s string
	for _, p := range parts {
		s = joinText(s, p.Text)
	}
	return s, nil
}

// gemResponse flattens a functionResponse.response ({output} or {error};
// absent, or valid JSON from a decoded record).
func gemResponse(raw json.RawMessage) string {
	var r struct {
		Output json.RawMessage `json:"output"`
		Error  json.RawMessage `json:"error"`
	}
	if decodeValid(raw, &r) == nil {
		if s := jsonText(r.Output); s != "" {
			return s
		}
		if s := jsonText(r.Error); s != "" {
			return "Error: " + s
		}
	}
	return string(trimJSON(raw))
}

func gemIsError(raw json.RawMessage) bool {
	var r struct {
		Error json.RawMessage `json:"error"`
	}
	return decodeValid(raw, &r) == nil && len(r.Error) > 0 && string(r.Error) != "null"
}

// gemExitRe finds the exit code Gemini CLI's shell tool reports.
var gemExitRe = lazyRE(`Exit Code: (-?\d+)`)

func gemExitCode(s string) *int {
	m := gemExitRe.FindStringSubmatch(s)
	if m == nil {
		return nil
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return nil
	}
	return &n
}

// Gemini CLI's shell tool (and Qwen Code's, its fork) frames a command's
// output with a header and a footer of labelled lines:
//
//	Command: <the command>
//	Directory: (root)
//	Output: <first line of output>
//	…
//	Error: (none)
//	Exit Code: 0
//	Signal: (none)
//	Background PIDs: (none)
//	Process Group PGID: 40021
//
// The frame is the harness's, not the program's: the echoed command is
// not output, and "Error: (none)" read as output looks like a failure to
// every reader. gemShellFrame leaves the output and a real "Error: …";
// the exit code is read into the result (gemExitCode) first.
var (
	// gemHeaderRe is a header line: the echoed command and its directory.
	gemHeaderRe = lazyRE(`^(?:Command|Directory): `)
	// gemFooterRe is a footer field that says nothing happened, or one
	// whose number is no output (the exit code, read into the result;
	// the signal, the process ids). "Output: 404" is output.
	gemFooterRe = lazyRE(`^(?:(?:Error|Stderr|Stdout|Output|Signal|Background PIDs|Process Group PGID): \((?:none|empty)\)|(?:Exit Code|Signal|Process Group PGID): -?\d+|Background PIDs: \d+(?:, \d+)*)$`)
	// gemOutputRe is the label in front of the output's first line.
	gemOutputRe = lazyRE(`^(?:Output|Stdout|Stderr): `)
)

// gemShellFramed reports output in the shell frame: the echoed command
// first, a footer line after it.
func gemShellFramed(out string) bool {
	return strings.HasPrefix(out, "Command: ") &&
		(strings.Contains(out, "\nProcess Group PGID: ") || strings.Contains(out, "\nExit Code: ") || strings.Contains(out, "\nError: (none)"))
}

// gemShellFrame returns the output of a result in the shell frame
// (gemShellFramed) without the frame; other results as they are.
func gemShellFrame(out string) string {
	if !gemShellFramed(out) {
		return out
	}
	lines := strings.Split(out, "\n")
	kept := lines[:0]
	header := true
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if header && gemHeaderRe.MatchString(t) {
			continue
		}
		header = false
		if gemFooterRe.MatchString(t) {
			continue
		}
		if gemOutputRe.MatchString(t) {
			l = strings.TrimSpace(t[strings.IndexByte(t, ':')+1:])
			if l == "" {
				continue
			}
		}
		kept = append(kept, l)
	}
	return strings.TrimRight(strings.Join(kept, "\n"), "\n")
}

package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/handoff-cli/handoff"
)

// pi (badlogic/pi-mono, packages/coding-agent) keeps a session as
// ~/.pi/agent/sessions/--<cwd with / as ->--/<time>_<uuid>.jsonl
// (src/core/session-manager.ts; messages from packages/ai/src/types.ts):
// a header {type: "session", id, timestamp, cwd}, then entries linked by
// id/parentId: {type: "message", message: {role: user|assistant|
// toolResult, content, …}}, {type: "compaction", summary},
// {type: "model_change", modelId}, and others that are skipped.
//
// content is a string or blocks (text, thinking, toolCall {id, name,
// arguments}, image); an assistant message carries usage {input,
// output, cacheRead, cacheWrite} (input excludes the cache, as
// Anthropic reports it), model and, when the request failed,
// stopReason "error" and errorMessage (a system Message); a toolResult
// message is one result (toolCallId, toolName, isError). A compaction
// entry's summary is a CompactSummary. Entries are read in file order:
// a session branched in place (/tree) reads as one line of work.
// edit's oldText/newText are renamed old_string/new_string.

type piEntry struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	Cwd       string          `json:"cwd"`
	Summary   string          `json:"summary"`
	ModelID   string          `json:"modelId"`
	Message   json.RawMessage `json:"message"`
}

type piMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Model      string          `json:"model"`
	StopReason string          `json:"stopReason"`
	Error      string          `json:"errorMessage"`
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	IsError    bool            `json:"isError"`
	Command    string          `json:"command"`
	Output     string          `json:"output"`
	ExitCode   *int            `json:"exitCode"`
	Usage      *struct {
		Input      int `json:"input"`
		Output     int `json:"output"`
		CacheRead  int `json:"cacheRead"`
		CacheWrite int `json:"cacheWrite"`
	} `json:"usage"`
}

type piBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

var piKeys = map[string]string{"oldText": "old_string", "newText": "new_string"}

type piParser struct{}

func (piParser) pending() []handoff.Message { return nil }
func (piParser) finish(*Decoder) error      { return nil }

func (piParser) record(d *Decoder, line []byte, lineNo int) error {
	e, ok := piEntryFast(line)
	if !ok {
		e = piEntry{}
		if err := decodeJSON(line, &e); err != nil {
			return fmt.Errorf("malformed entry: %w", jsonReason(err))
		}
	}
	ts := parseTime(e.Timestamp)
	d.seeTime(ts)
	base := handoff.Message{ID: e.ID, Line: lineNo, Timestamp: ts}
	switch e.Type {
	case "session":
		d.t.Session.ID, d.t.Session.CWD = e.ID, e.Cwd
	case "model_change":
		d.t.Session.Model = firstNonEmpty(e.ModelID, d.t.Session.Model)
	case "compaction":
		if strings.TrimSpace(e.Summary) != "" {
			base.Role, base.Text, base.CompactSummary = handoff.RoleUser, e.Summary, true
			d.add(base)
		}
	case "message":
		m, ok := piMessageFast(e.Message)
		if !ok {
			m = piMessage{}
			if err := decodeJSON(e.Message, &m); err != nil {
				return fmt.Errorf("malformed message: %w", jsonReason(err))
			}
		}
		return piMessageTo(d, m, base)
	}
	return nil
}

func piMessageTo(d *Decoder, m piMessage, base handoff.Message) error {
	text, thinking, calls := "", "", []handoff.ToolCall(nil)
	var s string
	if c := skipSpace(m.Content, 0); (c >= len(m.Content) || m.Content[c] == '"' || m.Content[c] == 'n') && decodeJSON(m.Content, &s) == nil {
		text = s
	} else {
		blocks, ok := piBlocksFast(m.Content)
		if !ok && len(m.Content) > 0 {
			if err := decodeJSON(m.Content, &blocks); err != nil {
				return fmt.Errorf("malformed %s content: %w", m.Role, jsonReason(err))
			}
		}
		for _, b := range blocks {
			switch b.Type {
			case "text":
				text = joinText(text, b.Text)
			case "thinking":
				thinking = joinText(thinking, b.Thinking)
			case "toolCall":
				calls = append(calls, handoff.ToolCall{ID: b.ID, Name: b.Name, Input: renameKeys(b.Arguments, piKeys)})
			case "image":
				text = joinText(text, "[image]")
			}
		}
	}
	switch m.Role {
	case "user":
		if strings.TrimSpace(text) == "" {
			return nil
		}
		base.Role, base.Text = handoff.RoleUser, text
	case "assistant":
		base.Role, base.Text, base.Thinking, base.ToolCalls, base.Model = handoff.RoleAssistant, text, thinking, calls, m.Model
		if m.Model != "" {
			d.t.Session.Model = m.Model
		}
		if u := m.Usage; u != nil {
			base.Usage = &handoff.ProviderUsage{InputTokens: u.Input, OutputTokens: u.Output, CacheReadInputTokens: u.CacheRead, CacheCreationInputTokens: u.CacheWrite}
		}
		if text != "" || thinking != "" || len(calls) > 0 {
			d.add(base)
		}
		if m.StopReason == "error" || m.StopReason == "aborted" {
			e := handoff.Message{Line: base.Line, Timestamp: base.Timestamp, Role: handoff.RoleSystem, Meta: true,
				Text: "error: " + firstNonEmpty(m.Error, "the request failed")}
			if m.StopReason == "aborted" {
				e.Text, e.Interrupt = "[the person stopped the response]", true
			}
			d.add(e)
		}
		return nil
	case "toolResult":
		out, orig := d.clipOutput(text)
		base.Role = handoff.RoleTool
		base.ToolResults = []handoff.ToolResult{{CallID: m.ToolCallID, Name: firstNonEmpty(m.ToolName, "tool"), Content: out, OriginalBytes: orig, IsError: m.IsError}}
	case "bashExecution":
		// A command the person ran with "!": a call and its result.
		id := fmt.Sprintf("pi-bash-%d", base.Line)
		in, _ := json.Marshal(map[string]string{"command": m.Command})
		d.add(handoff.Message{Line: base.Line, Timestamp: base.Timestamp, Role: handoff.RoleAssistant, Meta: true,
			ToolCalls: []handoff.ToolCall{{ID: id, Name: "bash", Input: in}}})
		out, orig := d.clipOutput(m.Output)
		base.Role = handoff.RoleTool
		base.ToolResults = []handoff.ToolResult{{CallID: id, Name: "bash", Content: out, OriginalBytes: orig, ExitCode: m.ExitCode}}
	default:
		return nil
	}
	d.add(base)
	return nil
}

// piLine recognises pi's session header or a message entry.
func piLine(l *jsonLine) bool {
	return l.typ == "session" && l.has("cwd") && l.has("id") && l.has("version") ||
		l.typ == "message" && l.has("message") && l.has("parentId")
}

// The fast paths below read a pi line as json.Unmarshal into piEntry,
// piMessage and piBlock would, in one walk of the validated line
// (readMembers, as the Claude Code reader does) instead of a check and a
// decode at each level: a tool result's text was scanned five times. ok
// is false for anything they do not expect, and the caller then asks
// encoding/json, which reads it or names the error.

// piEntryFast reads an entry line; its Message is a slice of the line,
// valid until record returns.
func piEntryFast(line []byte) (e piEntry, ok bool) {
	ok = validObject(line) && readFields(line, fields{
		strs: map[string]*string{"type": &e.Type, "id": &e.ID, "timestamp": &e.Timestamp, "cwd": &e.Cwd, "summary": &e.Summary, "modelid": &e.ModelID},
		raws: map[string]*json.RawMessage{"message": &e.Message},
	})
	return e, ok
}

// piMessageFast reads a message of a validated line; its Content is a
// slice of the line.
func piMessageFast(raw []byte) (m piMessage, ok bool) {
	ok = readFields(raw, fields{
		strs: map[string]*string{"role": &m.Role, "model": &m.Model, "stopreason": &m.StopReason, "errormessage": &m.Error,
			"toolcallid": &m.ToolCallID, "toolname": &m.ToolName, "command": &m.Command, "output": &m.Output},
		raws:  map[string]*json.RawMessage{"content": &m.Content},
		other: map[string]any{"iserror": &m.IsError, "exitcode": &m.ExitCode, "usage": &m.Usage},
	})
	return m, ok
}

// piBlocksFast reads a content array of objects; arguments are copied
// out of the line.
func piBlocksFast(raw []byte) (blocks []piBlock, ok bool) {
	if i := skipSpace(raw, 0); i >= len(raw) || raw[i] != '[' {
		return nil, false
	}
	ok = true
	arrayElements(raw, func(elem []byte) {
		var b piBlock
		ok = ok && readFields(elem, fields{
			strs: map[string]*string{"type": &b.Type, "text": &b.Text, "thinking": &b.Thinking, "id": &b.ID, "name": &b.Name},
			raws: map[string]*json.RawMessage{"arguments": &b.Arguments},
		})
		b.Arguments = bytes.Clone(b.Arguments)
		blocks = append(blocks, b)
	})
	return blocks, ok
}

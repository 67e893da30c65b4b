package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/handoff-cli/handoff"
)

// OpenAI Chat Completions messages.
//
// Accepted layouts: a JSON array of messages; an object with "messages"
// (a request body; its "model" becomes Session.Model) or "choices" (a
// response); JSONL where each line is a message, an array or such an
// object. A document spread over several lines (pretty-printed) is
// buffered, bounded by MaxLineBytes, and decoded at the end.
//
// Roles system/developer, user, assistant, tool/function map to the
// handoff roles. tool_calls become ToolCalls (Input = the arguments JSON),
// a tool message becomes a RoleTool Message with one ToolResult (CallID =
// tool_call_id, Name from the message or the matching call). Anthropic
// style content blocks (tool_use, tool_result, thinking) in a content
// array are read too, so Anthropic Messages arrays parse the same way.
//
// Message.Line is the source line for JSONL of single messages, and the
// record number (1-based, counted over the whole input) for messages
// inside an array.

type oaMessage struct {
	Role             string          `json:"role"`
	Name             string          `json:"name"`
	Content          json.RawMessage `json:"content"`
	ReasoningContent json.RawMessage `json:"reasoning_content"`
	Refusal          json.RawMessage `json:"refusal"`
	ToolCalls        []oaToolCall    `json:"tool_calls"`
	FunctionCall     *oaFunction     `json:"function_call"`
	ToolCallID       string          `json:"tool_call_id"`
}

type oaToolCall struct {
	ID       string     `json:"id"`
	Function oaFunction `json:"function"`
}

type oaFunction struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// oaPart is one content part, OpenAI or Anthropic style.
type oaPart struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Refusal   string          `json:"refusal"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   resultContent   `json:"content"`
	IsError   json.RawMessage `json:"is_error"`
}

type openaiMode int

const (
	modeUnknown  openaiMode = iota // no record seen yet
	modeLines                      // one JSON value per line
	modeDocument                   // one JSON document over many lines
)

type openaiParser struct {
	mode      openaiMode
	doc       []byte
	docTooBig bool
	records   int // messages read, for Line in document mode
	toolNames map[string]string
}

func (p *openaiParser) pending() []handoff.Message { return nil }

func (p *openaiParser) record(d *Decoder, line []byte, lineNo int) error {
	if p.mode == modeDocument {
		p.buffer(d, line)
		return nil
	}
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return nil
	}
	if p.mode == modeUnknown && !json.Valid(trimmed) {
		// The first record is not a whole JSON value: a pretty-printed
		// document. Collect it all.
		p.mode = modeDocument
		p.buffer(d, line)
		return nil
	}
	p.mode = modeLines
	return p.value(d, trimmed, lineNo)
}

// buffer adds one line to the multi-line document.
func (p *openaiParser) buffer(d *Decoder, line []byte) {
	if p.docTooBig {
		return
	}
	if len(p.doc)+len(line)+1 > d.opts.MaxLineBytes {
		p.docTooBig = true
		p.doc = nil
		return
	}
	p.doc = append(p.doc, line...)
	p.doc = append(p.doc, '\n')
}

func (p *openaiParser) finish(d *Decoder) error {
	if p.mode != modeDocument {
		return nil
	}
	if p.docTooBig {
		return handoff.Errorf(handoff.EINVALID, "%s: OpenAI chat JSON document is larger than the %d-byte limit", d.opts.sourceName(), d.opts.MaxLineBytes)
	}
	if err := p.value(d, bytes.TrimSpace(p.doc), 0); err != nil {
		return handoff.Errorf(handoff.EINVALID, "%s: not an OpenAI chat transcript: %v", d.opts.sourceName(), err)
	}
	p.doc = nil
	return nil
}

// value reads one JSON value: a message, an array of messages, or an
// object holding messages. lineNo 0 means document mode, where a bad
// message is a warning of its own rather than the line's.
func (p *openaiParser) value(d *Decoder, v []byte, lineNo int) error {
	switch v[0] {
	case '[':
		var arr []json.RawMessage
		if err := decodeJSON(v, &arr); err != nil {
			return fmt.Errorf("malformed JSON: %w", jsonReason(err))
		}
		return p.messages(d, arr, lineNo)
	case '{':
		var obj map[string]json.RawMessage
		if err := decodeJSON(v, &obj); err != nil {
			return fmt.Errorf("malformed JSON: %w", jsonReason(err))
		}
		if raw, ok := obj["messages"]; ok {
			var arr []json.RawMessage
			if err := decodeJSON(raw, &arr); err != nil {
				return fmt.Errorf("\"messages\" is not an array: %w", jsonReason(err))
			}
			if m := jsonText(obj["model"]); m != "" {
				d.t.Session.Model = m
			}
			return p.messages(d, arr, lineNo)
		}
		if raw, ok := obj["choices"]; ok {
			var choices []struct {
				Message json.RawMessage `json:"message"`
			}
			if err := decodeJSON(raw, &choices); err != nil {
				return fmt.Errorf("\"choices\" is not an array: %w", jsonReason(err))
			}
			if m := jsonText(obj["model"]); m != "" {
				d.t.Session.Model = m
			}
			for _, c := range choices {
				if len(c.Message) > 0 {
					return p.messages(d, []json.RawMessage{c.Message}, lineNo)
				}
			}
			return errors.New("response has no choices[].message")
		}
		return p.message(d, v, lineNo)
	}
	return errors.New("not a JSON object or array")
}

func (p *openaiParser) messages(d *Decoder, arr []json.RawMessage, lineNo int) error {
	var firstErr error
	for _, raw := range arr {
		if err := p.message(d, raw, 0); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			if lineNo == 0 {
				if d.opts.Strict {
					return fmt.Errorf("record %d: %w", p.records, err)
				}
				d.warn(0, fmt.Sprintf("record %d: %v", p.records, err))
			}
		}
	}
	if lineNo == 0 {
		return nil
	}
	return firstErr
}

// message reads one message object. Line is its source line, or 0 for a
// message inside an array, which is numbered by record instead.
func (p *openaiParser) message(d *Decoder, raw json.RawMessage, lineNo int) error {
	p.records++
	line := lineNo
	if line == 0 {
		line = p.records
	}
	var m oaMessage
	if err := decodeJSON(raw, &m); err != nil {
		return fmt.Errorf("malformed message: %w", jsonReason(err))
	}
	base := handoff.Message{Line: line}
	switch strings.ToLower(m.Role) {
	case "system", "developer":
		base.Role = handoff.RoleSystem
	case "user", "human":
		base.Role = handoff.RoleUser
	case "assistant", "model", "ai":
		base.Role = handoff.RoleAssistant
	case "tool", "function":
		base.Role = handoff.RoleTool
	case "":
		return errors.New("message has no role")
	default:
		return fmt.Errorf("unknown role %q", m.Role)
	}
	text, thinking, calls, results, err := p.content(d, m.Content)
	if err != nil {
		return err
	}
	if r := jsonText(m.ReasoningContent); r != "" {
		thinking = joinText(r, thinking)
	}
	if r := jsonText(m.Refusal); r != "" {
		text = joinText(text, r)
	}
	for _, c := range m.ToolCalls {
		calls = append(calls, p.call(c.ID, c.Function))
	}
	if m.FunctionCall != nil {
		calls = append(calls, p.call("", *m.FunctionCall))
	}

	if base.Role == handoff.RoleTool {
		name := m.Name
		if name == "" {
			name = p.toolNames[m.ToolCallID]
		}
		r := handoff.ToolResult{CallID: m.ToolCallID, Name: name}
		r.Content, r.OriginalBytes = d.clipOutput(text)
		r.ExitCode = exitCodeFromText(r.Content)
		base.ToolResults = append([]handoff.ToolResult{r}, results...)
		d.add(base)
		return nil
	}
	if len(results) > 0 { // Anthropic style: results ride on a user message
		tm := base
		tm.Role = handoff.RoleTool
		tm.ToolResults = results
		d.add(tm)
		if strings.TrimSpace(text) == "" {
			return nil
		}
	}
	base.Text, base.Thinking, base.ToolCalls = text, thinking, calls
	if base.Role == handoff.RoleUser {
		keepUserWords(&base)
	}
	if base.Role == handoff.RoleSystem {
		base.Meta = true
	}
	d.add(base)
	return nil
}

// call turns a function call into a ToolCall and remembers its name.
func (p *openaiParser) call(id string, f oaFunction) handoff.ToolCall {
	if id != "" {
		p.toolNames[id] = f.Name
	}
	return handoff.ToolCall{ID: id, Name: f.Name, Input: arguments(f.Arguments)}
}

// arguments returns a call's arguments as JSON: the decoded string when it
// holds JSON (the usual case), the string itself as a JSON string when it
// does not, or an object given directly.
func arguments(raw json.RawMessage) json.RawMessage {
	raw = trimJSON(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] != '"' {
		return append(json.RawMessage(nil), raw...)
	}
	s := jsonText(raw)
	if validJSON([]byte(s)) {
		return json.RawMessage(s)
	}
	return append(json.RawMessage(nil), raw...)
}

// content reads a message's content: a string or an array of parts.
func (p *openaiParser) content(d *Decoder, raw json.RawMessage) (text, thinking string, calls []handoff.ToolCall, results []handoff.ToolResult, err error) {
	raw = trimJSON(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", "", nil, nil, nil
	}
	switch raw[0] {
	case '"':
		return jsonText(raw), "", nil, nil, nil
	case '[':
	default:
		return "", "", nil, nil, errors.New("content is neither a string nor an array of parts")
	}
	var parts []oaPart
	if err := decodeValid(raw, &parts); err != nil { // raw is a value of the decoded message
		return "", "", nil, nil, fmt.Errorf("malformed content parts: %w", jsonReason(err))
	}
	for _, part := range parts {
		switch part.Type {
		case "text", "input_text", "output_text", "":
			text = joinText(text, part.Text)
		case "refusal":
			text = joinText(text, part.Refusal)
		case "image_url", "input_image", "image":
			text = joinText(text, "[image]")
		case "input_audio":
			text = joinText(text, "[audio]")
		case "file", "input_file", "document":
			text = joinText(text, "[file]")
		case "thinking":
			thinking = joinText(thinking, part.Thinking)
		case "tool_use":
			if part.ID != "" {
				p.toolNames[part.ID] = part.Name
			}
			calls = append(calls, handoff.ToolCall{ID: part.ID, Name: part.Name, Input: part.Input})
		case "tool_result":
			r := handoff.ToolResult{CallID: part.ToolUseID, Name: p.toolNames[part.ToolUseID], IsError: flag(part.IsError)}
			r.Content, r.OriginalBytes = d.clipOutput(string(part.Content))
			r.ExitCode = exitCodeFromText(r.Content)
			results = append(results, r)
		}
	}
	return text, thinking, calls, results, nil
}

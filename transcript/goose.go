package transcript

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/handoff-cli/handoff"
)

// Goose (block/goose) sessions as JSONL, ~/.local/share/goose/sessions/
// <id>.jsonl (crates/goose/src/session/storage.rs before the move to
// sessions.db; message.rs for the content): a first line of session
// metadata {working_dir, description, total_tokens, input_tokens,
// output_tokens, …}, then one message a line {id, role, created (Unix
// seconds), content: [...]}. Content items: text, thinking, toolRequest
// {id, toolCall: {status, value: {name, arguments}}} (a call; an error
// status, a call that could not be made, is a failed result),
// toolResponse {id, toolResult: {status, value: [{type: text, text}] or
// error}} (a result, IsError unless status is success; newer Goose
// writes value as the MCP CallToolResult {content, isError}, per
// crates/goose/src/conversation/tool_result_serde.rs), a
// frontendToolRequest (a call the desktop app runs) like a toolRequest,
// and
// contextLengthExceeded / summarizationRequested notices (system, Meta).
// The metadata's input/output tokens are the session's latest totals,
// the Usage of the last assistant message.

type gooseMeta struct {
	WorkingDir   string `json:"working_dir"`
	Description  string `json:"description"`
	InputTokens  *int   `json:"input_tokens"`
	OutputTokens *int   `json:"output_tokens"`
}

// gooseText is an MCP content item of a tool's result.
type gooseText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type gooseMessage struct {
	ID      string            `json:"id"`
	Role    string            `json:"role"`
	Created int64             `json:"created"`
	Content []json.RawMessage `json:"content"`
}

type gooseItem struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Thinking string `json:"thinking"`
	Msg      string `json:"msg"`
	ID       string `json:"id"`
	ToolCall *struct {
		Status string `json:"status"`
		Value  struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"value"`
		Error string `json:"error"`
	} `json:"toolCall"`
	ToolResult *struct {
		Status string          `json:"status"`
		Value  json.RawMessage `json:"value"`
		Error  string          `json:"error"`
	} `json:"toolResult"`
}

type gooseParser struct {
	meta      *gooseMeta
	names     map[string]string
	lastAsstt int
}

func newGooseParser() formatParser { return &gooseParser{names: map[string]string{}, lastAsstt: -1} }

func (p *gooseParser) pending() []handoff.Message { return nil }

func (p *gooseParser) finish(d *Decoder) error {
	if p.meta != nil && p.lastAsstt >= 0 && p.meta.InputTokens != nil && d.t.Messages[p.lastAsstt].Usage == nil {
		u := &handoff.ProviderUsage{InputTokens: *p.meta.InputTokens}
		if p.meta.OutputTokens != nil {
			u.OutputTokens = *p.meta.OutputTokens
		}
		d.t.Messages[p.lastAsstt].Usage = u
	}
	return nil
}

func (p *gooseParser) record(d *Decoder, line []byte, lineNo int) error {
	d.t.Session.Agent = "goose"
	decode := jsonDecoder(line)
	var obj map[string]json.RawMessage
	if err := decode(line, &obj); err != nil {
		return fmt.Errorf("malformed line: %w", jsonReason(err))
	}
	if _, isMsg := obj["role"]; !isMsg {
		if _, ok := obj["working_dir"]; ok {
			var m gooseMeta
			if err := decode(line, &m); err != nil {
				return fmt.Errorf("malformed session metadata: %w", jsonReason(err))
			}
			p.meta = &m
			d.t.Session.CWD, d.t.Session.Title = m.WorkingDir, m.Description
			return nil
		}
		return fmt.Errorf("line is neither session metadata nor a message")
	}
	var m gooseMessage
	if err := decode(line, &m); err != nil {
		return fmt.Errorf("malformed message: %w", jsonReason(err))
	}
	return p.message(d, m, lineNo, decode)
}

// message maps one Goose message, from a JSONL line or a sessions.db
// row; decode is the record's (jsonDecoder).
func (p *gooseParser) message(d *Decoder, m gooseMessage, lineNo int, decode func([]byte, any) error) error {
	ts := time.Time{}
	if m.Created > 0 {
		ts = time.Unix(m.Created, 0).UTC()
	}
	d.seeTime(ts)
	msg := handoff.Message{ID: m.ID, Line: lineNo, Timestamp: ts}
	var results []handoff.ToolResult
	var notices []string
	for _, raw := range m.Content {
		var it gooseItem
		if decode(raw, &it) != nil {
			continue
		}
		switch it.Type {
		case "text":
			msg.Text = joinText(msg.Text, it.Text)
		case "thinking":
			msg.Thinking = joinText(msg.Thinking, it.Thinking)
		case "toolRequest", "frontendToolRequest":
			if it.ToolCall == nil {
				continue
			}
			name := firstNonEmpty(it.ToolCall.Value.Name, "tool")
			p.names[it.ID] = name
			msg.ToolCalls = append(msg.ToolCalls, handoff.ToolCall{ID: it.ID, Name: name, Input: it.ToolCall.Value.Arguments})
			if it.ToolCall.Status == "error" {
				results = append(results, handoff.ToolResult{CallID: it.ID, Name: name, IsError: true, Content: it.ToolCall.Error})
			}
		case "toolResponse":
			if it.ToolResult == nil {
				continue
			}
			r := handoff.ToolResult{CallID: it.ID, Name: firstNonEmpty(p.names[it.ID], "tool"), IsError: it.ToolResult.Status != "success"}
			out := it.ToolResult.Error
			var items []gooseText
			if decode(it.ToolResult.Value, &items) != nil {
				// Newer Goose writes the MCP CallToolResult itself.
				var res struct {
					Content []gooseText `json:"content"`
					IsError bool        `json:"isError"`
				}
				if decode(it.ToolResult.Value, &res) == nil {
					items, r.IsError = res.Content, r.IsError || res.IsError
				}
			}
			for _, c := range items {
				out = joinText(out, c.Text)
			}
			r.Content, r.OriginalBytes = d.clipOutput(out)
			results = append(results, r)
		case "contextLengthExceeded", "summarizationRequested":
			notices = append(notices, it.Type+": "+it.Msg)
		}
	}
	switch m.Role {
	case "assistant":
		msg.Role = handoff.RoleAssistant
		if msg.Text != "" || msg.Thinking != "" || len(msg.ToolCalls) > 0 {
			p.lastAsstt = d.add(msg)
		}
	case "user":
		msg.Role = handoff.RoleUser
		if strings.TrimSpace(msg.Text) != "" {
			d.add(msg)
		}
	default:
		return fmt.Errorf("message role %q is neither user nor assistant", m.Role)
	}
	if len(results) > 0 {
		d.add(handoff.Message{Line: lineNo, Timestamp: ts, Role: handoff.RoleTool, ToolResults: results})
	}
	for _, n := range notices {
		d.add(handoff.Message{Line: lineNo, Timestamp: ts, Role: handoff.RoleSystem, Meta: true, Text: n})
	}
	return nil
}

// gooseLine recognises a Goose session's metadata line or a message
// whose content items are Goose's (toolRequest, toolResponse).
func gooseLine(l *jsonLine) bool {
	if l.has("working_dir") && l.has("description") && !l.has("role") {
		return true
	}
	if !l.has("role") || !l.has("created") || !l.has("content") {
		return false
	}
	c := string(l.obj["content"])
	return strings.Contains(c, `"toolRequest"`) || strings.Contains(c, `"toolResponse"`) || l.has("id") && strings.HasPrefix(strings.TrimSpace(c), "[")
}

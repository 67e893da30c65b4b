package transcript

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/handoff-cli/handoff"
)

// `codex exec --json` output: one event per line — thread.started,
// turn.started/completed/failed, item.started/updated/completed, error.
//
// Completed items become messages: agent_message (assistant_message in
// early versions) an assistant Message; reasoning the Thinking of the next
// one; command_execution a "shell" ToolCall ({"command": …}) and its
// result (aggregated_output, exit_code, IsError when failed or declined);
// file_change an "apply_patch" call with the changes; mcp_tool_call a call
// named after the tool with its arguments and result; web_search a
// "web_search" call; error items and turn.failed/error events system
// Messages (Meta). A todo_list (on start, update or completion) becomes an
// "update_plan" call with {"plan": [{step, status}]}, the shape the
// extractor reads as the task list. The user's prompt is not in the
// stream. turn.completed usage is the turn's total over all its requests,
// not one request's prompt, so it is not taken as context usage.

type codexExecEvent struct {
	Type     string          `json:"type"`
	ThreadID string          `json:"thread_id"`
	Item     *codexExecItem  `json:"item"`
	Error    json.RawMessage `json:"error"`
	Message  string          `json:"message"`
}

type codexExecItem struct {
	ID               string          `json:"id"`
	Type             string          `json:"type"`
	ItemType         string          `json:"item_type"` // before 0.44
	Text             string          `json:"text"`
	Command          string          `json:"command"`
	AggregatedOutput string          `json:"aggregated_output"`
	ExitCode         *int            `json:"exit_code"`
	Status           string          `json:"status"`
	Changes          json.RawMessage `json:"changes"`
	Server           string          `json:"server"`
	Tool             string          `json:"tool"`
	Arguments        json.RawMessage `json:"arguments"`
	Result           json.RawMessage `json:"result"`
	Error            json.RawMessage `json:"error"`
	Query            string          `json:"query"`
	Message          string          `json:"message"`
	Items            []struct {
		Text      string `json:"text"`
		Completed bool   `json:"completed"`
	} `json:"items"`
}

type codexExecParser struct {
	thinking string
}

func (p *codexExecParser) pending() []handoff.Message { return nil }
func (p *codexExecParser) finish(*Decoder) error      { return nil }

func (p *codexExecParser) record(d *Decoder, line []byte, lineNo int) error {
	if isBlank(line) {
		return nil
	}
	var e codexExecEvent
	if err := json.Unmarshal(line, &e); err != nil {
		return fmt.Errorf("malformed JSON: %w", jsonReason(err))
	}
	base := handoff.Message{Line: lineNo}
	switch e.Type {
	case "":
		return errors.New("event has no type")
	case "thread.started":
		if d.t.Session.ID == "" {
			d.t.Session.ID = e.ThreadID
		}
	case "turn.failed", "error":
		msg := e.Message
		if msg == "" {
			var er struct {
				Message string `json:"message"`
			}
			_ = json.Unmarshal(e.Error, &er)
			msg = er.Message
		}
		if msg != "" {
			base.Role, base.Text, base.Meta = handoff.RoleSystem, "error: "+msg, true
			d.add(base)
		}
	case "item.started", "item.updated", "item.completed":
		if e.Item == nil {
			return errors.New(e.Type + " without an item")
		}
		p.item(d, base, e.Item, e.Type == "item.completed")
	}
	return nil
}

func (p *codexExecParser) item(d *Decoder, base handoff.Message, it *codexExecItem, completed bool) {
	typ := it.Type
	if typ == "" {
		typ = it.ItemType
	}
	if typ == "todo_list" {
		type step struct {
			Step   string `json:"step"`
			Status string `json:"status"`
		}
		plan := make([]step, 0, len(it.Items))
		for _, s := range it.Items {
			st := "pending"
			if s.Completed {
				st = "completed"
			}
			plan = append(plan, step{s.Text, st})
		}
		in, _ := json.Marshal(map[string]any{"plan": plan})
		p.assistant(d, base, "", handoff.ToolCall{ID: it.ID, Name: "update_plan", Input: in})
		return
	}
	if !completed {
		return
	}
	failed := it.Status == "failed" || it.Status == "declined"
	switch typ {
	case "agent_message", "assistant_message":
		p.assistant(d, base, it.Text)
	case "reasoning":
		p.thinking = joinText(p.thinking, it.Text)
	case "command_execution":
		in, _ := json.Marshal(map[string]string{"command": it.Command})
		p.assistant(d, base, "", handoff.ToolCall{ID: it.ID, Name: "shell", Input: in})
		r := handoff.ToolResult{CallID: it.ID, Name: "shell", ExitCode: it.ExitCode, IsError: failed}
		r.Content, r.OriginalBytes = d.clipOutput(it.AggregatedOutput)
		p.result(d, base, r)
	case "file_change":
		in, _ := json.Marshal(map[string]json.RawMessage{"changes": orNull(it.Changes)})
		p.assistant(d, base, "", handoff.ToolCall{ID: it.ID, Name: "apply_patch", Input: in})
		p.result(d, base, handoff.ToolResult{CallID: it.ID, Name: "apply_patch", Content: it.Status, IsError: failed})
	case "mcp_tool_call":
		name := it.Tool
		if it.Server != "" {
			name = "mcp__" + it.Server + "__" + it.Tool
		}
		p.assistant(d, base, "", handoff.ToolCall{ID: it.ID, Name: name, Input: trimJSON(it.Arguments)})
		out := string(trimJSON(it.Result))
		if e := string(trimJSON(it.Error)); e != "" && e != "null" {
			out, failed = joinText(out, e), true
		}
		r := handoff.ToolResult{CallID: it.ID, Name: name, IsError: failed}
		r.Content, r.OriginalBytes = d.clipOutput(out)
		p.result(d, base, r)
	case "web_search":
		in, _ := json.Marshal(map[string]string{"query": it.Query})
		p.assistant(d, base, "", handoff.ToolCall{ID: it.ID, Name: "web_search", Input: in})
	case "error":
		if msg := strings.TrimSpace(joinText(it.Message, it.Text)); msg != "" {
			base.Role, base.Text, base.Meta = handoff.RoleSystem, "error: "+msg, true
			d.add(base)
		}
	}
}

// assistant adds an assistant Message (text and/or calls) with the
// pending reasoning, or adds the calls to the assistant Message just
// before when nothing came between.
func (p *codexExecParser) assistant(d *Decoder, base handoff.Message, text string, calls ...handoff.ToolCall) {
	if n := len(d.t.Messages); n > 0 && text == "" && p.thinking == "" && d.t.Messages[n-1].Role == handoff.RoleAssistant {
		m := &d.t.Messages[n-1]
		m.ToolCalls = append(m.ToolCalls, calls...)
		return
	}
	base.Role, base.Text, base.Thinking, base.ToolCalls = handoff.RoleAssistant, text, p.thinking, calls
	p.thinking = ""
	d.add(base)
}

func (p *codexExecParser) result(d *Decoder, base handoff.Message, r handoff.ToolResult) {
	base.Role, base.ToolResults = handoff.RoleTool, []handoff.ToolResult{r}
	d.add(base)
}

func orNull(raw json.RawMessage) json.RawMessage {
	if len(trimJSON(raw)) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

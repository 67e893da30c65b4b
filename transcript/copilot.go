package transcript

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
)

// GitHub Copilot CLI keeps each session as
// ~/.copilot/session-state/<id>/events.jsonl: one event a line,
// {type, id, parentId, timestamp, data[, agentId]}, typed as in the
// Copilot SDK's generated session-events.ts (github/copilot-sdk,
// nodejs/src/generated/session-events.ts).
//
// session.start / session.resume give the session id, version, model
// and working directory (data.context.cwd, branch); user.message is the
// person's (data.content; attachments as "[file: path]"); an
// assistant.message is an assistant turn with its reasoningText as
// Thinking and its toolRequests as calls; tool.execution_complete is a
// call's result (success false is IsError; a bash result's "<exited with
// exit code N>" is its exit code); assistant.usage is the Usage of the
// latest assistant turn (inputTokens counts cached tokens, as OpenAI
// reports it); session.compaction_complete's summaryContent is a
// CompactSummary; session.error and model.call_failure are system
// Messages; abort is the person stopping the turn; session.task_complete
// ends the session as task complete. Events of a sub-agent (agentId set,
// or parentToolCallId) are Sidechain. update_todo's markdown checklist
// becomes a todos[] plan.

type copilotEvent struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	AgentID   string          `json:"agentId"`
	Data      json.RawMessage `json:"data"`
}

type copilotData struct {
	SessionID      string `json:"sessionId"`
	CopilotVersion string `json:"copilotVersion"`
	SelectedModel  string `json:"selectedModel"`
	NewModel       string `json:"newModel"`
	Context        *struct {
		Cwd    string `json:"cwd"`
		Branch string `json:"branch"`
	} `json:"context"`
	Content       string `json:"content"`
	MessageID     string `json:"messageId"`
	Model         string `json:"model"`
	ReasoningText string `json:"reasoningText"`
	ParentToolID  string `json:"parentToolCallId"`
	ToolRequests  []struct {
		ToolCallID string          `json:"toolCallId"`
		Name       string          `json:"name"`
		Arguments  json.RawMessage `json:"arguments"`
	} `json:"toolRequests"`
	Attachments []struct {
		Type        string `json:"type"`
		Path        string `json:"path"`
		DisplayName string `json:"displayName"`
	} `json:"attachments"`
	ToolCallID string `json:"toolCallId"`
	Success    *bool  `json:"success"`
	Result     *struct {
		Content         string `json:"content"`
		DetailedContent string `json:"detailedContent"`
	} `json:"result"`
	Error json.RawMessage `json:"error"`
	// assistant.usage
	InputTokens      int `json:"inputTokens"`
	OutputTokens     int `json:"outputTokens"`
	CacheReadTokens  int `json:"cacheReadTokens"`
	CacheWriteTokens int `json:"cacheWriteTokens"`
	// session.compaction_complete, session.error, abort, task_complete
	SummaryContent string `json:"summaryContent"`
	Message        string `json:"message"`
	ErrorType      string `json:"errorType"`
	Reason         string `json:"reason"`
	Summary        string `json:"summary"`
}

// copilotParser reads events.jsonl line by line.
type copilotParser struct {
	toolNames map[string]string
	thinking  string
	// lastAssistant is the index of the latest main-thread assistant
	// turn, which assistant.usage belongs to.
	lastAssistant int
}

func newCopilotParser() formatParser {
	return &copilotParser{toolNames: map[string]string{}, lastAssistant: -1}
}

func (p *copilotParser) pending() []handoff.Message { return nil }
func (p *copilotParser) finish(*Decoder) error      { return nil }

// copilotExitRe is the exit line Copilot CLI's bash tool ends output with.
var copilotExitRe = lazyRE(`<exited with exit code (-?\d+)>\s*$`)

func (p *copilotParser) record(d *Decoder, line []byte, lineNo int) error {
	if len(strings.TrimSpace(string(line))) == 0 {
		return nil
	}
	var e copilotEvent
	if err := decodeJSON(line, &e); err != nil {
		return fmt.Errorf("malformed event: %w", jsonReason(err))
	}
	if e.Type == "" {
		return fmt.Errorf("event without a type")
	}
	var data copilotData
	if len(e.Data) > 0 && string(e.Data) != "null" {
		if err := decodeJSON(e.Data, &data); err != nil {
			return fmt.Errorf("%s event: malformed data: %w", e.Type, jsonReason(err))
		}
	}
	ts := parseTime(e.Timestamp)
	d.seeTime(ts)
	side := e.AgentID != "" || data.ParentToolID != ""
	m := handoff.Message{ID: e.ID, Line: lineNo, Timestamp: ts, Sidechain: side}
	s := &d.t.Session
	switch e.Type {
	case "session.start", "session.resume":
		if data.SessionID != "" {
			s.ID = data.SessionID
		}
		if data.CopilotVersion != "" {
			s.Version = data.CopilotVersion
		}
		if data.SelectedModel != "" {
			s.Model = data.SelectedModel
		}
		if c := data.Context; c != nil {
			s.CWD, s.GitBranch = firstNonEmpty(c.Cwd, s.CWD), firstNonEmpty(c.Branch, s.GitBranch)
		}
	case "session.model_change":
		if data.NewModel != "" {
			s.Model = data.NewModel
		}
	case "user.message":
		text := data.Content
		for _, a := range data.Attachments {
			text = joinText(text, "[file: "+firstNonEmpty(a.Path, a.DisplayName, a.Type)+"]")
		}
		if strings.TrimSpace(text) == "" {
			return nil
		}
		m.Role, m.Text = handoff.RoleUser, text
		d.add(m)
	case "assistant.reasoning":
		p.thinking = joinText(p.thinking, data.Content)
	case "assistant.message":
		m.Role, m.Text, m.Model = handoff.RoleAssistant, data.Content, data.Model
		m.Thinking, p.thinking = joinText(p.thinking, data.ReasoningText), ""
		if data.MessageID != "" {
			m.ID = data.MessageID
		}
		for _, r := range data.ToolRequests {
			p.toolNames[r.ToolCallID] = r.Name
			m.ToolCalls = append(m.ToolCalls, handoff.ToolCall{ID: r.ToolCallID, Name: r.Name, Input: copilotInput(r.Name, r.Arguments)})
		}
		if m.Text == "" && m.Thinking == "" && len(m.ToolCalls) == 0 {
			return nil
		}
		i := d.add(m)
		if !side {
			p.lastAssistant = i
		}
	case "tool.execution_complete":
		r := handoff.ToolResult{CallID: data.ToolCallID, Name: p.toolNames[data.ToolCallID]}
		if r.Name == "" {
			r.Name = "tool"
		}
		out := ""
		if data.Result != nil {
			out = firstNonEmpty(data.Result.Content, data.Result.DetailedContent)
		}
		if data.Success != nil && !*data.Success {
			r.IsError = true
			out = joinText(copilotError(data.Error), out)
		}
		if mm := copilotExitRe.FindStringSubmatch(out); mm != nil {
			if n, err := strconv.Atoi(mm[1]); err == nil {
				r.ExitCode = &n
			}
		}
		r.Content, r.OriginalBytes = d.clipOutput(out)
		m.Role, m.ToolResults = handoff.RoleTool, []handoff.ToolResult{r}
		d.add(m)
	case "assistant.usage":
		if side || p.lastAssistant < 0 {
			return nil
		}
		d.t.Messages[p.lastAssistant].Usage = &handoff.ProviderUsage{
			InputTokens: max(data.InputTokens-data.CacheReadTokens, 0), CacheReadInputTokens: data.CacheReadTokens,
			CacheCreationInputTokens: data.CacheWriteTokens, OutputTokens: data.OutputTokens,
		}
	case "session.compaction_complete":
		if strings.TrimSpace(data.SummaryContent) != "" {
			m.Role, m.Text, m.CompactSummary = handoff.RoleUser, data.SummaryContent, true
			d.add(m)
		}
	case "session.error", "model.call_failure":
		m.Role, m.Meta, m.Text = handoff.RoleSystem, true, "error: "+firstNonEmpty(data.Message, data.ErrorType, e.Type)
		d.add(m)
	case "abort":
		m.Role, m.Meta, m.Interrupt = handoff.RoleSystem, true, true
		m.Text = "[the person stopped the response]"
		d.add(m)
	case "session.task_complete":
		s.EndSignal = EndTaskComplete
	}
	if e.Type == "user.message" && !side && s.EndSignal == EndTaskComplete {
		s.EndSignal = "" // the person asked for more after it
	}
	return nil
}

// copilotError reads a tool error: {code, message} or a string.
func copilotError(raw json.RawMessage) string {
	var e struct {
		Message string `json:"message"`
		Code    string `json:"code"`
	}
	if decodeJSON(raw, &e) == nil && e.Message != "" {
		return e.Message
	}
	var s string
	if decodeJSON(raw, &s) == nil {
		return s
	}
	return ""
}

// copilotInput returns a call's arguments, with update_todo's markdown
// checklist ("- [x] done\n- [ ] next") turned into the todos[] list a
// plan is read from.
func copilotInput(name string, args json.RawMessage) json.RawMessage {
	if name != "update_todo" {
		return args
	}
	var in struct {
		Todos string `json:"todos"`
	}
	if decodeJSON(args, &in) != nil || in.Todos == "" {
		return args
	}
	type todo struct {
		Content string `json:"content"`
		Status  string `json:"status"`
	}
	var todos []todo
	for _, l := range strings.Split(in.Todos, "\n") {
		l = strings.TrimSpace(l)
		for _, box := range []struct{ mark, status string }{{"- [x] ", "completed"}, {"- [X] ", "completed"}, {"- [ ] ", "pending"}} {
			if strings.HasPrefix(l, box.mark) {
				todos = append(todos, todo{strings.TrimSpace(l[len(box.mark):]), box.status})
			}
		}
	}
	if len(todos) == 0 {
		return args
	}
	out, err := json.Marshal(map[string]any{"todos": todos})
	if err != nil {
		return args
	}
	return out
}

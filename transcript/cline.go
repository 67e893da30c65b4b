package transcript

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/handoff-cli/handoff"
)

// Cline (and Roo Code) task history: ui_messages.json, a JSON array of
// {ts, type: "say"|"ask", say|ask: kind, text, images, partial}. (The
// sibling api_conversation_history.json is an Anthropic messages array
// and reads as openai-chat.)
//
// say "task" and "user_feedback" are user Messages; say "text",
// "completion_result" and ask "followup"/"completion_result" are
// assistant Messages (a followup's JSON {question} gives its text);
// say "reasoning" is the next assistant Message's Thinking; "tool"
// (text is JSON {tool, path, …}) is a ToolCall named after the tool with
// that JSON as Input; "command" is an "execute_command" ToolCall and the
// "command_output" messages after it are its result; "error",
// "api_req_failed" and "mistake_limit_reached" are system Messages
// (Meta); "api_req_started" (JSON {tokensIn, tokensOut, cacheWrites,
// cacheReads}) is the Usage of the next assistant Message; a Roo Code
// contextCondense {summary} is a CompactSummary. Streaming fragments
// (partial: true) and bookkeeping kinds are skipped.

type clineMessage struct {
	TS              json.RawMessage `json:"ts"`
	Type            string          `json:"type"`
	Say             string          `json:"say"`
	Ask             string          `json:"ask"`
	Text            string          `json:"text"`
	Images          []string        `json:"images"`
	Partial         bool            `json:"partial"`
	Reasoning       string          `json:"reasoning"`
	ContextCondense *struct {
		Summary string `json:"summary"`
	} `json:"contextCondense"`
}

func decodeCline(d *Decoder, doc []byte) error {
	d.t.Session.Agent = "cline"
	var thinking string
	var usage *handoff.ProviderUsage
	callSeq := 0
	lastCmd := -1 // index of the tool Message collecting command output
	return walkJSON(d, doc, "", nil, func(n int, raw json.RawMessage) error {
		var c clineMessage
		if err := json.Unmarshal(raw, &c); err != nil {
			return d.recordError(n, fmt.Errorf("malformed message: %w", jsonReason(err)))
		}
		if c.Type != "say" && c.Type != "ask" {
			return d.recordError(n, fmt.Errorf("message type %q is neither say nor ask", c.Type))
		}
		if c.Partial {
			return nil
		}
		ts := clineTime(c.TS)
		d.seeTime(ts)
		m := handoff.Message{Line: n, Timestamp: ts}
		kind := c.Say
		if c.Type == "ask" {
			kind = c.Ask
		}
		assistant := func(text string, calls ...handoff.ToolCall) {
			m.Role, m.Text, m.ToolCalls = handoff.RoleAssistant, text, calls
			m.Thinking, m.Usage = joinText(thinking, c.Reasoning), usage
			thinking, usage = "", nil
			d.add(m)
		}
		if c.ContextCondense != nil && strings.TrimSpace(c.ContextCondense.Summary) != "" {
			m.Role, m.Text, m.CompactSummary = handoff.RoleUser, c.ContextCondense.Summary, true
			d.add(m)
			return nil
		}
		switch kind {
		case "task", "user_feedback", "user_feedback_diff":
			text := c.Text
			for range c.Images {
				text = joinText(text, "[image]")
			}
			if strings.TrimSpace(text) == "" {
				return nil
			}
			m.Role, m.Text = handoff.RoleUser, text
			d.add(m)
		case "text", "completion_result":
			if strings.TrimSpace(c.Text) != "" {
				assistant(c.Text)
			}
		case "followup", "plan_mode_respond":
			text := c.Text
			var q struct {
				Question string `json:"question"`
				Response string `json:"response"`
			}
			if json.Unmarshal([]byte(c.Text), &q) == nil {
				text = joinText(q.Question, q.Response)
			}
			if strings.TrimSpace(text) != "" {
				assistant(text)
			}
		case "reasoning":
			thinking = joinText(thinking, c.Text)
		case "tool":
			var tool struct {
				Tool string `json:"tool"`
			}
			if json.Unmarshal([]byte(c.Text), &tool) != nil || tool.Tool == "" {
				return d.recordError(n, fmt.Errorf("tool message without a JSON {tool}"))
			}
			callSeq++
			assistant("", handoff.ToolCall{ID: fmt.Sprintf("cline-%d", callSeq), Name: tool.Tool, Input: json.RawMessage(c.Text)})
		case "command":
			callSeq++
			in, _ := json.Marshal(map[string]string{"command": c.Text})
			id := fmt.Sprintf("cline-%d", callSeq)
			assistant("", handoff.ToolCall{ID: id, Name: "execute_command", Input: in})
			lastCmd = d.add(handoff.Message{Line: n, Timestamp: ts, Role: handoff.RoleTool,
				ToolResults: []handoff.ToolResult{{CallID: id, Name: "execute_command"}}})
		case "command_output":
			if lastCmd < 0 {
				return nil
			}
			r := &d.t.Messages[lastCmd].ToolResults[0]
			r.Content, r.OriginalBytes = d.clipOutput(joinText(r.Content, c.Text))
			r.ExitCode = codexExitCode(r.Content)
		case "error", "api_req_failed", "mistake_limit_reached", "diff_error":
			m.Role, m.Text, m.Meta = handoff.RoleSystem, "error: "+c.Text, true
			d.add(m)
		case "api_req_started":
			var info struct {
				TokensIn    int `json:"tokensIn"`
				TokensOut   int `json:"tokensOut"`
				CacheWrites int `json:"cacheWrites"`
				CacheReads  int `json:"cacheReads"`
			}
			if json.Unmarshal([]byte(c.Text), &info) == nil && info.TokensIn+info.CacheReads+info.CacheWrites > 0 {
				usage = &handoff.ProviderUsage{InputTokens: info.TokensIn, CacheCreationInputTokens: info.CacheWrites,
					CacheReadInputTokens: info.CacheReads, OutputTokens: info.TokensOut}
			}
		}
		if kind != "command_output" && kind != "api_req_started" && kind != "reasoning" && kind != "command" {
			lastCmd = -1
		}
		return nil
	})
}

// clineTime reads a millisecond Unix timestamp.
func clineTime(raw json.RawMessage) time.Time {
	ms := intValue(raw)
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(int64(ms)).UTC()
}

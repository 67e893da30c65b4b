package transcript

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/handoff-cli/handoff"
)

// SWE-agent trajectories (*.traj): one JSON object with "trajectory",
// "history" and "info".
//
// The history is the conversation the model saw and is what is read.
// v1 (function calling) has roles system/user/assistant/tool with
// tool_calls and tool_call_ids, like OpenAI chat; v0 has only
// system/user/assistant, where the user messages after the issue are the
// observations of the previous action. So: system → system (Meta);
// is_demo user messages (demonstrations) → system (Meta); the first real
// user message → user; assistant → assistant whose ToolCall is the
// tool_calls (v1) or a "bash" call of its action (v0); tool messages (v1)
// and later user messages (v0) → RoleTool results. An observation that
// reports the edit was rejected ("Your proposed edit has introduced new
// syntax error(s)") is flagged IsError; SWE-agent records no exit codes.
// Session.Model is the replay config's model name. Session.EndSignal is
// "submitted" when the last action is submit, else info.exit_status.

type sweMessage struct {
	Role        string          `json:"role"`
	Content     json.RawMessage `json:"content"`
	Thought     string          `json:"thought"`
	Action      string          `json:"action"`
	IsDemo      bool            `json:"is_demo"`
	ToolCalls   []oaToolCall    `json:"tool_calls"`
	ToolCallIDs []string        `json:"tool_call_ids"`
}

// sweRejectedRe marks observations where SWE-agent refused the action.
var sweRejectedRe = lazyRE(`\A\s*Your proposed edit has introduced new syntax error`)

func decodeSWEAgent(d *Decoder, doc []byte) error {
	d.t.Session.Agent = "swe-agent"
	sawTask, lastCall, lastName := false, "", ""
	exitStatus, submission := "", ""
	member := func(k string, raw json.RawMessage) {
		if k == "info" {
			var info struct {
				ExitStatus string `json:"exit_status"`
				Submission string `json:"submission"`
			}
			if json.Unmarshal(raw, &info) == nil {
				exitStatus, submission = info.ExitStatus, info.Submission
			}
			return
		}
		if k != "replay_config" {
			return
		}
		var rc struct {
			Agent struct {
				Model struct {
					Name string `json:"name"`
				} `json:"model"`
			} `json:"agent"`
		}
		if len(raw) > 0 && raw[0] == '"' {
			raw = json.RawMessage(stringValue(raw))
		}
		if json.Unmarshal(raw, &rc) == nil && rc.Agent.Model.Name != "" {
			d.t.Session.Model = rc.Agent.Model.Name
		}
	}
	err := walkJSON(d, doc, "history", member, func(rec int, raw json.RawMessage) error {
		var h sweMessage
		if err := json.Unmarshal(raw, &h); err != nil {
			return d.recordError(rec, fmt.Errorf("malformed message: %w", jsonReason(err)))
		}
		text, err := flatContent(h.Content)
		if err != nil {
			return d.recordError(rec, err)
		}
		m := handoff.Message{Line: rec}
		switch {
		case h.Role == "system" || (h.Role == "user" && h.IsDemo):
			m.Role, m.Text, m.Meta = handoff.RoleSystem, text, true
		case h.Role == "user" && !sawTask:
			m.Role, m.Text = handoff.RoleUser, text
			sawTask = true
		case h.Role == "assistant":
			m.Role, m.Text = handoff.RoleAssistant, text
			for _, c := range h.ToolCalls {
				m.ToolCalls = append(m.ToolCalls, handoff.ToolCall{ID: c.ID, Name: c.Function.Name, Input: arguments(c.Function.Arguments)})
			}
			if len(m.ToolCalls) == 0 && strings.TrimSpace(h.Action) != "" {
				in, _ := json.Marshal(map[string]string{"command": strings.TrimSpace(h.Action)})
				m.ToolCalls = []handoff.ToolCall{{Name: "bash", Input: in}}
			}
			lastCall, lastName = "", ""
			if len(m.ToolCalls) > 0 {
				lastCall, lastName = m.ToolCalls[0].ID, m.ToolCalls[0].Name
			}
		case h.Role == "tool" || h.Role == "user":
			r := handoff.ToolResult{CallID: lastCall, Name: lastName}
			if len(h.ToolCallIDs) > 0 {
				r.CallID = h.ToolCallIDs[0]
			}
			r.IsError = sweRejectedRe.MatchString(text)
			r.Content, r.OriginalBytes = d.clipOutput(text)
			m.Role, m.ToolResults = handoff.RoleTool, []handoff.ToolResult{r}
		default:
			return d.recordError(rec, fmt.Errorf("unknown role %q", h.Role))
		}
		d.add(m)
		return nil
	})
	d.t.Session.EndSignal = sweEndSignal(d.t.Messages, exitStatus)
	// Older trajectories record the submitted patch only in
	// info.submission, not as the submit action's observation: it is the
	// submit's result all the same.
	if n := len(d.t.Messages); err == nil && d.t.Session.EndSignal == EndSubmitted && strings.TrimSpace(submission) != "" &&
		n > 0 && d.t.Messages[n-1].Role == handoff.RoleAssistant {
		r := handoff.ToolResult{CallID: lastCall, Name: lastName}
		r.Content, r.OriginalBytes = d.clipOutput(submission)
		d.add(handoff.Message{Line: d.t.Messages[n-1].Line, Role: handoff.RoleTool, ToolResults: []handoff.ToolResult{r}})
	}
	return err
}

// sweEndSignal is how a trajectory ended: "submitted" when its last
// action is submit, else the run's info.exit_status (exit_cost,
// exit_context, … — the agent was stopped), else nothing.
func sweEndSignal(msgs []handoff.Message, exitStatus string) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role == handoff.RoleTool {
			continue
		}
		if m.Role == handoff.RoleAssistant && len(m.ToolCalls) > 0 {
			c := m.ToolCalls[len(m.ToolCalls)-1]
			var in struct {
				Command string `json:"command"`
			}
			_ = json.Unmarshal(c.Input, &in)
			if c.Name == "submit" || strings.TrimSpace(in.Command) == "submit" {
				return EndSubmitted
			}
		}
		break
	}
	if exitStatus == "submitted" {
		return EndSubmitted
	}
	return exitStatus
}

// flatContent reads content that is a string or an array of text parts.
func flatContent(raw json.RawMessage) (string, error) {
	raw = trimJSON(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	switch raw[0] {
	case '"':
		return stringValue(raw), nil
	case '[':
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(raw, &parts); err != nil {
			return "", fmt.Errorf("malformed content: %w", jsonReason(err))
		}
		var s string
		for _, p := range parts {
			if p.Type == "image" || p.Type == "image_url" {
				s = joinText(s, "[image]")
				continue
			}
			s = joinText(s, p.Text)
		}
		return s, nil
	}
	return "", fmt.Errorf("content is neither a string nor an array of parts")
}

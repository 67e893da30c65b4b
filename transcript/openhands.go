package transcript

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/handoff-cli/handoff"
)

// OpenHands trajectories: a JSON array of events, each with id, timestamp,
// source (user|agent|environment) and either "action" or "observation".
//
// A user "message" action is a user Message and an agent one an assistant
// Message. Any other agent action (run, edit, read, browse, finish, think,
// …) is an assistant Message whose Text is the action's thought and whose
// ToolCall is the tool call the model made (tool_call_metadata: id, name,
// and the arguments from the model response; the action's args when the
// model response is missing). An observation caused by an action
// (run, edit, read, error, …) is a RoleTool result paired with its action
// by the observation's cause (the action's event id, the format's own
// link), else by tool_call_id; with the exit code from extras (metadata.exit_code or
// exit_code) and IsError for "error" observations. Environment events,
// agent state changes and "null" observations carry no turn and are
// skipped. Usage comes from the model response (OpenAI usage, with the
// Anthropic cache fields LiteLLM passes through). Session.EndSignal
// follows finish actions and agent state changes (see ohEndSignal).

type ohEvent struct {
	ID          json.RawMessage `json:"id"`
	Timestamp   string          `json:"timestamp"`
	Source      string          `json:"source"`
	Message     string          `json:"message"`
	Action      string          `json:"action"`
	Observation string          `json:"observation"`
	Cause       json.RawMessage `json:"cause"`
	Content     json.RawMessage `json:"content"`
	Args        json.RawMessage `json:"args"`
	Extras      struct {
		AgentState string `json:"agent_state"`
		ExitCode   *int   `json:"exit_code"`
		Metadata   *struct {
			ExitCode *int `json:"exit_code"`
		} `json:"metadata"`
	} `json:"extras"`
	ToolCallMetadata *struct {
		FunctionName  string `json:"function_name"`
		ToolCallID    string `json:"tool_call_id"`
		ModelResponse struct {
			Model   string `json:"model"`
			Choices []struct {
				Message struct {
					ToolCalls []oaToolCall `json:"tool_calls"`
				} `json:"message"`
			} `json:"choices"`
			Usage *oaUsage `json:"usage"`
		} `json:"model_response"`
	} `json:"tool_call_metadata"`
}

// oaUsage is OpenAI usage, with the Anthropic cache fields some proxies
// add.
type oaUsage struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

// providerUsage normalises OpenAI usage (prompt_tokens includes cached
// tokens) to the handoff split.
func (u *oaUsage) providerUsage() *handoff.ProviderUsage {
	if u == nil || u.PromptTokens == 0 {
		return nil
	}
	cached := u.CacheReadInputTokens
	if cached == 0 && u.PromptTokensDetails != nil {
		cached = u.PromptTokensDetails.CachedTokens
	}
	cached = min(cached, u.PromptTokens)
	created := min(u.CacheCreationInputTokens, u.PromptTokens-cached)
	return &handoff.ProviderUsage{
		InputTokens:              u.PromptTokens - cached - created,
		CacheReadInputTokens:     cached,
		CacheCreationInputTokens: created,
		OutputTokens:             u.CompletionTokens,
	}
}

func decodeOpenHands(d *Decoder, doc []byte) error {
	d.t.Session.Agent = "openhands"
	names := map[string]string{}
	// calls maps an action's event id to the call id its observation
	// answers: cause is OpenHands' canonical link, and an observation's
	// tool_call_id may differ from its action's.
	calls := map[string]string{}
	return walkJSON(d, doc, "", nil, func(rec int, raw json.RawMessage) error {
		var e ohEvent
		if err := json.Unmarshal(raw, &e); err != nil {
			return d.recordError(rec, fmt.Errorf("malformed event: %w", jsonReason(err)))
		}
		if e.Action == "" && e.Observation == "" {
			return d.recordError(rec, fmt.Errorf("event has neither action nor observation"))
		}
		ts := parseTime(e.Timestamp)
		if ts.IsZero() {
			ts = parseLocalTime(e.Timestamp)
		}
		d.seeTime(ts)
		m := handoff.Message{ID: strings.Trim(string(e.ID), `"`), Timestamp: ts, Line: rec}
		var args map[string]json.RawMessage
		_ = json.Unmarshal(e.Args, &args)
		d.t.Session.EndSignal = ohEndSignal(d.t.Session.EndSignal, &e, args)
		switch {
		case e.Action == "message" && e.Source == "user":
			m.Role, m.Text = handoff.RoleUser, stringValue(args["content"])
			if m.Text == "" {
				m.Text = e.Message
			}
		case e.Action == "message" && e.Source == "agent":
			m.Role, m.Text = handoff.RoleAssistant, stringValue(args["content"])
			if m.Text == "" {
				m.Text = e.Message
			}
		case e.Action == "condensation" || e.Observation == "condense" || e.Observation == "agent_condensation":
			// The condenser's summary of the events it dropped carries
			// the history forward.
			summary := stringValue(args["summary"])
			if summary == "" {
				summary = stringValue(e.Content)
			}
			if strings.TrimSpace(summary) == "" {
				return nil
			}
			m.Role, m.Text, m.CompactSummary = handoff.RoleUser, summary, true
		case e.Action != "" && e.Source == "agent":
			m.Role = handoff.RoleAssistant
			m.Text = stringValue(args["thought"])
			if e.Action == "finish" || e.Action == "think" {
				m.Text = joinDistinct(m.Text, e.Message)
			}
			c := handoff.ToolCall{Name: e.Action, Input: e.Args}
			if tm := e.ToolCallMetadata; tm != nil {
				c.ID, c.Name = tm.ToolCallID, tm.FunctionName
				for _, ch := range tm.ModelResponse.Choices {
					for _, tc := range ch.Message.ToolCalls {
						if tc.ID == tm.ToolCallID {
							c.Input = arguments(tc.Function.Arguments)
						}
					}
				}
				m.Model = tm.ModelResponse.Model
				m.Usage = tm.ModelResponse.Usage.providerUsage()
				if m.Model != "" {
					d.t.Session.Model = m.Model
				}
			}
			if c.ID == "" && m.ID != "" {
				c.ID = "oh-event-" + m.ID // no model metadata: the event id links its observation
			}
			if c.ID != "" {
				names[c.ID] = c.Name
				calls[m.ID] = c.ID
			}
			m.ToolCalls = []handoff.ToolCall{c}
		case e.Observation != "" && e.Source != "environment" && e.Observation != "null" && e.Observation != "agent_state_changed" && len(trimJSON(e.Cause)) > 0 && string(trimJSON(e.Cause)) != "null":
			content := stringValue(e.Content)
			if strings.TrimSpace(content) == "" {
				content = e.Message
			}
			r := handoff.ToolResult{IsError: e.Observation == "error"}
			if tm := e.ToolCallMetadata; tm != nil {
				r.CallID, r.Name = tm.ToolCallID, tm.FunctionName
			}
			if id, ok := calls[strings.Trim(string(trimJSON(e.Cause)), `"`)]; ok {
				r.CallID = id
			}
			if r.Name == "" {
				r.Name = names[r.CallID]
			}
			r.ExitCode = e.Extras.ExitCode
			if md := e.Extras.Metadata; md != nil && md.ExitCode != nil {
				r.ExitCode = md.ExitCode
			}
			r.Content, r.OriginalBytes = d.clipOutput(content)
			m.Role, m.ToolResults = handoff.RoleTool, []handoff.ToolResult{r}
		case e.Observation == "error":
			m.Role, m.Text, m.Meta = handoff.RoleSystem, "error: "+joinText(e.Message, stringValue(e.Content)), true
		default:
			return nil // environment and agent-state traffic
		}
		d.add(m)
		return nil
	})
}

// parseLocalTime reads the zone-less ISO timestamps Python writes
// ("2025-01-27T22:44:56.900854"), as UTC.
func parseLocalTime(s string) time.Time {
	t, err := time.Parse("2006-01-02T15:04:05.999999999", s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// ohEndSignal is the end signal after event e, given the one before it:
// a finish action sets "finished", an agent state change sets the state
// it names (awaiting_user_input → "awaiting user input"), a "null"
// observation (nothing happened) keeps what was there, and any other
// event clears it, so what remains at the end is the session's last word.
func ohEndSignal(prev string, e *ohEvent, args map[string]json.RawMessage) string {
	state := e.Extras.AgentState
	if e.Action == "change_agent_state" {
		state = stringValue(args["agent_state"])
	}
	switch {
	case e.Action == "finish":
		return EndFinished
	case e.Observation == "agent_state_changed" || e.Action == "change_agent_state":
		switch state {
		case "awaiting_user_input":
			return EndAwaitingInput
		case "finished":
			return EndFinished
		case "", "loading", "init", "running":
			return ""
		}
		return "agent " + strings.ReplaceAll(state, "_", " ")
	case e.Observation == "null", e.Source == "environment":
		return prev
	}
	return ""
}

// joinDistinct joins a thought and a message, once when one holds the
// other: OpenHands often writes the finish message into both.
func joinDistinct(thought, message string) string {
	t, m := strings.TrimSpace(thought), strings.TrimSpace(message)
	switch {
	case strings.Contains(t, m):
		return thought
	case strings.Contains(m, t):
		return message
	}
	return joinText(thought, message)
}

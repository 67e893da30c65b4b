package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/handoff-cli/handoff"
)

// The hook events handoff knows by name. Others parse, and plan to nothing.
const (
	EventPreCompact       = "PreCompact"
	EventSessionStart     = "SessionStart"
	EventStop             = "Stop"
	EventSubagentStop     = "SubagentStop"
	EventPostToolUse      = "PostToolUse"
	EventPreToolUse       = "PreToolUse"
	EventUserPromptSubmit = "UserPromptSubmit"
	EventSessionEnd       = "SessionEnd"
	EventNotification     = "Notification"
)

// PreCompact triggers and SessionStart sources, as the agents spell them.
const (
	TriggerAuto   = "auto"
	TriggerManual = "manual"

	SourceStartup = "startup"
	SourceResume  = "resume"
	SourceClear   = "clear"
	SourceCompact = "compact"
)

// MaxInputBytes bounds how much of stdin ParseClaudeInput reads. A
// PostToolUse payload carries the tool's whole response (a file Claude
// read, a command's output), so the bound is generous; anything larger is
// not a hook payload.
const MaxInputBytes = 32 << 20

// ClaudeInput is the JSON a Claude Code (or Codex CLI) hook receives on
// stdin. Fields an event does not have are zero; fields handoff does not
// use are ignored, so newer agent versions still parse.
type ClaudeInput struct {
	SessionID string `json:"session_id"`
	// TranscriptPath is the session's JSONL transcript. Codex sends null
	// for a session with no rollout file; it is then "".
	TranscriptPath string `json:"transcript_path"`
	CWD            string `json:"cwd,omitempty"`
	PermissionMode string `json:"permission_mode,omitempty"`
	HookEventName  string `json:"hook_event_name"`

	// PreCompact: "manual" (/compact) or "auto" (the window is full), and
	// what the person passed to /compact.
	Trigger            string `json:"trigger,omitempty"`
	CustomInstructions string `json:"custom_instructions,omitempty"`

	// SessionStart: "startup", "resume", "clear" or "compact".
	Source string `json:"source,omitempty"`

	// Stop and SubagentStop: true when the agent is already continuing
	// because a stop hook blocked it.
	StopHookActive       bool   `json:"stop_hook_active,omitempty"`
	LastAssistantMessage string `json:"last_assistant_message,omitempty"`

	// PostToolUse (and PreToolUse).
	ToolName     string          `json:"tool_name,omitempty"`
	ToolInput    json.RawMessage `json:"tool_input,omitempty"`
	ToolResponse json.RawMessage `json:"tool_response,omitempty"`

	// UserPromptSubmit: what the person typed.
	Prompt string `json:"prompt,omitempty"`

	// Codex CLI adds the model and the turn.
	Model  string `json:"model,omitempty"`
	TurnID string `json:"turn_id,omitempty"`
}

// Known reports whether handoff acts on the input's event. An unknown
// event is not an error (agents add events), but the CLI should say it
// ignored it.
func (in *ClaudeInput) Known() bool {
	switch in.HookEventName {
	case EventPreCompact, EventSessionStart, EventStop, EventPostToolUse, EventUserPromptSubmit:
		return true
	}
	return false
}

// ParseClaudeInput reads one hook payload from r (at most MaxInputBytes)
// and checks the fields handoff relies on: hook_event_name and session_id
// always, the transcript_path key always (null is allowed: Codex), trigger
// for PreCompact, source for SessionStart, tool_name for PostToolUse.
// Anything wrong is an EINVALID error that names what is wrong.
func ParseClaudeInput(r io.Reader) (*ClaudeInput, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read hook input: %w", err)
	}
	if len(data) > MaxInputBytes {
		return nil, handoff.Errorf(handoff.EINVALID, "hook input is larger than %d MiB; expected one hook payload", MaxInputBytes>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, handoff.Errorf(handoff.EINVALID, "hook input is empty; expected the JSON the agent writes on a hook's stdin")
	}

	dec := json.NewDecoder(bytes.NewReader(data))
	var in ClaudeInput
	if err := dec.Decode(&in); err != nil {
		return nil, handoff.Errorf(handoff.EINVALID, "hook input is not a JSON object of the hook contract: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, handoff.Errorf(handoff.EINVALID, "hook input has data after its JSON object")
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(data, &keys); err != nil {
		return nil, handoff.Errorf(handoff.EINVALID, "hook input is not a JSON object: %w", err)
	}

	var missing []string
	need := func(ok bool, field string) {
		if !ok {
			missing = append(missing, field)
		}
	}
	need(in.HookEventName != "", "hook_event_name")
	need(in.SessionID != "", "session_id")
	_, hasTranscript := keys["transcript_path"]
	need(hasTranscript, "transcript_path")
	switch in.HookEventName {
	case EventPreCompact:
		need(in.Trigger != "", "trigger")
	case EventSessionStart:
		need(in.Source != "", "source")
	case EventPostToolUse:
		need(in.ToolName != "", "tool_name")
	}
	if len(missing) > 0 {
		event := in.HookEventName
		if event == "" {
			event = "hook"
		}
		return nil, handoff.Errorf(handoff.EINVALID, "%s input is missing %s", event, joinFields(missing))
	}
	return &in, nil
}

func joinFields(fields []string) string {
	var b bytes.Buffer
	for i, f := range fields {
		switch {
		case i == 0:
		case i == len(fields)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(f)
	}
	return b.String()
}

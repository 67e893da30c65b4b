package hooks

import (
	"bytes"
	"encoding/json"

	"github.com/handoff-cli/handoff"
)

// claudeOutput is the hook output JSON, in the field order of the docs.
type claudeOutput struct {
	Decision           string              `json:"decision,omitempty"`
	Reason             string              `json:"reason,omitempty"`
	HookSpecificOutput *hookSpecificOutput `json:"hookSpecificOutput,omitempty"`
	SystemMessage      string              `json:"systemMessage,omitempty"`
}

type hookSpecificOutput struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext"`
}

// ClaudeOutput renders r as the JSON a hook for event prints on stdout,
// one line ending in a newline, or nil when there is nothing to say (the
// hook then prints nothing and exits 0).
//
// It refuses (EINVALID) what the event's contract has no place for, so a
// wiring mistake fails loudly instead of being silently ignored by the
// agent: Context only for SessionStart, PostToolUse and UserPromptSubmit;
// BlockReason only for Stop, SubagentStop, PostToolUse and
// UserPromptSubmit. SystemMessage is allowed for every event.
func ClaudeOutput(event string, r Reply) ([]byte, error) {
	if r == (Reply{}) {
		return nil, nil
	}
	var out claudeOutput
	if r.Context != "" {
		switch event {
		case EventSessionStart, EventPostToolUse, EventUserPromptSubmit:
		default:
			return nil, handoff.Errorf(handoff.EINVALID, "a %s hook cannot add context for the agent", event)
		}
		out.HookSpecificOutput = &hookSpecificOutput{HookEventName: event, AdditionalContext: r.Context}
	}
	if r.BlockReason != "" {
		switch event {
		case EventStop, EventSubagentStop, EventPostToolUse, EventUserPromptSubmit:
		default:
			return nil, handoff.Errorf(handoff.EINVALID, "a %s hook has no block decision", event)
		}
		out.Decision, out.Reason = "block", r.BlockReason
	}
	out.SystemMessage = r.SystemMessage

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // prompts quote code: keep <, > and & readable
	if err := enc.Encode(out); err != nil {
		return nil, handoff.Errorf(handoff.EINTERNAL, "encode hook output: %w", err)
	}
	return buf.Bytes(), nil
}

// ExitCode is the exit code a hook process should end with: 0 on success,
// 1 on any error. Never 2: to Claude Code exit 2 is a blocking error whose
// stderr is fed to the model (for Stop it keeps the agent running), and a
// failure inside handoff (a locked database, a transcript it cannot read)
// must reach the person, not steer the agent.
func ExitCode(err error) int {
	if err != nil {
		return 1
	}
	return 0
}

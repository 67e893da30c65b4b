package hooks

import (
	"fmt"
	"strconv"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
)

// Plan is what the CLI should do for one hook invocation, decided from the
// payload and the session's capacity status alone. The CLI carries it out
// in this order: snapshot (with Trigger and PauseReason), pause or resume
// the workflow, compile the resume prompt if InjectResume, then print
// Reply(prompt) rendered by ClaudeOutput and exit 0.
type Plan struct {
	Event string `json:"event"`
	// Snapshot asks for a snapshot of TranscriptPath, taken with Trigger.
	Snapshot       bool            `json:"snapshot,omitempty"`
	Trigger        handoff.Trigger `json:"trigger,omitempty"`
	TranscriptPath string          `json:"transcript_path,omitempty"`
	PauseReason    string          `json:"pause_reason,omitempty"`
	// PauseWorkflow marks the workflow paused after the snapshot: the
	// agent has been told to wrap up, and the next session resumes.
	PauseWorkflow bool `json:"pause_workflow,omitempty"`
	// ResumeWorkflow marks a paused workflow in progress again: a session
	// is continuing it.
	ResumeWorkflow bool `json:"resume_workflow,omitempty"`
	// InjectResume asks for the resume prompt of the session's workflow
	// (its latest snapshot) as additional context for the new context.
	InjectResume bool `json:"inject_resume,omitempty"`
	// WrapUp is the message that tells the agent to wrap up at a task
	// boundary, "" for none. BlockStop delivers it as a Stop block (the
	// agent continues to act on it); otherwise it goes as additional
	// context.
	WrapUp    string `json:"wrap_up,omitempty"`
	BlockStop bool   `json:"block_stop,omitempty"`
	// Notice is shown to the person (systemMessage), not to the model.
	Notice string `json:"notice,omitempty"`
	// Why says in one line why this is the plan, for the CLI's log.
	Why string `json:"why"`
}

// Reply is what a hook tells the agent; see ClaudeOutput.
type Reply struct {
	// Context is added to the agent's context (SessionStart, PostToolUse,
	// UserPromptSubmit).
	Context string
	// BlockReason, when set, blocks (Stop: keeps the agent going; PostToolUse:
	// prompts it) with this reason.
	BlockReason string
	// SystemMessage is shown to the person.
	SystemMessage string
}

// Reply composes the hook's answer from the plan and the compiled resume
// prompt ("" when the plan did not ask for one or there is none).
func (p Plan) Reply(resumePrompt string) Reply {
	var r Reply
	if p.InjectResume {
		r.Context = resumePrompt
	}
	if p.WrapUp != "" {
		if p.BlockStop {
			r.BlockReason = p.WrapUp
		} else {
			r.Context = joinParagraphs(r.Context, p.WrapUp)
		}
	}
	r.SystemMessage = p.Notice
	return r
}

// PlanClaude decides what handoff does for one hook invocation. st is the
// session's capacity status from a capacity.Monitor resumed from the state
// stored for this session (so Fired is true only on a new crossing); it
// matters only for Stop and PostToolUse.
//
//   - PreCompact: snapshot before the agent's compaction rewrites the
//     history, trigger exhaustion for "auto" (the window is full) and
//     manual for "/compact"; the session carries on, so no pause.
//   - SessionStart "compact" or "resume": inject the resume prompt as
//     additional context and resume the workflow; "startup" and "clear"
//     start fresh work and get nothing.
//   - Stop at a checkpoint that just fired: snapshot (exhaustion), pause,
//     and block the stop with a wrap-up message, unless stop_hook_active
//     (a stop hook already kept the agent going: blocking again could
//     loop), in which case snapshot and pause only. Stop with
//     stop_hook_active while still at the checkpoint level: the agent has
//     wrapped up, so take the final snapshot. A warning that just fired is
//     a notice to the person.
//   - PostToolUse or UserPromptSubmit at a checkpoint that just fired:
//     snapshot, pause, and add the wrap-up message as context (the tool
//     has already run, the person's prompt should still be seen, so it is
//     advice, not a block). A warning is a notice.
//   - A snapshot needs a transcript: with none (Codex may send null) the
//     plan says so and takes none.
//   - Every other event: nothing.
func PlanClaude(in *ClaudeInput, st capacity.Status) Plan {
	p := Plan{Event: in.HookEventName}
	switch in.HookEventName {
	case EventPreCompact:
		p.Snapshot, p.Trigger = true, handoff.TriggerExhaustion
		p.PauseReason = "context compaction (auto) was about to rewrite the history"
		p.Why = "the agent is compacting its context; snapshot first"
		switch in.Trigger {
		case TriggerManual:
			p.Trigger = handoff.TriggerManual
			p.PauseReason = "context compaction (/compact) was about to rewrite the history"
		case TriggerAuto:
		default:
			p.Why += fmt.Sprintf(" (unknown trigger %q treated as auto)", in.Trigger)
		}

	case EventSessionStart:
		switch in.Source {
		case SourceCompact, SourceResume:
			p.InjectResume, p.ResumeWorkflow = true, true
			p.Why = fmt.Sprintf("session started from %s; give it the structured handoff", in.Source)
		default:
			p.Why = fmt.Sprintf("session started from %s; nothing to resume", in.Source)
		}

	case EventStop:
		planStop(&p, in, st)

	case EventPostToolUse, EventUserPromptSubmit:
		switch {
		case st.Level == capacity.Checkpoint && st.Fired:
			checkpoint(&p, st)
			p.WrapUp = wrapUpMessage(st)
			p.Why = "context crossed the checkpoint threshold after a tool call"
			if in.HookEventName == EventUserPromptSubmit {
				p.Why = "context crossed the checkpoint threshold as a prompt was submitted"
			}
		case st.Level == capacity.Warn && st.Fired:
			p.Notice = warnNotice(st)
			p.Why = "context crossed the warning threshold"
		default:
			p.Why = "context below any new threshold crossing"
		}

	default:
		if in.Known() {
			p.Why = "nothing to do"
		} else {
			p.Why = fmt.Sprintf("event %q is not one handoff acts on", in.HookEventName)
		}
	}

	if p.Snapshot {
		p.TranscriptPath = in.TranscriptPath
		if in.TranscriptPath == "" {
			p = Plan{Event: p.Event, Why: "no transcript_path in the hook input; nothing to snapshot"}
		}
	}
	return p
}

func planStop(p *Plan, in *ClaudeInput, st capacity.Status) {
	atCheckpoint := st.Level == capacity.Checkpoint
	switch {
	case atCheckpoint && st.Fired && !in.StopHookActive:
		checkpoint(p, st)
		p.WrapUp, p.BlockStop = wrapUpMessage(st), true
		p.Why = "context crossed the checkpoint threshold; snapshot and ask the agent to wrap up"
	case atCheckpoint && st.Fired:
		checkpoint(p, st)
		p.Why = "context crossed the checkpoint threshold while a stop hook is already active; snapshot without blocking again"
	case atCheckpoint && in.StopHookActive:
		checkpoint(p, st)
		p.Notice = ""
		p.Why = "the agent wrapped up after the checkpoint; take the final snapshot"
	case st.Level == capacity.Warn && st.Fired:
		p.Notice = warnNotice(st)
		p.Why = "context crossed the warning threshold"
	default:
		p.Why = "context below any new threshold crossing"
	}
}

// checkpoint fills the snapshot-and-pause part of a plan for a capacity
// checkpoint.
func checkpoint(p *Plan, st capacity.Status) {
	p.Snapshot, p.Trigger, p.PauseWorkflow = true, handoff.TriggerExhaustion, true
	p.PauseReason = "context window " + fillPhrase(st)
	p.Notice = "handoff: context window " + fillPhrase(st) + "; snapshot saved"
}

func wrapUpMessage(st capacity.Status) string {
	return "The context window is " + fillPhrase(st) + ", and handoff has saved a snapshot of this session. " +
		"Wrap up at a task boundary: finish or cleanly stop the current step, leave the code in a working state, " +
		"and update your todo list so it shows what is done and what comes next. Do not start new work. " +
		"Then end your last message with a handoff note for the session that continues, in exactly this shape " +
		"(one line per field; your successor reads it first, checked against the transcript):\n\n" +
		handoff.NoteTemplate() + "\n\nThen stop; the next session resumes from the snapshot."
}

func warnNotice(st capacity.Status) string {
	return "handoff: context window " + fillPhrase(st)
}

// fillPhrase renders "86% full (172,000 of 200,000 tokens)".
func fillPhrase(st capacity.Status) string {
	return fmt.Sprintf("%d%% full (%s of %s tokens)", int(st.Utilization*100), thousands(st.TokensUsed), thousands(st.ContextWindow))
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

func joinParagraphs(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n\n" + b
}

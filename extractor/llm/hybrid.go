package llm

import (
	"context"
	"log/slog"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/extractor/decisions"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
)

// Hybrid lets the offline heuristic pick, within the checkpoint window,
// the messages worth the model's judgement: what the person asked, what
// the assistant said with a decision cue, failed tool results and the
// calls that caused them, and the last user and assistant turns (where
// the session stopped). Only those are sent, so fewer tokens go out than
// with LLM alone over the same window.
type Hybrid struct {
	llm    *Client
	pat    decisions.Patterns
	logger *slog.Logger
}

// NewHybrid returns a Hybrid extractor that asks llm. A nil logger uses
// llm's.
func NewHybrid(llm *Client, logger *slog.Logger) *Hybrid {
	if logger == nil {
		logger = llm.logger
	}
	return &Hybrid{llm: llm, pat: decisions.CompilePatterns(), logger: logger}
}

// Name implements Extractor.
func (h *Hybrid) Name() string { return "hybrid" }

// Extract implements Extractor.
func (h *Hybrid) Extract(ctx context.Context, msgs []handoff.Message) (*extractor.Result, error) {
	return h.llm.extractSelected(ctx, h.Name(), msgs, func(window []handoff.Message) []handoff.Message {
		picked := h.Select(window)
		h.logger.Debug("hybrid selection", "window", len(window), "selected", len(picked))
		return picked
	})
}

// Select returns the messages of msgs that Hybrid sends, in order, with
// their original indexes (records cite them). Extract applies it to the
// same latest window LLM would send, so Hybrid never sends more.
func (h *Hybrid) Select(msgs []handoff.Message) []handoff.Message {
	keep := make([]bool, len(msgs))
	callAt := map[string]int{}
	lastAssistant := -1
	for i, m := range msgs {
		if !sendable(m) {
			continue
		}
		for _, c := range m.ToolCalls {
			if c.ID != "" {
				callAt[c.ID] = i
			}
		}
		switch m.Role {
		case handoff.RoleUser:
			if facts.UserRequest(m.Text) != "" {
				keep[i] = true
			}
		case handoff.RoleAssistant:
			if strings.TrimSpace(m.Text) != "" {
				lastAssistant = i
				if h.hasCue(m.Text) {
					keep[i] = true
				}
			}
		}
		if m.CompactSummary {
			keep[i] = true
		}
		for _, r := range m.ToolResults {
			if r.Failed() {
				keep[i] = true
				if j, ok := callAt[r.CallID]; ok {
					keep[j] = true
				}
			}
		}
	}
	if lastAssistant >= 0 {
		keep[lastAssistant] = true
	}
	// The end of the session is where the current work and the next step
	// are stated, and where the only messages a record of either may cite
	// are: the last turns always go, cue or not.
	for _, i := range lastTurns(msgs, tailTurns) {
		keep[i] = true
	}
	var out []handoff.Message
	for i, m := range msgs {
		if keep[i] {
			out = append(out, m)
		}
	}
	return out
}

// hasCue reports whether any sentence of text reads like a decision.
func (h *Hybrid) hasCue(text string) bool {
	for _, s := range prose.SplitSentences(facts.StripCode(text)) {
		if prose.MatchesAny(h.pat.Assistant, s) && !h.pat.NotChoice.MatchString(s) {
			return true
		}
	}
	return false
}

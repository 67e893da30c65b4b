package capacity

import (
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/handoff-cli/handoff"
)

// syntheticModel is the model name Claude Code writes on assistant lines it
// made up itself (API errors, "No response requested."). Their usage is all
// zeros and they were never a request to a model.
const syntheticModel = "<synthetic>"

// MeasureOptions changes how Measure finds the context window.
type MeasureOptions struct {
	// Model overrides the transcript's model for the window lookup (and is
	// reported as the model in the Usage).
	Model string
	// ContextWindow, when > 0, overrides every other source of the window:
	// it is the --context-window flag.
	ContextWindow int
	// EstimateTail counts the main-thread messages after the last
	// provider usage by bytes (EstimateMessage: a quarter token per byte)
	// instead of with the tokenizer. They are the short tail the provider
	// has not seen yet (a tool result, the user's next prompt), a few
	// hundred tokens next to a reported context of tens of thousands, so
	// the estimate moves the fill by well under a percent; and with it a
	// measurement that has provider usage never builds the tokenizer's
	// tables, which cost more than everything else a hook does (Stop and
	// PostToolUse run on every turn). A transcript without usage, or whose
	// usage predates its last compaction, is still counted exactly.
	EstimateTail bool
	// Logger receives diagnostics (which source the figures came from and
	// why); nil discards them.
	Logger *slog.Logger
}

// Measure reports how full the transcript's main-thread context is, with
// the session's call counts and duration.
//
// c counts what no provider figure covers; it must not be nil. Token use
// comes from the provider when it can: the last main-thread
// assistant message with reported usage gives its prompt size plus its
// output (what the next request will carry), and the main-thread messages
// after it, which no provider has seen yet, are counted with c. If a
// compaction summary came after that message the provider's figure
// describes a context that no longer exists, so the figure is estimated
// instead: the counted tokens of the main-thread messages from the last
// compaction summary (inclusive) to the end, or of all of them if there
// was no compaction. Subagent (sidechain) traffic is never part of the
// main context.
//
// The window is opts.ContextWindow, else what the transcript reported
// (session metadata, then the usage records), else the table entry for the
// model (opts.Model, else the last main-thread assistant message's model,
// else the session's model). A Claude session whose provider-reported
// context is larger than the table's 200k is on the 1M-token beta, which
// the API's model name does not show, and is measured against 1M.
//
// CostUSD is left 0: prices change often and differ by cache tier, batch
// and region, and there is no trustworthy price table offline; a wrong cost
// is worse than none.
func Measure(t *handoff.Transcript, c *Counter, opts MeasureOptions) handoff.Usage {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if t == nil {
		t = &handoff.Transcript{}
	}

	used, source, providerContext := tokensUsed(t, c, opts.EstimateTail, log)
	model := measuredModel(t, opts.Model)
	window := contextWindowFor(t, model, opts, providerContext, log)

	u := handoff.Usage{
		TokensUsed:              used,
		ContextWindow:           window,
		TokensRemainingEstimate: max(0, window-used),
		ContextUtilization:      float64(used) / float64(window),
		Source:                  source,
		Model:                   model,
		SessionDurationSeconds:  sessionDuration(t).Seconds(),
	}
	for i := range t.Messages {
		m := &t.Messages[i]
		if m.Role == handoff.RoleAssistant && hasUsage(m) {
			u.LLMCalls++
		}
		u.ToolCalls += len(m.ToolCalls)
	}
	return u
}

// hasUsage reports whether m carries provider usage worth believing: a
// record with every figure zero (Claude Code's synthetic messages) is no
// request at all.
func hasUsage(m *handoff.Message) bool {
	if m.Usage == nil || m.Model == syntheticModel {
		return false
	}
	return m.Usage.ContextTokens()+m.Usage.OutputTokens > 0
}

// tokensUsed returns the main thread's tokens in context, where the figure
// came from, and the provider-reported context (0 when estimated).
func tokensUsed(t *handoff.Transcript, c *Counter, estimateTail bool, log *slog.Logger) (int, handoff.UsageSource, int) {
	lastUsage, lastCompact := -1, -1
	for i := range t.Messages {
		m := &t.Messages[i]
		if m.Sidechain {
			continue
		}
		if hasUsage(m) {
			lastUsage = i
		}
		if m.CompactSummary {
			lastCompact = i
		}
	}

	if lastUsage >= 0 && lastCompact < lastUsage {
		u := t.Messages[lastUsage].Usage
		reported := u.ContextTokens() + u.OutputTokens
		tail := mainThread(t.Messages[lastUsage+1:])
		var unseen int
		if estimateTail {
			for i := range tail {
				unseen += EstimateMessage(&tail[i])
			}
		} else {
			unseen = c.CountMessages(tail)
		}
		log.Debug("context from provider usage", "message", lastUsage, "reported", reported, "counted_after", unseen, "estimated", estimateTail)
		return reported + unseen, handoff.UsageProvider, reported
	}

	start := max(lastCompact, 0)
	if lastUsage >= 0 {
		log.Debug("provider usage predates the last compaction; estimating", "usage_message", lastUsage, "compaction", lastCompact)
	}
	return c.CountMessages(mainThread(t.Messages[start:])), handoff.UsageEstimate, 0
}

// EstimateMessage is CountMessage without the tokenizer: the same parts
// and overheads, each part at a quarter token per byte (rounded up), the
// usual rule of thumb for English and code; a cut tool result counts at
// its original size.
func EstimateMessage(m *handoff.Message) int {
	n := MessageOverhead + estimate(m.Text) + estimate(m.Thinking)
	for _, call := range m.ToolCalls {
		n += ToolBlockOverhead + estimate(call.Name) + estimate(string(call.Input))
	}
	for _, res := range m.ToolResults {
		n += ToolBlockOverhead + scaleToOriginal(estimate(res.Content), len(res.Content), res.OriginalBytes)
	}
	return n
}

func mainThread(ms []handoff.Message) []handoff.Message {
	out := make([]handoff.Message, 0, len(ms))
	for _, m := range ms {
		if !m.Sidechain {
			out = append(out, m)
		}
	}
	return out
}

// measuredModel picks the model the session used: the override, else the
// last real main-thread assistant model, else any assistant's, else the
// session metadata's.
func measuredModel(t *handoff.Transcript, override string) string {
	if override != "" {
		return override
	}
	for _, mainOnly := range []bool{true, false} {
		for i := len(t.Messages) - 1; i >= 0; i-- {
			m := &t.Messages[i]
			if m.Role != handoff.RoleAssistant || m.Model == "" || m.Model == syntheticModel || (mainOnly && m.Sidechain) {
				continue
			}
			return m.Model
		}
	}
	return t.Session.Model
}

// contextWindowFor resolves the window in the order Measure documents.
func contextWindowFor(t *handoff.Transcript, model string, opts MeasureOptions, providerContext int, log *slog.Logger) int {
	if opts.ContextWindow > 0 {
		return opts.ContextWindow
	}
	if t.Session.ContextWindow > 0 {
		return t.Session.ContextWindow
	}
	for i := len(t.Messages) - 1; i >= 0; i-- {
		if u := t.Messages[i].Usage; u != nil && u.ContextWindow > 0 {
			return u.ContextWindow
		}
	}
	return tableWindow(model, providerContext, log)
}

// tableWindow is the window the model table gives model, raised to the 1M
// beta for a Claude model whose provider-reported context (0 when none)
// is larger than the table's figure.
func tableWindow(model string, providerContext int, log *slog.Logger) int {
	window, known := ContextWindow(model)
	if !known {
		log.Info("unknown model; assuming the default context window", "model", model, "window", window)
	}
	if providerContext > window && window < oneMillion && isClaude(model) {
		log.Info("provider-reported context exceeds the model's 200k window; assuming the 1M context beta",
			"model", model, "reported", providerContext)
		return oneMillion
	}
	return window
}

// isClaude reports whether model names an Anthropic Claude model or a
// Claude Code alias.
func isClaude(model string) bool {
	name := normalizeModel(model)
	for _, p := range []string{"claude", "sonnet", "opus", "haiku"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// sessionDuration is the time from the earliest to the latest message
// timestamp, or the session's own start and end when messages carry none.
func sessionDuration(t *handoff.Transcript) time.Duration {
	var first, last time.Time
	for i := range t.Messages {
		ts := t.Messages[i].Timestamp
		if ts.IsZero() {
			continue
		}
		if first.IsZero() || ts.Before(first) {
			first = ts
		}
		if ts.After(last) {
			last = ts
		}
	}
	if first.IsZero() {
		first, last = t.Session.StartedAt, t.Session.EndedAt
	}
	if first.IsZero() || last.IsZero() || last.Before(first) {
		return 0
	}
	return last.Sub(first)
}

// Decision is what a watcher should do about a session's context fill.
type Decision string

// The decisions, in increasing urgency.
const (
	// Continue: plenty of room left.
	Continue Decision = "continue"
	// Warn: the window is filling; tell the person.
	Warn Decision = "warn"
	// Checkpoint: snapshot the session now, before the agent's own
	// compaction or the window's end loses its decisions.
	Checkpoint Decision = "checkpoint"
)

// Thresholds are the context utilizations (0..1) at which a session moves
// from Continue to Warn and from Warn to Checkpoint.
type Thresholds struct {
	Warn       float64
	Checkpoint float64
}

// DefaultThresholds returns warn at 70% and checkpoint at 85% (DESIGN.md's
// default): late enough not to interrupt a session with room left, early
// enough that the snapshot is taken before an agent's own auto-compaction
// near the end of the window rewrites the history it would record.
func DefaultThresholds() Thresholds {
	return Thresholds{Warn: 0.70, Checkpoint: 0.85}
}

// Validate reports an EINVALID error unless 0 < Warn <= Checkpoint <= 1, so
// a flag value like 85 (meant as percent) is caught before it silently
// disables checkpoints.
func (th Thresholds) Validate() error {
	if !(th.Warn > 0 && th.Warn <= th.Checkpoint && th.Checkpoint <= 1) {
		return handoff.Errorf(handoff.EINVALID,
			"thresholds must satisfy 0 < warn <= checkpoint <= 1 (fractions, not percent): got warn=%v checkpoint=%v",
			th.Warn, th.Checkpoint)
	}
	return nil
}

// Decide returns Checkpoint at or above th.Checkpoint, Warn at or above
// th.Warn, and Continue below both.
func (th Thresholds) Decide(utilization float64) Decision {
	switch {
	case utilization >= th.Checkpoint:
		return Checkpoint
	case utilization >= th.Warn:
		return Warn
	}
	return Continue
}

// String renders the thresholds as percentages, for messages.
func (th Thresholds) String() string {
	return fmt.Sprintf("warn at %.0f%%, checkpoint at %.0f%%", th.Warn*100, th.Checkpoint*100)
}

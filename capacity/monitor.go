package capacity

import (
	"log/slog"
	"sync"

	"github.com/handoff-cli/handoff"
)

// DefaultRearmMargin is how far (as a fraction of the window) utilization
// must fall below a threshold before that threshold can fire again. A
// compaction drops a session far below any threshold, so it re-arms; the
// jitter between a provider figure and a tokenizer estimate (a percent or
// two) does not, so a session hovering on the line is not checkpointed
// over and over.
const DefaultRearmMargin = 0.05

// MonitorOptions configures a Monitor.
type MonitorOptions struct {
	// Model names the session's model, for the window lookup when an
	// observation names none.
	Model string
	// ContextWindow, when > 0, overrides every other source of the window
	// (the observation's, the provider's, the model table's): it is the
	// --context-window flag.
	ContextWindow int
	// Thresholds at which the monitor warns and checkpoints; the zero value
	// means DefaultThresholds.
	Thresholds Thresholds
	// RearmMargin is DefaultRearmMargin when zero; see DefaultRearmMargin.
	// It must be below Thresholds.Warn, or the warning could never re-arm.
	RearmMargin float64
	// State resumes a monitor from a previous process (a hook runs as a new
	// process every time): pass what State() returned last time so a
	// crossing that already fired does not fire again.
	State MonitorState
	// Logger receives diagnostics (unknown model, 1M beta assumed); nil
	// discards them.
	Logger *slog.Logger
}

// MonitorState is what a Monitor remembers between observations: which
// thresholds have fired and not yet re-armed. Its zero value is a fresh
// monitor. It is plain data with JSON tags so a caller that lives only as
// long as one hook invocation can store it and resume.
type MonitorState struct {
	WarnFired       bool `json:"warn_fired,omitempty"`
	CheckpointFired bool `json:"checkpoint_fired,omitempty"`
	// TokensUsed and Source are the last figure, which ObserveMessage adds
	// counted messages to.
	TokensUsed int                 `json:"tokens_used,omitempty"`
	Source     handoff.UsageSource `json:"source,omitempty"`
}

// Observation is one reading of a session's context fill.
//
// Provider-reported usage is preferred: when ProviderUsage carries any
// figure, the tokens in use are its prompt (input plus both cache figures)
// plus its output, which the next request will carry, and CountedTokens is
// ignored. Otherwise CountedTokens, counted with a Counter, is the estimate.
type Observation struct {
	ProviderUsage *handoff.ProviderUsage
	CountedTokens int
	// Model, when set, is the model for this observation's window lookup
	// (an agent can switch models mid-session).
	Model string
	// ContextWindow, when > 0, is the window the agent reported alongside
	// this observation.
	ContextWindow int
}

// Status is the monitor's verdict on one observation.
type Status struct {
	// Level is the zone the utilization is in: Continue, Warn or Checkpoint.
	Level Decision `json:"level"`
	// Fired is true when this observation crossed into Level from below
	// (or is the first observation in it since the monitor started or
	// re-armed): the one moment to act on it. While usage stays above the
	// line, later observations report the same Level with Fired false.
	Fired           bool                `json:"fired"`
	Utilization     float64             `json:"utilization"`
	TokensUsed      int                 `json:"tokens_used"`
	TokensRemaining int                 `json:"tokens_remaining"`
	ContextWindow   int                 `json:"context_window"`
	Source          handoff.UsageSource `json:"source"`
	Model           string              `json:"model,omitempty"`
}

// Action is what to do now: Level when it just fired, else Continue.
func (s Status) Action() Decision {
	if s.Fired {
		return s.Level
	}
	return Continue
}

// Monitor turns a stream of usage observations into continue / warn /
// checkpoint, firing each threshold once per crossing: it fires when
// utilization first reaches the threshold, stays quiet while it remains
// above, and re-arms only after utilization falls below the threshold by
// the re-arm margin (as after a compaction). When one observation jumps
// past both thresholds only Checkpoint fires.
//
// It is the library face for Go agent harnesses: call Observe after every
// model response (or ObserveMessage for every message) and act on
// Status.Action(). A Monitor is safe for concurrent use.
type Monitor struct {
	model       string
	window      int
	thresholds  Thresholds
	rearmMargin float64
	log         *slog.Logger

	mu    sync.Mutex
	state MonitorState
	last  Status
	// Sticky facts from earlier observations, used when a later one (a
	// counted message) does not repeat them.
	lastModel           string
	lastWindow          int
	lastProviderContext int
}

// NewMonitor returns a Monitor. Thresholds and margin are validated
// (EINVALID), so a percent passed as 85 is caught here and not by a
// session that never checkpoints.
func NewMonitor(opts MonitorOptions) (*Monitor, error) {
	th := opts.Thresholds
	if th == (Thresholds{}) {
		th = DefaultThresholds()
	}
	if err := th.Validate(); err != nil {
		return nil, err
	}
	margin := opts.RearmMargin
	if margin == 0 {
		margin = DefaultRearmMargin
	}
	if !(margin > 0 && margin < th.Warn) {
		return nil, handoff.Errorf(handoff.EINVALID,
			"re-arm margin must satisfy 0 < margin < warn threshold (%v): got %v", th.Warn, margin)
	}
	if opts.ContextWindow < 0 {
		return nil, handoff.Errorf(handoff.EINVALID, "context window must not be negative: got %d", opts.ContextWindow)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m := &Monitor{
		model:       opts.Model,
		window:      opts.ContextWindow,
		thresholds:  th,
		rearmMargin: margin,
		log:         log,
		state:       opts.State,
	}
	m.last = m.statusLocked(opts.State.TokensUsed, opts.State.Source, "", 0, 0)
	return m, nil
}

// Thresholds returns the thresholds the monitor applies.
func (m *Monitor) Thresholds() Thresholds { return m.thresholds }

// Observe records one observation and returns the verdict.
func (m *Monitor) Observe(obs Observation) Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	used, source, provider := obs.CountedTokens, handoff.UsageEstimate, 0
	reported := 0
	if u := obs.ProviderUsage; u != nil && u.ContextTokens()+u.OutputTokens > 0 {
		used, source = u.ContextTokens()+u.OutputTokens, handoff.UsageProvider
		provider = u.ContextTokens()
		reported = u.ContextWindow
	}
	window := obs.ContextWindow
	if window <= 0 {
		window = reported
	}
	return m.observeLocked(max(used, 0), source, obs.Model, window, provider)
}

// ObserveUsage records a figure Measure computed for a whole transcript
// (what `handoff watch` does after each append).
func (m *Monitor) ObserveUsage(u handoff.Usage) Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	source := u.Source
	if source == "" {
		source = handoff.UsageEstimate
	}
	return m.observeLocked(max(u.TokensUsed, 0), source, u.Model, u.ContextWindow, 0)
}

// ObserveMessage updates the figure with one main-thread message as it
// arrives, the incremental form of Measure: an assistant message with
// provider usage replaces the figure with the provider's; a compaction
// summary starts a new estimate from its own counted tokens; any other
// message adds its counted tokens (c may be nil to skip counting, leaving
// the figure as it is). Subagent (sidechain) messages are not the main
// context and leave the figure unchanged; they return the current status
// with Fired false.
func (m *Monitor) ObserveMessage(msg handoff.Message, c *Counter) Status {
	count := func() int {
		if c == nil {
			return 0
		}
		return c.CountMessage(msg)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if msg.Sidechain {
		s := m.last
		s.Fired = false
		return s
	}
	switch {
	case hasUsage(&msg):
		u := msg.Usage
		return m.observeLocked(u.ContextTokens()+u.OutputTokens, handoff.UsageProvider, msg.Model, u.ContextWindow, u.ContextTokens())
	case msg.CompactSummary:
		return m.observeLocked(count(), handoff.UsageEstimate, "", 0, 0)
	default:
		source := m.state.Source
		if source == "" {
			source = handoff.UsageEstimate
		}
		return m.observeLocked(m.state.TokensUsed+count(), source, "", 0, 0)
	}
}

// Status returns the verdict of the last observation with Fired false,
// for a status line that should not act.
func (m *Monitor) Status() Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.last
	s.Fired = false
	return s
}

// State returns what the monitor remembers, to pass back through
// MonitorOptions.State in a later process.
func (m *Monitor) State() MonitorState {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state
}

// observeLocked applies the crossing rules to one figure. m.mu is held.
func (m *Monitor) observeLocked(used int, source handoff.UsageSource, model string, window, providerContext int) Status {
	s := m.statusLocked(used, source, model, window, providerContext)
	th := m.thresholds
	// Re-arm first, so a drop below the margin followed by a climb in the
	// same observation sequence fires again.
	if s.Utilization < th.Checkpoint-m.rearmMargin {
		m.state.CheckpointFired = false
	}
	if s.Utilization < th.Warn-m.rearmMargin {
		m.state.WarnFired = false
	}
	switch s.Level {
	case Checkpoint:
		if !m.state.CheckpointFired {
			s.Fired = true
			m.state.CheckpointFired = true
			// Past both lines at once: the warning is moot.
			m.state.WarnFired = true
		}
	case Warn:
		if !m.state.WarnFired {
			s.Fired = true
			m.state.WarnFired = true
		}
	}
	m.state.TokensUsed, m.state.Source = used, source
	m.last = s
	if s.Fired {
		m.log.Debug("threshold crossed", "level", s.Level, "utilization", s.Utilization,
			"tokens_used", s.TokensUsed, "window", s.ContextWindow, "source", s.Source)
	}
	return s
}

// statusLocked computes the figures of a Status (Fired false). The window
// is the monitor's override, else the observation's (or the last one
// reported), else the model table's for the observation's model (or the
// last one seen, or the monitor's). m.mu is held.
func (m *Monitor) statusLocked(used int, source handoff.UsageSource, model string, window, providerContext int) Status {
	if model != "" {
		m.lastModel = model
	} else if m.lastModel != "" {
		model = m.lastModel
	} else {
		model = m.model
	}
	if window > 0 {
		m.lastWindow = window
	} else {
		window = m.lastWindow
	}
	if providerContext > 0 {
		m.lastProviderContext = providerContext
	} else {
		providerContext = m.lastProviderContext
	}
	switch {
	case m.window > 0:
		window = m.window
	case window > 0:
	default:
		window = tableWindow(model, providerContext, m.log)
	}
	if source == "" {
		source = handoff.UsageEstimate
	}
	util := float64(used) / float64(window)
	return Status{
		Level:           m.thresholds.Decide(util),
		Utilization:     util,
		TokensUsed:      used,
		TokensRemaining: max(0, window-used),
		ContextWindow:   window,
		Source:          source,
		Model:           model,
	}
}

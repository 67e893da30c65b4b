package main

import (
	"fmt"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/transcript"
)

// syntheticModel marks the assistant lines Claude Code makes up itself
// (API errors, "No response requested."): their usage is no request, and
// capacity.Measure ignores it.
const syntheticModel = "<synthetic>"

// liveSession is what `handoff watch` knows about the followed transcript:
// the whole transcript so far (a Decoder, the single source of messages)
// and its context fill (a Monitor), kept current one line at a time.
//
// The cost of a line must not grow with the file, so the transcript is not
// read back (Transcript copies every message) until the checkpoint. The
// figure is capacity.Measure's, computed incrementally: the last
// main-thread provider report plus the counted tokens of the main-thread
// messages after it, or, with no report (or a compaction summary after
// it), the counted tokens from the last compaction summary on. Messages
// before `open` are settled and summarised in `settled`; the messages from
// `open` on (the latest main-thread assistant message, or the latest
// report or compaction summary, and everything after it) are re-read with
// MessagesFrom after every line, because a later line can still change
// them in place: a Claude Code response split over lines sharing
// message.id, a Codex token_count attaching the provider's usage to the
// latest assistant message. The parsers change nothing older that the
// figure depends on (a Codex exit code arriving late changes no count).
//
// A transcript whose records span lines (plain text, a pretty-printed
// document: Decoder.MultiLine) has no messages until its end, so each of
// its lines is counted as text: an estimate, which is all such a file has.
type liveSession struct {
	format  transcript.Format
	opts    transcript.Options
	counter *capacity.Counter
	monOpts capacity.MonitorOptions

	dec *transcript.Decoder
	mon *capacity.Monitor

	open    int      // first message that a later line may still change
	settled fill     // the figure over messages[:open]
	text    int      // counted tokens of the raw lines of a MultiLine transcript
	last    observed // what the monitor was last told
}

// fill is the context figure folded over a run of messages, by Measure's
// rules.
type fill struct {
	used   int
	report *handoff.ProviderUsage // the provider report the figure starts from; nil for an estimate
	model  string                 // the latest real main-thread assistant model
}

// add folds one message into the figure.
func (f fill) add(m *handoff.Message, c *capacity.Counter) fill {
	if m.Sidechain {
		return f // subagent traffic is not the main context
	}
	if m.Role == handoff.RoleAssistant && m.Model != "" && m.Model != syntheticModel {
		f.model = m.Model
	}
	switch {
	case m.CompactSummary:
		// As Measure: a summary after (or on) the last report makes the
		// report describe a context that no longer exists.
		f.used, f.report = c.CountMessage(*m), nil
	case hasProviderUsage(m):
		u := *m.Usage
		f.used, f.report = u.ContextTokens()+u.OutputTokens, &u
	default:
		f.used += c.CountMessage(*m)
	}
	return f
}

// hasProviderUsage is capacity's rule for a believable report: synthetic
// messages and all-zero records are no request.
func hasProviderUsage(m *handoff.Message) bool {
	return m.Usage != nil && m.Model != syntheticModel && m.Usage.ContextTokens()+m.Usage.OutputTokens > 0
}

// observed is one reading as handed to the monitor, to skip telling it
// again what it already knows.
type observed struct {
	used     int
	provider bool
	report   handoff.ProviderUsage
	model    string
	window   int
}

func newLiveSession(format transcript.Format, opts transcript.Options, counter *capacity.Counter, monOpts capacity.MonitorOptions) (*liveSession, error) {
	s := &liveSession{format: format, opts: opts, counter: counter, monOpts: monOpts}
	if err := s.reset(); err != nil {
		return nil, err
	}
	return s, nil
}

// reset starts over, for a file truncated or replaced under the watch.
func (s *liveSession) reset() error {
	dec, err := transcript.NewDecoder(s.format, s.opts)
	if err != nil {
		return err
	}
	mon, err := capacity.NewMonitor(s.monOpts)
	if err != nil {
		return err
	}
	s.dec, s.mon = dec, mon
	s.open, s.settled, s.text, s.last = 0, fill{}, 0, observed{}
	return nil
}

// skip accounts for a line too long to keep.
func (s *liveSession) skip(size int) {
	s.dec.Skip(fmt.Sprintf("line of %d bytes is over the length limit; skipped", size))
}

// line consumes one complete line and returns the monitor's verdict: the
// status of the figure after the line (Fired when it crossed a threshold),
// or the standing status when the line changed nothing.
func (s *liveSession) line(data []byte) (capacity.Status, error) {
	if err := s.dec.Feed(data); err != nil {
		return capacity.Status{}, err
	}
	if s.dec.MultiLine() && len(data) > 0 {
		s.text += s.counter.CountMessage(handoff.Message{Role: handoff.RoleUser, Text: string(data)})
	}
	tail := s.dec.MessagesFrom(s.open)
	f := s.settled
	for i := range tail {
		f = f.add(&tail[i], s.counter)
	}
	st := s.observe(f)
	s.settle(tail)
	return st, nil
}

// observe hands the figure to the monitor, unless it is what the monitor
// already has.
func (s *liveSession) observe(f fill) capacity.Status {
	sess := s.dec.Session()
	o := observed{used: f.used + s.text, model: s.monOpts.Model, window: sess.ContextWindow}
	if o.model == "" {
		// --model overrides the transcript's model for the window lookup,
		// as it does for Measure.
		o.model = f.model
		if o.model == "" {
			o.model = sess.Model
		}
	}
	if f.report != nil {
		o.provider, o.report = true, *f.report
		if o.window == 0 {
			o.window = f.report.ContextWindow
		}
	}
	if o == s.last {
		return s.mon.Status()
	}
	s.last = o
	obs := capacity.Observation{CountedTokens: o.used, Model: o.model, ContextWindow: o.window}
	if o.provider {
		// Observe takes a report as prompt plus output; the counted
		// tokens of the messages after the report ride on the output,
		// which the next request carries too, exactly as Measure adds
		// them. The prompt stays the provider's, for the 1M-beta check.
		u := o.report
		u.OutputTokens += o.used - (u.ContextTokens() + u.OutputTokens)
		obs.ProviderUsage = &u
	}
	return s.mon.Observe(obs)
}

// settle moves `open` past the messages no later line will change: it
// stays at the latest main-thread assistant message (which later lines
// extend or attach usage to) or at the latest report or compaction
// summary (which the figure starts from), whichever is later; with
// neither in the tail, at the last message.
func (s *liveSession) settle(tail []handoff.Message) {
	if len(tail) == 0 {
		return
	}
	keep := len(tail) - 1
	assistant, anchor := -1, -1
	for i := range tail {
		m := &tail[i]
		if m.Sidechain {
			continue
		}
		if m.Role == handoff.RoleAssistant {
			assistant = i
		}
		if m.CompactSummary || hasProviderUsage(m) {
			anchor = i
		}
	}
	if assistant >= 0 {
		keep = assistant
	}
	keep = max(keep, anchor)
	for i := range keep {
		s.settled = s.settled.add(&tail[i], s.counter)
	}
	s.open += keep
}

// transcript returns everything read so far, for the snapshot.
func (s *liveSession) transcript() *handoff.Transcript { return s.dec.Transcript() }

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
// it), the counted tokens from the last compaction summary on. A line's
// new messages are read with MessagesFrom. One older message can still
// change: the latest main-thread assistant message, which a later line
// extends or attaches the provider's usage to (a Claude Code response split
// over lines sharing message.id, a Codex token_count). It is pinned and
// re-read with Message after every line; the messages before it are
// folded into `before`, the counted tokens of those after it (none of them
// an assistant message, a report or a compaction summary) into `after`.
// A compaction summary later than the latest assistant message is pinned
// instead, the figure starting from it. The parsers change nothing else
// the figure depends on (a Codex exit code arriving late changes no count).
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

	seen   int      // messages read so far
	pin    int      // the message a later line may still change; -1 for none
	before fill     // the figure over the messages before pin (all of them when pin < 0)
	after  int      // counted tokens of the main-thread messages after pin
	text   int      // counted tokens of the raw lines of a MultiLine transcript
	last   observed // what the monitor was last told
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
	s.seen, s.pin, s.before, s.after, s.text, s.last = 0, -1, fill{}, 0, 0, observed{}
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
	added := s.dec.MessagesFrom(s.seen)
	f := s.before
	if pinned, ok := s.dec.Message(s.pin); ok {
		f = f.add(&pinned, s.counter)
		f.used += s.after
	}
	for i := range added {
		f = f.add(&added[i], s.counter)
	}
	st := s.observe(f)
	s.advance(added)
	return st, nil
}

// advance takes in a line's new messages: the latest main-thread
// assistant message or compaction summary among them becomes the pinned
// one, and the figure up to it moves into before.
func (s *liveSession) advance(added []handoff.Message) {
	newPin := -1
	for i := range added {
		m := &added[i]
		if !m.Sidechain && (m.Role == handoff.RoleAssistant || m.CompactSummary || hasProviderUsage(m)) {
			newPin = i
		}
	}
	if newPin < 0 {
		if s.pin < 0 {
			for i := range added {
				s.before = s.before.add(&added[i], s.counter)
			}
		} else {
			var f fill
			for i := range added {
				f = f.add(&added[i], s.counter)
			}
			s.after += f.used
		}
	} else {
		if pinned, ok := s.dec.Message(s.pin); ok {
			s.before = s.before.add(&pinned, s.counter)
			s.before.used += s.after
		}
		for i := range newPin {
			s.before = s.before.add(&added[i], s.counter)
		}
		var f fill
		for i := newPin + 1; i < len(added); i++ {
			f = f.add(&added[i], s.counter)
		}
		s.pin, s.after = s.seen+newPin, f.used
	}
	s.seen += len(added)
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

// transcript returns everything read so far, for the snapshot.
func (s *liveSession) transcript() *handoff.Transcript { return s.dec.Transcript() }

package capacity

import "github.com/handoff-cli/handoff"

// MessageLog is a transcript that grows while it is read, as
// transcript.Decoder is while it is fed lines: what Incremental needs to
// see of it.
type MessageLog interface {
	// MessagesFrom returns the messages from index i on.
	MessagesFrom(i int) []handoff.Message
	// Message returns message i as it is now (a later line may have
	// extended it), false when there is none.
	Message(i int) (handoff.Message, bool)
	// Session returns what is known of the session so far.
	Session() handoff.SessionInfo
}

// Incremental keeps Measure's figure for a growing transcript current,
// and runs it through a Monitor, at a cost per update that does not grow
// with the transcript: it is what `handoff watch` measures a live session
// with, and the one implementation of the incremental figure.
//
// The figure is Measure's: the last main-thread provider report plus the
// counted tokens of the main-thread messages after it, or, with no report
// (or a compaction summary after it), the counted tokens from the last
// compaction summary on. Each Update reads only the messages the log
// gained. One older message can still change: the latest main-thread
// assistant message, which a later line extends or attaches the
// provider's usage to (a Claude Code response split over lines sharing
// message.id, a Codex token_count). It is pinned and re-read with Message
// on every Update; the messages before it are folded into before, the
// counted tokens of those after it (none of them an assistant message, a
// report or a compaction summary) into after. A compaction summary later
// than the latest assistant message is pinned instead, the figure
// starting from it. Nothing else a parser changes later affects the
// figure (a Codex exit code arriving late changes no count).
//
// A transcript whose records span lines (plain text, a pretty-printed
// document) has no messages until its end, so the caller counts each of
// its lines as text with AddText: an estimate, which is all such a file
// has.
type Incremental struct {
	counter *Counter
	opts    MonitorOptions
	mon     *Monitor

	seen   int      // messages read so far
	pin    int      // the message a later line may still change; -1 for none
	before fill     // the figure over the messages before pin (all of them when pin < 0)
	after  int      // counted tokens of the main-thread messages after pin
	text   int      // counted tokens of AddText's lines
	last   observed // what the monitor was last told
}

// NewIncremental returns an Incremental counting with c (required) and
// judging the figure with a Monitor made from opts.
func NewIncremental(c *Counter, opts MonitorOptions) (*Incremental, error) {
	in := &Incremental{counter: c, opts: opts}
	if err := in.Reset(); err != nil {
		return nil, err
	}
	return in, nil
}

// Reset starts over with an empty transcript and a fresh Monitor, for a
// file truncated or replaced under the watch.
func (in *Incremental) Reset() error {
	mon, err := NewMonitor(in.opts)
	if err != nil {
		return err
	}
	in.mon = mon
	in.seen, in.pin, in.before, in.after, in.text, in.last = 0, -1, fill{}, 0, 0, observed{}
	return nil
}

// AddText counts one raw line of a transcript whose records span lines.
// The next Update includes it.
func (in *Incremental) AddText(line []byte) {
	if len(line) > 0 {
		in.text += in.counter.CountMessage(handoff.Message{Role: handoff.RoleUser, Text: string(line)})
	}
}

// Update reads what log gained since the last Update and returns the
// monitor's verdict: the status of the figure now (Fired when it crossed
// a threshold), or the standing status when nothing changed it.
func (in *Incremental) Update(log MessageLog) Status {
	added := log.MessagesFrom(in.seen)
	f := in.before
	if pinned, ok := log.Message(in.pin); ok {
		f = f.add(&pinned, in.counter)
		f.used += in.after
	}
	for i := range added {
		f = f.add(&added[i], in.counter)
	}
	st := in.observe(f, log.Session())
	in.advance(log, added)
	return st
}

// Status returns the monitor's standing status.
func (in *Incremental) Status() Status { return in.mon.Status() }

// fill is the context figure folded over a run of messages, by Measure's
// rules.
type fill struct {
	used   int
	report *handoff.ProviderUsage // the provider report the figure starts from; nil for an estimate
	model  string                 // the latest real main-thread assistant model
}

// add folds one message into the figure.
func (f fill) add(m *handoff.Message, c *Counter) fill {
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
	case hasUsage(m):
		u := *m.Usage
		f.used, f.report = u.ContextTokens()+u.OutputTokens, &u
	default:
		f.used += c.CountMessage(*m)
	}
	return f
}

// advance takes in an update's new messages: the latest main-thread
// assistant message or compaction summary among them becomes the pinned
// one, and the figure up to it moves into before.
func (in *Incremental) advance(log MessageLog, added []handoff.Message) {
	newPin := -1
	for i := range added {
		m := &added[i]
		if !m.Sidechain && (m.Role == handoff.RoleAssistant || m.CompactSummary || hasUsage(m)) {
			newPin = i
		}
	}
	if newPin < 0 {
		if in.pin < 0 {
			for i := range added {
				in.before = in.before.add(&added[i], in.counter)
			}
		} else {
			var f fill
			for i := range added {
				f = f.add(&added[i], in.counter)
			}
			in.after += f.used
		}
	} else {
		if pinned, ok := log.Message(in.pin); ok {
			in.before = in.before.add(&pinned, in.counter)
			in.before.used += in.after
		}
		for i := range newPin {
			in.before = in.before.add(&added[i], in.counter)
		}
		var f fill
		for i := newPin + 1; i < len(added); i++ {
			f = f.add(&added[i], in.counter)
		}
		in.pin, in.after = in.seen+newPin, f.used
	}
	in.seen += len(added)
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

// observe hands the figure to the monitor, unless it is what the monitor
// already has.
func (in *Incremental) observe(f fill, sess handoff.SessionInfo) Status {
	o := observed{used: f.used + in.text, model: in.opts.Model, window: sess.ContextWindow}
	if o.model == "" {
		// MonitorOptions.Model overrides the transcript's model for the
		// window lookup, as MeasureOptions.Model does for Measure.
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
	if o == in.last {
		return in.mon.Status()
	}
	in.last = o
	obs := Observation{CountedTokens: o.used, Model: o.model, ContextWindow: o.window}
	if o.provider {
		// Observe takes a report as prompt plus output; the counted
		// tokens of the messages after the report ride on the output,
		// which the next request carries too, exactly as Measure adds
		// them. The prompt stays the provider's, for the 1M-beta check.
		u := o.report
		u.OutputTokens += o.used - (u.ContextTokens() + u.OutputTokens)
		obs.ProviderUsage = &u
	}
	return in.mon.Observe(obs)
}

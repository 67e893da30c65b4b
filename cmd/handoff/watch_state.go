package main

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/transcript"
)

// liveSession is what `handoff watch` knows about the followed transcript:
// the whole transcript so far (a Decoder, for the snapshot at the
// checkpoint) and its context fill (a Monitor, kept current one line at a
// time).
//
// The cost of a line must not grow with the file. The Decoder's Feed is
// incremental, but reading its messages back (Transcript) copies all of
// them, so the monitor is fed from a throwaway decoder that sees only the
// new line: its messages go to Monitor.ObserveMessage, which replaces the
// figure with a provider's usage or adds the counted tokens of the rest.
// The full transcript is read back once, at the checkpoint.
type liveSession struct {
	format  transcript.Format
	opts    transcript.Options
	counter *capacity.Counter
	monOpts capacity.MonitorOptions

	dec *transcript.Decoder
	mon *capacity.Monitor
	// afterBoundary: the last Claude Code message line was a
	// compact_boundary, so the next user text is the compaction summary.
	// The main decoder tracks this across lines; a one-line decoder cannot.
	afterBoundary bool
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
	s.dec, s.mon, s.afterBoundary = dec, mon, false
	return nil
}

// skip accounts for a line too long to keep.
func (s *liveSession) skip(size int) {
	s.dec.Skip(fmt.Sprintf("line of %d bytes is over the length limit; skipped", size))
}

// line consumes one complete line and returns the monitor's verdict on it:
// the most urgent status that fired for the line's messages, else the last.
func (s *liveSession) line(data []byte) (capacity.Status, error) {
	if err := s.dec.Feed(data); err != nil {
		return capacity.Status{}, err
	}
	msgs, boundary := s.lineMessages(data)
	if s.monOpts.Model != "" {
		// --model overrides the transcript's model for the window lookup,
		// as it does for Measure; the monitor prefers a message's own.
		for i := range msgs {
			if msgs[i].Model != "" && !strings.HasPrefix(msgs[i].Model, "<") {
				msgs[i].Model = s.monOpts.Model
			}
		}
	}
	st := s.mon.Status()
	fired := false
	for _, m := range msgs {
		got := s.mon.ObserveMessage(m, s.counter)
		if got.Fired && (!fired || got.Level == capacity.Checkpoint) {
			st, fired = got, true
		} else if !fired {
			st = got
		}
	}
	if boundary {
		s.afterBoundary = true
	}
	return st, nil
}

// lineMessages decodes one line on its own. Lines that are not messages
// (metadata) give none. A format whose records span lines (a pretty-
// printed OpenAI document, plain text turns) gives nothing per line, so
// its lines are counted as text: an estimate, which is all such a file
// has anyway.
func (s *liveSession) lineMessages(data []byte) ([]handoff.Message, bool) {
	one, err := transcript.NewDecoder(s.format, transcript.Options{
		Format: s.format, MaxLineBytes: s.opts.MaxLineBytes, MaxToolOutputBytes: s.opts.MaxToolOutputBytes,
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		return nil, false
	}
	_ = one.Feed(data) // a malformed line is the main decoder's warning
	msgs := one.Transcript().Messages
	if s.format != transcript.FormatClaudeCode {
		if len(msgs) == 0 && len(data) > 0 {
			msgs = []handoff.Message{{Role: handoff.RoleUser, Text: string(data)}}
		}
		return msgs, false
	}
	var head struct {
		Type    string `json:"type"`
		Subtype string `json:"subtype"`
	}
	if json.Unmarshal(data, &head) != nil {
		return msgs, false
	}
	boundary := head.Type == "system" && head.Subtype == "compact_boundary"
	if len(msgs) > 0 && s.afterBoundary {
		for i := range msgs {
			if msgs[i].Role == handoff.RoleUser && !msgs[i].Sidechain {
				msgs[i].CompactSummary = true
				s.afterBoundary = false
				break
			}
		}
		if msgs[0].Role == handoff.RoleAssistant {
			s.afterBoundary = false
		}
	}
	return msgs, boundary
}

// transcript returns everything read so far, for the snapshot.
func (s *liveSession) transcript() *handoff.Transcript { return s.dec.Transcript() }

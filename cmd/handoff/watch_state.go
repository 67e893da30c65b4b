package main

import (
	"fmt"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/transcript"
)

// liveSession is what `handoff watch` knows about the followed transcript:
// the whole transcript so far (a Decoder, the single source of messages)
// and its context fill (capacity.Incremental, Measure's figure kept
// current), both advanced one line at a time at a cost that does not grow
// with the file. The transcript is not read back (Transcript copies every
// message) until the checkpoint.
type liveSession struct {
	format  transcript.Format
	opts    transcript.Options
	counter *capacity.Counter
	monOpts capacity.MonitorOptions

	dec *transcript.Decoder
	mon *capacity.Incremental
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
	mon, err := capacity.NewIncremental(s.counter, s.monOpts)
	if err != nil {
		return err
	}
	s.dec, s.mon = dec, mon
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
	if s.dec.MultiLine() {
		// Records spanning lines have no messages until the end: each
		// line is estimated as text.
		s.mon.AddText(data)
	}
	return s.mon.Update(s.dec), nil
}

// transcript returns everything read so far, for the snapshot.
func (s *liveSession) transcript() *handoff.Transcript { return s.dec.Transcript() }

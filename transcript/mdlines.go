package transcript

import (
	"fmt"

	"github.com/handoff-cli/handoff"
)

// mdReader reads a markdown chat log (Aider, SpecStory) one line at a
// time, committing each turn when the next one starts.
type mdReader interface {
	line(d *Decoder, l string, lineNo int)
	// held returns the turn being read as it would be committed, for a
	// snapshot taken before the end.
	held() []handoff.Message
	// end commits the last turn; lines is how many lines were read.
	end(d *Decoder, lines int)
}

// mdLines is the formatParser of a markdown log read a line at a time:
// memory holds the turn being read (each of its parts bounded by
// MaxLineBytes, turnLines), never the document, so an export of any size
// parses.
type mdLines struct {
	r     mdReader
	lines int
}

func lineFormat(newReader func() mdReader) func() formatParser {
	return func() formatParser { return &mdLines{r: newReader()} }
}

func (p *mdLines) record(d *Decoder, line []byte, n int) error {
	p.lines = n
	p.r.line(d, string(line), n)
	return nil
}

func (p *mdLines) pending() []handoff.Message { return p.r.held() }

func (p *mdLines) finish(d *Decoder) error {
	p.r.end(d, p.lines)
	return nil
}

// turnLines collects the lines of one part of a turn (its text, its
// thinking, a tool block) up to MaxLineBytes; the rest is skipped with a
// warning.
type turnLines struct {
	lines []string
	size  int
	cut   bool
}

// add appends l, read at lineNo in the turn that started at turn.
func (t *turnLines) add(d *Decoder, l string, turn, lineNo int) {
	if t.cut {
		return
	}
	if t.size += len(l) + 1; t.size > d.opts.MaxLineBytes {
		t.cut = true
		d.warn(lineNo, fmt.Sprintf("the turn at line %d is larger than the %d-byte limit: the rest of it is skipped", turn, d.opts.MaxLineBytes))
		return
	}
	t.lines = append(t.lines, l)
}

// reset empties t for the next turn, keeping its storage.
func (t *turnLines) reset() {
	clear(t.lines)
	t.lines, t.size, t.cut = t.lines[:0], 0, false
}

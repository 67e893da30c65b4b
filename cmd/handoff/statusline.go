package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/handoff-cli/handoff/capacity"
)

// statusLineEvery bounds how often the live status line is redrawn.
const statusLineEvery = 100 * time.Millisecond

// statusLine is watch's one-line live display (model, tokens used of the
// window, percent), redrawn in place. It draws only on a terminal and not
// with --quiet: piped to a file it would be noise.
type statusLine struct {
	w     io.Writer
	on    bool
	last  time.Time
	drawn bool
	// width reports the terminal's width, asked at each redraw since the
	// window can be resized; nil: no limit.
	width func() int
}

func newStatusLine(w io.Writer, quiet bool) *statusLine {
	f, ok := w.(*os.File)
	s := &statusLine{w: w, on: ok && !quiet && isTerminal(f)}
	if s.on {
		s.width = func() int { _, w := terminalOf(f); return w }
	}
	return s
}

func (s *statusLine) show(st capacity.Status) {
	if !s.on || st.ContextWindow == 0 {
		return
	}
	now := time.Now()
	if s.drawn && now.Sub(s.last) < statusLineEvery {
		return
	}
	s.last, s.drawn = now, true
	model := st.Model
	if model == "" {
		model = "unknown model"
	}
	line := fmt.Sprintf("handoff: %s · %d/%d tokens · %.1f%%", model, st.TokensUsed, st.ContextWindow, 100*st.Utilization)
	// One column short of the width: a line that fills the last column
	// wraps on some terminals, and \r then redraws only its second row.
	if s.width != nil {
		if w := s.width(); w > 1 {
			line = cut(line, w-1)
		}
	}
	fmt.Fprint(s.w, "\r\x1b[K"+line)
}

// clear erases the line before other output.
func (s *statusLine) clear() {
	if s.on && s.drawn {
		fmt.Fprint(s.w, "\r\x1b[K")
		s.drawn = false
	}
}

// done leaves the last figures on screen and ends the line.
func (s *statusLine) done() {
	if s.on && s.drawn {
		fmt.Fprintln(s.w)
		s.drawn = false
	}
}

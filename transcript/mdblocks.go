package transcript

import (
	"fmt"
	"strings"
)

// mdBlock is one block of a chat exported as markdown: the lines between
// two "---" rules, with its first line number.
type mdBlock struct {
	line  int
	lines []string
}

// isRule reports whether l is a "---" rule outside a code fence, keeping
// track in fence of the fence l opens or closes.
func isRule(fence *string, l string) bool {
	t := strings.TrimSpace(l)
	switch {
	case *fence != "":
		if strings.HasPrefix(t, *fence) && strings.Trim(t, string((*fence)[0])) == "" {
			*fence = ""
		}
	case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
		*fence = t[:len(t)-len(strings.TrimLeft(t, string(t[0])))]
	case t == "---":
		return true
	}
	return false
}

// ruleBlocks reads a markdown chat export a turn at a time, as its
// lines arrive, so memory holds one turn, not the document (Cursor's
// Export chat and Copilot CLI's /share, whose turns are "---" blocks).
// A block that does not open a turn (opens) is the rest of the turn
// before it: the message itself held a "---" rule, which the export
// cannot tell from its own. A turn goes to block when the next one
// opens. A turn over MaxLineBytes is skipped with a warning.
type ruleBlocks struct {
	block func(d *Decoder, b mdBlock, first bool)
	opens func(b mdBlock) bool
	// cur is the block being read, turn the turn it may continue; each
	// is bounded by MaxLineBytes.
	cur, turn mdBlock
	held      bool // turn holds a block
	fence     string
	size      int // bytes of cur
	turnSize  int // bytes of turn
	tooBig    bool
	n         int // turns handed on
}

func (r *ruleBlocks) line(d *Decoder, line []byte, n int) error {
	if r.cur.line == 0 {
		r.cur.line = n
	}
	l := string(line)
	if isRule(&r.fence, l) {
		err := r.endBlock(d)
		r.cur = mdBlock{line: n + 1}
		return err
	}
	if r.size += len(line) + 1; r.size > d.opts.MaxLineBytes {
		r.tooBig, r.cur.lines = true, nil
		return nil
	}
	if !r.tooBig {
		r.cur.lines = append(r.cur.lines, l)
	}
	return nil
}

// endBlock takes the block just read into the turn it continues, or
// hands the held turn on and holds the block as the next one.
func (r *ruleBlocks) endBlock(d *Decoder) error {
	cur, size, tooBig := r.cur, r.size, r.tooBig
	r.cur, r.size, r.tooBig = mdBlock{}, 0, false
	if tooBig {
		return d.recordError(cur.line, fmt.Errorf("block is larger than the %d-byte limit: skipped", d.opts.MaxLineBytes))
	}
	if cur.firstContent() < 0 {
		return nil // blank, or only a <sub> line such as /share's footer
	}
	if r.held && !r.opens(cur) {
		if r.turnSize+size > d.opts.MaxLineBytes {
			return d.recordError(cur.line, fmt.Errorf("the rest of the turn at line %d makes it larger than the %d-byte limit: skipped", r.turn.line, d.opts.MaxLineBytes))
		}
		r.turn.lines = append(append(r.turn.lines, "---"), cur.lines...)
		r.turnSize += size
		return nil
	}
	r.flush(d)
	r.turn, r.turnSize, r.held = cur, size, true
	return nil
}

// flush hands on the held turn.
func (r *ruleBlocks) flush(d *Decoder) {
	if r.held {
		r.block(d, r.turn, r.n == 0)
		r.n++
	}
	r.held, r.turn, r.turnSize = false, mdBlock{}, 0
}

// finish hands on the last turn.
func (r *ruleBlocks) finish(d *Decoder) error {
	err := r.endBlock(d)
	r.flush(d)
	return err
}

// blockFormat is a parser for a markdown export read a turn at a time.
func blockFormat(name string, block func(d *Decoder, b mdBlock, first bool), opens func(b mdBlock) bool) func() formatParser {
	return func() formatParser {
		return &docParser{name: name, blocks: &ruleBlocks{block: block, opens: opens}}
	}
}

// firstContent returns the index of the block's first non-blank line
// that is not a <sub>…</sub> timing line, or -1.
func (b mdBlock) firstContent() int {
	for i, l := range b.lines {
		t := strings.TrimSpace(l)
		if t != "" && !(strings.HasPrefix(t, "<sub>") && strings.HasSuffix(t, "</sub>")) {
			return i
		}
	}
	return -1
}

// body is the block's text after line i, trimmed.
func (b mdBlock) body(i int) string {
	return strings.TrimSpace(strings.Join(b.lines[i+1:], "\n"))
}

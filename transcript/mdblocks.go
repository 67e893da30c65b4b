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

// splitRules splits a markdown document at its "---" rules, except rules
// inside code fences (``` or ~~~, any length), which belong to the code.
func splitRules(lines []string) []mdBlock {
	var out []mdBlock
	cur := mdBlock{line: 1}
	fence := ""
	for i, l := range lines {
		if isRule(&fence, l) {
			out = append(out, cur)
			cur = mdBlock{line: i + 2}
			continue
		}
		cur.lines = append(cur.lines, l)
	}
	return append(out, cur)
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

// ruleBlocks reads a markdown chat export a block at a time, as its
// lines arrive: each block between two "---" rules goes to block as soon
// as the next rule ends it, so memory holds one block, not the document
// (Cursor's Export chat and Copilot CLI's /share, whose turns are such
// blocks). A block over MaxLineBytes is skipped with a warning.
type ruleBlocks struct {
	block  func(d *Decoder, b mdBlock, first bool)
	cur    mdBlock
	fence  string
	size   int
	tooBig bool
	n      int
}

func (r *ruleBlocks) line(d *Decoder, line []byte, n int) error {
	if r.cur.line == 0 {
		r.cur.line = n
	}
	l := string(line)
	if isRule(&r.fence, l) {
		err := r.flush(d)
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

// flush hands on the block read so far.
func (r *ruleBlocks) flush(d *Decoder) error {
	defer func() { r.n, r.size, r.tooBig, r.cur = r.n+1, 0, false, mdBlock{} }()
	if r.tooBig {
		return d.recordError(r.cur.line, fmt.Errorf("block is larger than the %d-byte limit: skipped", d.opts.MaxLineBytes))
	}
	r.block(d, r.cur, r.n == 0)
	return nil
}

// blockFormat is a parser for a markdown export read a block at a time;
// decode, for a buffered document, runs block over splitRules.
func blockFormat(name string, block func(d *Decoder, b mdBlock, first bool)) func() formatParser {
	return func() formatParser {
		return &docParser{name: name, blocks: &ruleBlocks{block: block}, decode: func(d *Decoder, doc []byte) error {
			for i, b := range splitRules(docLines(doc)) {
				block(d, b, i == 0)
			}
			return nil
		}}
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

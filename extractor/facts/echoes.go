package facts

import (
	"math/bits"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// Tool output the assistant repeats. An assistant often quotes what a
// command, a file or a page said ("The changelog says “We decided to use
// evil-orm instead of SQLAlchemy.”") or copies its lines as a blockquote.
// Read as the assistant's words, the quote becomes a decision in force or
// the stated next step, so the heuristic readers see the assistant's text
// with those spans replaced by "“…”" (the LLM path's ownWords does the
// same for grounding).

// echoQuoteRe is a quoted span of a sentence or more: “…” or "…". Code
// spans (`…`) are left alone: they name files and libraries the
// assistant's own choices are about.
var echoQuoteRe = prose.LazyRE(rulebook.Pattern("text.echo-quote"))

// toolEchoes strips the spans of a session's tool output from the
// assistant's text. The folded output is built on first need: most texts
// quote nothing.
type toolEchoes struct {
	msgs []handoff.Message
	fold *string
	// grams, built once searches reach gramSearches, answers most
	// searches without reading the whole output: each is a scan of a
	// session's tool output, and a session's quotes grow with it.
	grams    *gramSet
	searches int
}

// gramSearches is the search of the folded output that builds its
// gramSet first: about as dear as a search, it pays for itself after a
// few.
const gramSearches = 4

// NewToolEchoes returns the echo finder over msgs' tool output, folded on
// first use.
func NewToolEchoes(msgs []handoff.Message) *toolEchoes { return &toolEchoes{msgs: msgs} }

// Strip returns text with its quoted spans and blockquote lines that the
// tool output holds verbatim (at least minToolEcho folded characters)
// replaced by "“…”".
func (e *toolEchoes) Strip(text string) string {
	if !strings.ContainsAny(text, "\"“>") {
		return text
	}
	lines := strings.Split(text, "\n")
	changed := false
	for i, l := range lines {
		if q := strings.TrimLeft(l, " "); strings.HasPrefix(q, ">") {
			if e.holds(strings.TrimLeft(q, "> ")) {
				lines[i], changed = "> “…”", true
			}
			continue
		}
		if !strings.ContainsAny(l, "\"“") {
			continue
		}
		out := echoQuoteRe.ReplaceAllStringFunc(l, func(q string) string {
			if e.holds(strings.Trim(q, "“”\"")) {
				changed = true
				return "“…”"
			}
			return q
		})
		lines[i] = out
	}
	if !changed {
		return text
	}
	return strings.Join(lines, "\n")
}

// holds reports whether the tool output holds s, folded.
func (e *toolEchoes) holds(s string) bool {
	f := prose.FoldText(s)
	if len(f) < MinToolEcho {
		return false
	}
	if e.fold == nil {
		// Sized once: grown by doubling, the builder allocated five
		// times the output it kept (a 100 MB session's 6 MB fold cost
		// 32 MB), and left the heap fragmented at its peak.
		size := 0
		for _, m := range e.msgs {
			for _, r := range m.ToolResults {
				size += len(r.Content) + 1
			}
		}
		var b strings.Builder
		b.Grow(size)
		for _, m := range e.msgs {
			for _, r := range m.ToolResults {
				prose.FoldInto(&b, r.Content)
				b.WriteString("\n")
			}
		}
		t := b.String()
		e.fold = &t
	}
	if e.searches++; e.grams == nil && e.searches >= gramSearches {
		e.grams = newGramSet(*e.fold)
	}
	if e.grams != nil && !e.grams.mayHold(f) {
		return false
	}
	return strings.Contains(*e.fold, f)
}

// gramLen is the length of the substrings a gramSet records; a string it
// is asked about must be at least as long.
const gramLen = 8

// gramSet records every gramLen-byte substring of a text in a bitset by
// hash: a string with one substring it lacks cannot be in the text. Its
// bits number the text's length rounded up to a power of two (at most an
// eighth of the text in memory).
type gramSet struct {
	bits  []uint64
	shift uint // 64 - log2(len(bits)*64): a hash's top bits index the set
}

func newGramSet(text string) *gramSet {
	size := uint(1 << 16)
	for size < uint(len(text)) {
		size <<= 1
	}
	g := &gramSet{bits: make([]uint64, size/64), shift: uint(64 - bits.TrailingZeros(size))}
	for i := 0; i+gramLen <= len(text); i++ {
		h := g.hash(text[i:])
		g.bits[h/64] |= 1 << (h % 64)
	}
	return g
}

// hash is the bit of s's first gramLen bytes.
func (g *gramSet) hash(s string) uint64 {
	v := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	return (v * 0x9e3779b97f4a7c15) >> g.shift
}

// mayHold reports false when s (at least gramLen bytes) cannot be in the
// text: one of its substrings is not.
func (g *gramSet) mayHold(s string) bool {
	for i := 0; i+gramLen <= len(s); i++ {
		h := g.hash(s[i:])
		if g.bits[h/64]&(1<<(h%64)) == 0 {
			return false
		}
	}
	return true
}

// MinToolEcho is the shortest line or quoted span taken to repeat tool
// output when the window's output holds it: shorter ones ("go test ./...")
// are as likely the speaker's own.
const MinToolEcho = 16

package facts

import (
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
}

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
		var b strings.Builder
		for _, m := range e.msgs {
			for _, r := range m.ToolResults {
				prose.FoldInto(&b, r.Content)
				b.WriteString("\n")
			}
		}
		t := b.String()
		e.fold = &t
	}
	return strings.Contains(*e.fold, f)
}

// MinToolEcho is the shortest line or quoted span taken to repeat tool
// output when the window's output holds it: shorter ones ("go test ./...")
// are as likely the speaker's own.
const MinToolEcho = 16

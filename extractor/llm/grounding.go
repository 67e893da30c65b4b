package llm

import (
	"fmt"
	"math"
	"strings"
	"unicode"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// Grounding: a model's record is kept only when its text is supported by
// the message it cites. A valid index is not enough: a model that cites the
// wrong message (by mistake, or because a tool output told it what to
// write) would otherwise attach any text to any message, and the text
// would reach the resume prompt with a trustworthy-looking source.
//
// Support is measured as shared content words: lowercased runs of letters
// and digits of at least three characters, minus stop words, folded by a
// small suffix stemmer so "switching" meets "switch" and "tests" meets
// "tested". A record of n content words is grounded when it shares at
// least max(min(groundMinShared, n), ceil(groundMinFraction × n)) of them
// with the cited message's text: both of a two-word record, half of a
// long one, the one word of a one-word record ("Use Postgres").
//
// Why these numbers: TestGroundingOnRealTranscripts cites sentences of
// the real Claude Code and Codex sessions to their own message (as a
// paraphrase keeping about three quarters of its words from the source)
// and to a wrong one. "Two shared words or 30%, whichever is smaller"
// accepted 99% of the faithful records but also 37% of sentences cited to
// the adjacent message and 18% cited to a distant one: long messages share
// two topic words with almost anything. Half of the record's words keeps
// 97% of the faithful records and accepts 17% (adjacent) and 4% (distant)
// of the wrong ones; decisions are further checked on their chosen phrase.
const (
	groundMinShared   = 2
	groundMinFraction = 0.5
	// tailTurns is how many of the last user/assistant messages with text
	// a current-work or next-step record may cite: the end of a session is
	// where both are stated, usually in the final assistant turn or the
	// one or two before it.
	tailTurns = 4
)

// groundStopWords are words that say nothing about what a message is
// about: English function words, and the words a model uses to frame a
// record ("the user decided to…") that any message could match. The
// stems of contractions ("don" of "don’t") are listed because a typographic
// apostrophe splits the word.
var groundStopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		the and for are but not you your yours all any can had has have her his him its our out was were
		will with this that these those there their them they then than what when where which while who whom
		why how into onto from over under about above after before again also just only very too more most
		some such each other both own same few off down upon via per let lets get got gets make makes made
		should would could shall might must may does did doing done being been use used uses using want wants
		need needs now yes okay please thanks thank sure here still even ever much many one two three via
		user users assistant person session message messages decide decided decides decision decisions
		chose choose chosen choice record step next current currently work working task instead rather
		i'll i'm we'll we're it's that's don't doesn't didn't isn't won't can't
		don doesn didn isn won aren wasn weren shouldn wouldn couldn haven hasn
	`) {
		m[w] = true
	}
	return m
}()

// contentWords returns the distinct stemmed content words of s. Scripts
// written without spaces between words (Chinese, Japanese, Korean) yield
// their character pairs instead, so a paraphrase in them can be matched
// too.
func contentWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	}) {
		if hasUnspaced(w) {
			addPairs(out, w)
			continue
		}
		w = strings.Trim(w, "'")
		if len([]rune(w)) < 3 || groundStopWords[w] {
			continue
		}
		if i := strings.IndexByte(w, '\''); i >= 0 {
			w = w[:i]
			if len(w) < 3 || groundStopWords[w] {
				continue
			}
		}
		out[stem(w)] = true
	}
	return out
}

// hasUnspaced reports whether w holds a letter of a script written
// without spaces between words.
func hasUnspaced(w string) bool {
	for _, r := range w {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Thai) {
			return true
		}
	}
	return false
}

// addPairs adds the pairs of adjacent letters of the unspaced runs of w,
// and its spaced parts as words.
func addPairs(out map[string]bool, w string) {
	var run, other []rune
	flush := func() {
		for i := 0; i+1 < len(run); i++ {
			out[string(run[i:i+2])] = true
		}
		if len(run) == 1 {
			out[string(run)] = true
		}
		run = run[:0]
		if len(other) >= 3 && !groundStopWords[string(other)] {
			out[stem(string(other))] = true
		}
		other = other[:0]
	}
	for _, r := range w {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Thai) {
			if len(other) > 0 {
				flush()
			}
			run = append(run, r)
		} else {
			if len(run) > 0 {
				flush()
			}
			other = append(other, r)
		}
	}
	flush()
}

// stem folds common English inflections. It need not produce words, only
// map a word's forms to one key: both sides of a comparison are stemmed
// the same way.
func stem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s"} {
		if strings.HasSuffix(w, suf) && len(w)-len(suf) >= 3 && !strings.HasSuffix(w, "ss") {
			w = w[:len(w)-len(suf)]
			break
		}
	}
	if len(w) >= 4 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	if n := len(w); n >= 4 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiou", rune(w[n-1])) {
		w = w[:n-1]
	}
	return w
}

// grounded reports whether record shares enough content words with
// source, and how many it shares out of how many it needed.
func grounded(record, source string) (ok bool, shared, need int) {
	return groundedIn(contentWords(record), contentWords(source))
}

// groundedIn is grounded over content words already extracted.
func groundedIn(rw, sw map[string]bool) (ok bool, shared, need int) {
	if len(rw) == 0 {
		return false, 0, 1
	}
	for w := range rw {
		if sw[w] {
			shared++
		}
	}
	need = groundNeed(len(rw))
	return shared >= need, shared, need
}

// groundNeed is how many of a record's n content words the cited message
// must contain.
func groundNeed(n int) int {
	return max(min(groundMinShared, n), int(math.Ceil(groundMinFraction*float64(n))))
}

// groundingError describes a record that failed grounding, for Warnings.
func groundingError(kind string, idx, shared, need int) error {
	return fmt.Errorf("%s is not grounded in message %d: shares %d content word(s) with it, needs %d", kind, idx, shared, need)
}

// citeWindow indexes the messages one request carried, with what grounding
// needs to know about them.
type citeWindow struct {
	byIndex map[int]handoff.Message
	// order is the window's messages in transcript order.
	order []handoff.Message
	// pos maps an index to its position in order.
	pos map[int]int
	// questions maps a question tool call's id to its question text.
	questions map[string]string
	// plans maps a plan-approval call's id (an input with a "plan" text,
	// such as Claude Code's ExitPlanMode) to the plan.
	plans map[string]string
	// tail holds the indexes a current-work or next-step record may cite.
	tail map[int]bool
	// words memoizes contentWords of the sources records were checked
	// against: many records may cite one long tool output.
	words map[string]map[string]bool
	// toolText is the window's tool output, folded by foldText, built on
	// first use: a decision's source loses what lies in it.
	toolText *string
}

// grounded is the package's grounded with the source's words memoized.
func (w *citeWindow) grounded(record, source string) (ok bool, shared, need int) {
	sw, seen := w.words[source]
	if !seen {
		sw = contentWords(source)
		w.words[source] = sw
	}
	return groundedIn(contentWords(record), sw)
}

func newCiteWindow(msgs []handoff.Message) *citeWindow {
	w := &citeWindow{
		byIndex:   make(map[int]handoff.Message, len(msgs)),
		order:     msgs,
		pos:       make(map[int]int, len(msgs)),
		questions: conversation.QuestionCalls(msgs, nil),
		plans:     planCalls(msgs),
		tail:      map[int]bool{},
		words:     map[string]map[string]bool{},
	}
	for i, m := range msgs {
		w.byIndex[m.Index] = m
		w.pos[m.Index] = i
	}
	for _, i := range lastTurns(msgs, tailTurns) {
		w.tail[msgs[i].Index] = true
	}
	return w
}

// lastTurns returns the positions in msgs of the last k sendable messages
// that carry the person's words or the assistant's visible text.
func lastTurns(msgs []handoff.Message, k int) []int {
	var out []int
	for i := len(msgs) - 1; i >= 0 && len(out) < k; i-- {
		if m := msgs[i]; sendable(m) && (personWords(m, nil) != "" || assistantText(m) != "") {
			out = append(out, i)
		}
	}
	return out
}

// assistantText is what the assistant said in m, "" for other roles.
func assistantText(m handoff.Message) string {
	if m.Meta || m.Role != handoff.RoleAssistant {
		return ""
	}
	return strings.TrimSpace(m.Text)
}

// planCalls finds calls that put a plan to the person for approval, by
// shape: an input with a non-empty "plan" text. It returns each plan by
// call id.
func planCalls(msgs []handoff.Message) map[string]string {
	return conversation.CallTexts(msgs, func(c handoff.ToolCall) string {
		return strings.TrimSpace(facts.Str(facts.DecodeObject(c.Input), "plan"))
	})
}

// planApproved reports whether a plan call's result says the person
// approved the plan.
func planApproved(content string) bool {
	c := strings.ToLower(strings.TrimSpace(content))
	return strings.HasPrefix(c, "user has approved") || strings.HasPrefix(c, "the user approved")
}

// personWords is what the person said in m: the text of a real user
// message (harness wrappers removed), their answers to a question tool
// call, or their approval of a plan (those two only when w, the window
// that holds the calls, is given).
func personWords(m handoff.Message, w *citeWindow) string {
	if m.Meta || m.Role != handoff.RoleUser && m.Role != handoff.RoleTool {
		return ""
	}
	var parts []string
	if m.Role == handoff.RoleUser && !m.CompactSummary {
		if t := facts.UserRequest(m.Text); t != "" {
			parts = append(parts, t)
		}
	}
	if w == nil {
		return strings.Join(parts, "\n")
	}
	for _, r := range m.ToolResults {
		if r.CallID == "" {
			continue
		}
		if _, ok := w.questions[r.CallID]; ok {
			if a := conversation.AnswerText(r.Content); a != "" {
				parts = append(parts, a)
			}
		}
		if _, ok := w.plans[r.CallID]; ok && planApproved(r.Content) {
			parts = append(parts, "The person approved the plan.")
		}
	}
	return strings.Join(parts, "\n")
}

// proposalBefore is the assistant's text (and the questions it asked or
// the plan it put forward) just before the person's message at idx: what
// "yes, do that", "(b)" or a plan approval approves.
func (w *citeWindow) proposalBefore(idx int) string {
	p, ok := w.pos[idx]
	if !ok {
		return ""
	}
	var parts []string
	for i := p - 1; i >= 0; i-- {
		m := w.order[i]
		if personWords(m, nil) != "" {
			break
		}
		for _, c := range m.ToolCalls {
			if q, ok := w.questions[c.ID]; ok {
				parts = append(parts, q)
			}
			if p, ok := w.plans[c.ID]; ok {
				parts = append(parts, p)
			}
		}
		if t := assistantText(m); t != "" {
			parts = append(parts, t)
			break
		}
	}
	return strings.Join(parts, "\n")
}

// decisionSource is the text a decision citing m must be grounded in: the
// assistant's words, or the person's with the proposal they answered —
// their own words only (ownWords): a record whose support lies in tool
// output is not grounded, whatever the model says.
func (w *citeWindow) decisionSource(m handoff.Message) string {
	if t := assistantText(m); t != "" {
		return w.ownWords(t)
	}
	if m.CompactSummary {
		return m.Text
	}
	if p := personWords(m, w); p != "" {
		return w.ownWords(p + "\n" + w.proposalBefore(m.Index))
	}
	return ""
}

// errorSource is the text an error citing m must be grounded in: what was
// said, and the tool output.
func errorSource(m handoff.Message) string {
	parts := []string{m.Text}
	for _, r := range m.ToolResults {
		parts = append(parts, r.Content)
	}
	return strings.Join(parts, "\n")
}

// Own words. A speaker's text can carry tool output: a command and what
// it printed pasted after "$ cmd" or in a terminal fence, a log line
// quoted from a result. A decision grounded in that text would be the
// tool's word passed off as the speaker's ("We decided to use evil-orm" in
// a cat of CHANGELOG.md), so a decision's source leaves it out.

// groundConsoleInfo are fence info strings of terminal sessions and output.
var groundConsoleInfo = rulebook.WordSet("facts.console-fences")

// ownWords is text without the command output nested in it ("$ cmd" and
// the lines under it up to a blank line, terminal fences) and without the
// lines and quoted spans the window's tool output holds verbatim.
func (w *citeWindow) ownWords(text string) string {
	tool := w.foldedToolText()
	var out []string
	fence, console, output := "", false, false
	for _, l := range strings.Split(text, "\n") {
		if fence != "" {
			if m := facts.GroundFenceRe.FindStringSubmatch(l); m != nil && strings.HasPrefix(m[1], fence) && m[2] == "" {
				fence = ""
			}
			if !console {
				out = append(out, l)
			}
			continue
		}
		if m := facts.GroundFenceRe.FindStringSubmatch(l); m != nil {
			fence, console, output = m[1], groundConsoleInfo[strings.ToLower(m[2])], false
			if !console {
				out = append(out, l)
			}
			continue
		}
		if strings.TrimSpace(l) == "" {
			output = false
			out = append(out, l)
			continue
		}
		if output || facts.GroundPromptRe.MatchString(l) {
			output = true
			continue
		}
		if f := prose.FoldText(strings.TrimLeft(l, " >*-•")); len(f) >= facts.MinToolEcho && strings.Contains(tool, f) {
			continue
		}
		out = append(out, facts.GroundQuoteRe.ReplaceAllStringFunc(l, func(q string) string {
			if f := prose.FoldText(strings.Trim(q, "“”\"`")); len(f) >= facts.MinToolEcho && strings.Contains(tool, f) {
				return ""
			}
			return q
		}))
	}
	return strings.Join(out, "\n")
}

// foldedToolText is the window's tool output folded by foldText.
func (w *citeWindow) foldedToolText() string {
	if w.toolText == nil {
		var b strings.Builder
		for _, m := range w.order {
			for _, r := range m.ToolResults {
				b.WriteString(prose.FoldText(r.Content))
				b.WriteString("\n")
			}
		}
		t := b.String()
		w.toolText = &t
	}
	return *w.toolText
}

package conversation

import (
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

var (
	statedNextRe = prose.LazyRE(rulebook.Pattern("conversation.stated-next"))
	OfferedNext  = prose.LazyRE(rulebook.Pattern("conversation.offered-next"))
	questionEnd  = prose.LazyRE(rulebook.Pattern("conversation.question-end"))
)

// endState reads where the session stopped.
func endState(t *handoff.Transcript, main []handoff.Message, results map[string]handoff.ToolResult, heads *facts.Headlines, sw rulebook.Switches) *handoff.EndState {
	e := &handoff.EndState{Signal: t.Session.EndSignal}
	lastText := lastAssistantText(main)
	if lastText >= 0 {
		m := main[lastText]
		e.LastAssistant = prose.ClipSentences(facts.WithoutThinking(m.Text), lastAssistantLimit)
		e.LastSource = m.Ref()
	}
	answeredQuestion := readAfterLastText(e, main, lastText)
	if e.Signal == "" && interruptedAtEnd(main) {
		e.Signal = "interrupted by the user"
	}
	// Calls left without a result: only those after the assistant's last
	// words (it spoke after the others, so they had come back), only in
	// formats that pair results with calls by id, and not when the format
	// says the run finished.
	if pairsByID(main) && e.Signal != "finished" && e.Signal != "submitted" {
		readInFlight(e, main[max(lastText, 0):], results, heads)
	}
	// A question put to the person in the last text, still unanswered.
	if lastText >= 0 && !answeredQuestion && e.Question == "" {
		e.Question = lastQuestion(main[lastText].Text)
	}
	e.StatedNext = statedNextOf(main, lastText)
	if e.Signal == "submitted" {
		e.Patch = SubmittedPatch(main)
	}
	if text, src, ok := facts.LateReport(main); ok {
		e.Report, e.ReportSource = text, src
	}
	last := lastText
	if last < 0 {
		last = len(main) // nothing said: every report is before the end
	}
	said := !hasToolCalls(main)
	e.KeyLines, e.Findings = keyLinesOf(main, last, e.ReportSource, said && sw.On("conversation.said-changes"))
	if said && sw.On("conversation.said-files") {
		e.ReportedFiles = reportedFiles(main)
	}
	if said && sw.On("conversation.said-checks") {
		e.ReportedChecks = reportedChecks(main, last)
	}
	if text, src, ok := facts.ReasoningWork(main); ok {
		e.Reasoning, e.ReasoningSource = text, src
	}
	e.Commands = commandsAfter(main, lastText)
	if endStateEmpty(e) {
		return nil
	}
	return e
}

// lastAssistantText is the index of the assistant's last message with
// text, -1 when it said nothing.
func lastAssistantText(main []handoff.Message) int {
	lastText := -1
	for i, m := range main {
		if m.Role == handoff.RoleAssistant && strings.TrimSpace(m.Text) != "" {
			lastText = i
		}
	}
	return lastText
}

// readAfterLastText reads the person's words after the assistant's last
// text: the requests still unanswered and an /exit. It reports whether
// the person said anything there, which answers a question the text put.
//
// The person's messages after the assistant's last text were answered
// (questions) or taken up; the assistant acting after one (a tool call)
// is working on it, so only messages after its last action of any kind
// are unanswered.
func readAfterLastText(e *handoff.EndState, main []handoff.Message, lastText int) bool {
	lastAct := -1
	for i, m := range main {
		if m.Role == handoff.RoleAssistant {
			lastAct = i
		}
	}
	answered := false
	for i, m := range main[lastText+1:] {
		if m.Role != handoff.RoleUser || m.Meta || m.CompactSummary {
			continue
		}
		req := CleanRequest(facts.UserRequest(m.Text))
		if req == "" {
			continue
		}
		answered = true
		if IsCommandOnly(req) {
			if e.Signal == "" && (strings.HasPrefix(req, "/exit") || strings.HasPrefix(req, "/quit")) {
				e.Signal = "user exited"
			}
			continue
		}
		if lastText+1+i > lastAct {
			e.Unanswered = append(e.Unanswered, prose.ClipSentences(req, requestLimit))
		}
	}
	return answered
}

// interruptedAtEnd reports an interruption after the last turn of either
// side.
func interruptedAtEnd(main []handoff.Message) bool {
	interrupted := false
	for i := len(main) - 1; i >= 0; i-- {
		m := main[i]
		if m.Interrupt {
			interrupted = true
		}
		if m.Role == handoff.RoleAssistant || (m.Role == handoff.RoleUser && !m.Meta && facts.UserRequest(m.Text) != "") {
			break
		}
	}
	return interrupted
}

// readInFlight records the calls of tail that have no result: a question
// tool as the question put to the person, any other as in flight.
func readInFlight(e *handoff.EndState, tail []handoff.Message, results map[string]handoff.ToolResult, heads *facts.Headlines) {
	for _, m := range tail {
		for _, c := range m.ToolCalls {
			if c.ID == "" {
				continue
			}
			if _, ok := results[c.ID]; ok {
				continue
			}
			if q := questionText(c, heads); q != "" {
				e.Question = prose.ClipSentences(q, StatedNextLimit)
				continue
			}
			e.InFlight = append(e.InFlight, prose.Truncate(prose.FirstLine(describeCall(c)), toolLineLimit))
		}
	}
}

// statedNextOf is the assistant's own stated next step, from its last
// few turns. A statement before the last words that the agent went on
// to act on (tool calls after it, before its last words) is done or
// under way, not the next step: the search stops at the first such call.
func statedNextOf(main []handoff.Message, lastText int) string {
	seenTexts := 0
	echoes := facts.NewToolEchoes(main)
	for i := len(main) - 1; i >= 0 && seenTexts < 3; i-- {
		m := main[i]
		if m.Role == handoff.RoleUser && !m.Meta && facts.UserRequest(m.Text) != "" && i < lastText {
			break
		}
		if m.Role != handoff.RoleAssistant {
			continue
		}
		if i < lastText && len(m.ToolCalls) > 0 {
			break
		}
		if strings.TrimSpace(m.Text) == "" {
			continue
		}
		seenTexts++
		if s := statedNext(echoes.Strip(m.Text)); s != "" {
			return s
		}
	}
	return ""
}

// endStateEmpty reports an end state that says nothing.
func endStateEmpty(e *handoff.EndState) bool {
	return e.LastAssistant == "" && e.Signal == "" && len(e.Unanswered) == 0 && len(e.InFlight) == 0 && e.Question == "" &&
		e.Reasoning == "" && len(e.Commands) == 0 && len(e.KeyLines) == 0 && len(e.Findings) == 0 && len(e.ReportedFiles) == 0 && len(e.ReportedChecks) == 0
}

// interruptNote is the harness's record of an interruption, short: its
// first line, or "turn aborted" for Codex's <turn_aborted> envelope,
// whose first line is only the tag.
func interruptNote(text string) string {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "<turn_aborted>") {
		return "turn aborted"
	}
	return prose.Truncate(prose.FirstLine(t), 80)
}

// pairsByID reports whether the transcript pairs tool results with their
// calls by id: without that, a call cannot be known to lack a result.
func pairsByID(main []handoff.Message) bool {
	for _, m := range main {
		for _, r := range m.ToolResults {
			if r.CallID != "" {
				return true
			}
		}
	}
	return false
}

// lastQuestion returns the question the text ends on: the question
// sentences of its last two paragraphs (a question is often followed by a
// sentence of context, "A new option would be additive, but …").
func lastQuestion(text string) string {
	paras := strings.Split(strings.TrimSpace(facts.StripCode(text)), "\n")
	seen := 0
	for i := len(paras) - 1; i >= 0 && seen < 2; i-- {
		p := strings.TrimSpace(paras[i])
		if p == "" {
			continue
		}
		seen++
		var qs []string
		for _, s := range prose.SplitSentences(p) {
			if questionEnd.MatchString(strings.TrimSpace(s)) {
				qs = append(qs, strings.TrimSpace(s))
			}
		}
		if len(qs) > 0 {
			return prose.Truncate(strings.Join(qs, " "), StatedNextLimit)
		}
	}
	return ""
}

// statedNext returns the sentence (and the list that follows it) in which
// the assistant said what comes next, or "".
func statedNext(text string) string {
	lines := strings.Split(facts.StripCode(text), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		loc := statedNextRe.FindStringIndex(l)
		if l == "" || loc == nil {
			continue
		}
		// From the sentence that says it: what the line reported before
		// ("The doc is complete. Ready to start Chunk 1 …") is done.
		l = l[sentenceStart(l, loc[1]-1):]
		out := l
		// A heading-like line ("Next steps:") is followed by its list.
		if strings.HasSuffix(strings.TrimRight(l, "*"), ":") {
			for _, f := range lines[i+1:] {
				f = strings.TrimSpace(f)
				if f == "" {
					if out != l {
						break
					}
					continue
				}
				if !ListItem(f) {
					break
				}
				out += " " + f
			}
		}
		return prose.Truncate(facts.SpaceRun.ReplaceAllString(out, " "), StatedNextLimit)
	}
	return ""
}

// sentenceStart returns where the sentence holding byte at of s begins:
// after the last ". ", "! " or "? " before it, else 0.
func sentenceStart(s string, at int) int {
	for i := at - 1; i > 0; i-- {
		if s[i] == ' ' && strings.ContainsRune(".!?", rune(s[i-1])) {
			return i + 1
		}
	}
	return 0
}

var listItemRe = prose.LazyRE(rulebook.Pattern("conversation.list-item"))

// ListItem reports whether s opens with a list item's marker.
func ListItem(s string) bool { return listItemRe.MatchString(s) }

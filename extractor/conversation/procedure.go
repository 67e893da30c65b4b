package conversation

import (
	"path"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// A numbered procedure is a request (often a slash command's expanded
// prompt) whose body is "1. … 2. … 3. …". When the session stops inside
// one, the next step is its first step not yet visibly done, which a
// clipped quote of the request hides.

var (
	stepRe      = prose.LazyRE(rulebook.Pattern("conversation.step"))
	headingRe   = prose.LazyRE(rulebook.Pattern("conversation.heading"))
	BacktickRe  = prose.LazyRE(rulebook.Pattern("text.code-span"))
	stepFileRe  = prose.LazyRE(rulebook.Pattern("conversation.step-file"))
	placeholder = prose.LazyRE(rulebook.Pattern("conversation.step-placeholder"))
)

// procStep is one numbered step and what shows it was done: the files it
// names and the commands (program and subcommand) it spells out.
type procStep struct {
	n      int
	text   string
	tokens []string
}

// procedureSteps reads the top-level numbered steps of text, numbered from
// 1 without gaps; nil when it holds fewer than two.
func procedureSteps(text string) []procStep {
	var steps []procStep
	indent := -1
	var body []string
	flush := func() {
		if len(steps) > 0 {
			steps[len(steps)-1].text = strings.Join(body, "\n")
		}
		body = nil
	}
	for _, line := range strings.Split(text, "\n") {
		if m := stepRe.FindStringSubmatch(line); m != nil && (indent < 0 || len(m[1]) == indent) {
			n, _ := strconv.Atoi(m[2])
			if n == len(steps)+1 {
				flush()
				indent = len(m[1])
				steps = append(steps, procStep{n: n})
				body = []string{m[3]}
				continue
			}
		}
		if len(steps) == 0 {
			continue
		}
		if headingRe.MatchString(line) {
			flush()
			break // the procedure ends at the next heading
		}
		body = append(body, line)
	}
	flush()
	if len(steps) < 2 {
		return nil
	}
	for i := range steps {
		steps[i].tokens = stepTokens(steps[i].text)
	}
	return steps
}

// stepTokens lists what a step names that a tool call would show: file
// names in backticks and the first two words of each command it spells
// out (a fenced line, a backticked command).
func stepTokens(text string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		s = strings.ToLower(strings.TrimSpace(s))
		if s != "" && !seen[s] && !placeholder.MatchString(s) {
			seen[s] = true
			out = append(out, s)
		}
	}
	command := func(s string) {
		f := strings.Fields(s)
		if len(f) >= 2 && facts.IsWord(f[0]) && !placeholder.MatchString(f[1]) {
			add(f[0] + " " + f[1])
		}
	}
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			command(l)
			continue
		}
		for _, m := range BacktickRe.FindAllStringSubmatch(l, -1) {
			span := strings.TrimSpace(m[1])
			switch {
			case stepFileRe.MatchString(span) && !strings.Contains(span, " "):
				add(path.Base(span))
			case strings.Contains(span, " "):
				command(span)
			}
		}
	}
	return out
}

// ProcedureNext returns the next step inside the latest request when it is
// a numbered procedure the session stopped inside: its first step whose
// named files and commands the calls after it do not all show, when every
// step before it is shown done. "" otherwise (no procedure, all steps
// done, or a step nothing can be judged by).
func ProcedureNext(main []handoff.Message, inFlight []string) string {
	at := -1
	for i := len(main) - 1; i >= 0; i-- {
		if m := main[i]; m.Role == handoff.RoleUser && !m.CompactSummary && strings.TrimSpace(m.Text) != "" && len(m.ToolResults) == 0 {
			at = i
			break
		}
	}
	if at < 0 {
		return ""
	}
	steps := procedureSteps(main[at].Text)
	if steps == nil {
		return ""
	}
	var calls []string
	for _, m := range main[at+1:] {
		for _, c := range m.ToolCalls {
			calls = append(calls, strings.ToLower(string(c.Input)))
		}
	}
	if len(calls) == 0 {
		return "" // not started: the request itself is the next step
	}
	done := make([]bool, len(steps))
	for i, s := range steps {
		done[i] = len(s.tokens) > 0
		for _, tok := range s.tokens {
			if !anyContains(calls, tok) {
				done[i] = false
				break
			}
		}
	}
	for i, s := range steps {
		if done[i] {
			continue
		}
		if len(s.tokens) == 0 {
			if laterDone(done[i+1:]) {
				continue // a step without a trace, passed since
			}
			return ""
		}
		if i == 0 && !laterDone(done) {
			return "" // nothing visibly done: the request is the next step
		}
		text := "Step " + strconv.Itoa(s.n) + " of the latest request's numbered procedure (the steps before it are done): " +
			facts.QuoteData(prose.Truncate(flatStep(s.text), 260))
		if len(inFlight) > 0 {
			// The call itself is shown with the end state; the step is
			// what matters when the budget clips this line.
			text += ". Check first the call left without a result: `" + prose.Truncate(prose.FirstLine(inFlight[0]), 160) + "`."
		}
		return text
	}
	return ""
}

func laterDone(done []bool) bool {
	for _, d := range done {
		if d {
			return true
		}
	}
	return false
}

func anyContains(list []string, s string) bool {
	for _, x := range list {
		if strings.Contains(x, s) {
			return true
		}
	}
	return false
}

// flatStep joins a step's lines into one, fences and emphasis dropped.
func flatStep(text string) string {
	var parts []string
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(strings.ReplaceAll(line, "**", ""))
		if l == "" || strings.HasPrefix(l, "```") {
			continue
		}
		parts = append(parts, strings.TrimLeft(l, "-*• "))
	}
	return strings.Join(parts, " / ")
}

// ProcedureInFlight is the session's calls left without a result.
func ProcedureInFlight(s *handoff.Snapshot) []string {
	if s.EndState == nil {
		return nil
	}
	return s.EndState.InFlight
}

// ProcedureLeads reports whether a procedure's next step may stand as the
// next step: the person's unanswered message, a question put to them and
// the assistant's own stated next step come first.
func ProcedureLeads(s *handoff.Snapshot) bool {
	e := s.EndState
	return e == nil || (len(e.Unanswered) == 0 && e.Question == "" && e.StatedNext == "")
}

package conversation

import (
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// Kinds of compaction-summary section, for ranking in the prompt.
const (
	CarriedCurrentWork  = "current_work"
	CarriedNextStep     = "next_step"
	CarriedPending      = "pending"
	CarriedProblems     = "problems"
	CarriedSolved       = "solved"
	CarriedUserMessages = "user_messages"
	CarriedRequest      = "request"
	CarriedOther        = "other"
)

// carriedSectionLimit bounds one stored section, in runes.
const carriedSectionLimit = 3000

var (
	// summaryHeadingRe is a top-level numbered heading of a compaction
	// summary ("7. Pending Tasks:", "8. **Current Work**:"): a number at
	// the line start, a short title, a colon.
	summaryHeadingRe = prose.LazyRE(rulebook.Pattern("conversation.summary-heading"))
	// markdownHeadingRe is the same as a markdown heading ("## 7. Pending
	// Tasks"), where the colon is optional and the title ends the line.
	markdownHeadingRe = prose.LazyRE(rulebook.Pattern("conversation.markdown-heading"))
	// stateTagRe opens a section of a Gemini <state_snapshot>.
	stateTagRe = prose.LazyRE(rulebook.Pattern("conversation.state-tag"))
)

// ReadCarried cuts a compaction summary into its sections. Claude Code's
// summaries number their sections (an "Analysis:" preamble comes first
// and is skipped when a "Summary:" part follows); Gemini's state snapshot
// tags them. A summary with neither is kept whole, when short.
func ReadCarried(text string) []handoff.CarriedSection {
	text = strings.TrimSpace(text)
	if i := strings.Index(text, "<state_snapshot>"); i >= 0 {
		return stateSections(text[i+len("<state_snapshot>"):])
	}
	body := text
	for _, marker := range []string{"<summary>", "\nSummary:\n", "\nSummary:"} {
		if i := strings.LastIndex(body, marker); i >= 0 {
			body = body[i+len(marker):]
			break
		}
	}
	body = strings.TrimSuffix(strings.TrimSpace(body), "</summary>")
	heads := lastNumberedRun(markdownHeadingRe.FindAllStringSubmatchIndex(body, -1), body)
	if len(heads) == 0 {
		heads = lastNumberedRun(summaryHeadingRe.FindAllStringSubmatchIndex(body, -1), body)
	}
	if len(heads) < 3 {
		if len([]rune(text)) <= carriedSectionLimit {
			return []handoff.CarriedSection{{Title: "Summary", Text: text, Kind: CarriedOther}}
		}
		return nil
	}
	var out []handoff.CarriedSection
	for i, l := range heads {
		end := len(body)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		title := strings.TrimSpace(body[l[4]:l[5]])
		content := strings.TrimSpace(body[l[1]:end])
		if content == "" {
			continue
		}
		out = append(out, handoff.CarriedSection{Title: title, Text: prose.ClipSentences(content, carriedSectionLimit), Kind: carriedKind(title)})
	}
	return out
}

// lastNumberedRun returns the last run of headings numbered 1, 2, 3, …
// with at least three entries: an analysis that precedes the summary, and
// lists nested in its sections, number their items too, and the summary
// proper comes last.
func lastNumberedRun(locs [][]int, body string) [][]int {
	var best, run [][]int
	for _, l := range locs {
		n := atoiSmall(body[l[2]:l[3]])
		switch {
		case n == 1:
			if len(run) >= 3 {
				best = run
			}
			run = [][]int{l}
		case len(run) > 0 && n == len(run)+1:
			run = append(run, l)
		}
	}
	if len(run) >= 3 {
		best = run
	}
	return best
}

// stateSections reads a Gemini state snapshot's tagged sections.
func stateSections(body string) []handoff.CarriedSection {
	var out []handoff.CarriedSection
	for {
		m := stateTagRe.FindStringSubmatchIndex(body)
		if m == nil {
			return out
		}
		name := body[m[2]:m[3]]
		rest := body[m[1]:]
		end := strings.Index(rest, "</"+name+">")
		if end < 0 {
			return out
		}
		content := strings.TrimSpace(rest[:end])
		body = rest[end+len(name)+3:]
		if content == "" || name == "state_snapshot" {
			continue
		}
		title := strings.ReplaceAll(name, "_", " ")
		out = append(out, handoff.CarriedSection{Title: title, Text: prose.ClipSentences(content, carriedSectionLimit), Kind: carriedKind(title)})
	}
}

// carriedKind classifies a section by its title's words.
func carriedKind(title string) string {
	t := strings.ToLower(title)
	switch {
	case strings.Contains(t, "next step"):
		return CarriedNextStep
	case strings.Contains(t, "current work"), strings.Contains(t, "recent action"), strings.Contains(t, "current state"):
		return CarriedCurrentWork
	case strings.Contains(t, "pending"), strings.Contains(t, "remaining"), strings.Contains(t, "todo"), strings.Contains(t, "plan"):
		return CarriedPending
	case strings.Contains(t, "problem solving"), strings.Contains(t, "solved"):
		// What was worked out and how: work done, not an error list.
		return CarriedSolved
	case strings.Contains(t, "error"), strings.Contains(t, "problem"), strings.Contains(t, "fix"):
		return CarriedProblems
	case strings.Contains(t, "user message"):
		return CarriedUserMessages
	case strings.Contains(t, "request"), strings.Contains(t, "goal"), strings.Contains(t, "intent"):
		return CarriedRequest
	}
	return CarriedOther
}

func atoiSmall(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}

// isSummaryText reports a user message that is a compaction summary
// pasted or recorded without the format's flag (terminal pastes).
func isSummaryText(text string) bool {
	return strings.HasPrefix(strings.TrimSpace(text), "This session is being continued from a previous conversation")
}

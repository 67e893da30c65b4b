package conversation

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// Limits on the key lines read from the assistant's reports.
const (
	// reportMin is how long an assistant message must be to be a report
	// rather than a remark between tool calls.
	reportMin = 400
	// reportsRead is how many of the last reports are read: the newest
	// few hold results the very last message does not repeat.
	reportsRead  = 3
	keyLineLimit = 180 // runes per line
	maxKeyLines  = 14
	// maxSaidKeyLines is maxKeyLines for a transcript with no tool calls
	// (conversation.said-changes): its reports are the only record of
	// the work, so more of them is offered; the compiler keeps what fits.
	maxSaidKeyLines = 28
	// minKeyScore is the least a line must carry: a verdict or next step
	// with a name or figure, or a next step alone.
	minKeyScore = 3
)

var (
	// verdictRe marks a line that says how something went or stands.
	verdictRe = prose.LazyRE(rulebook.Pattern("conversation.verdict"))
	// nextLineRe marks a line about what comes next or is left.
	nextLineRe = prose.LazyRE(rulebook.Pattern("conversation.next-line"))
	// FactRe marks a line naming something concrete: code, a path, a
	// file with an extension, an identifier.
	FactRe = prose.Screened(rulebook.Pattern("conversation.report-fact"), prose.MayFact)
	// FigureRe is a figure worth keeping: a count with its unit, a ratio,
	// a number of two digits or more (a lone "1" in "Option 1" is not).
	FigureRe  = prose.Screened(rulebook.Pattern("conversation.report-figure"), prose.MayFigure)
	tableRule = prose.LazyRE(rulebook.Pattern("conversation.table-rule"))
)

// KeyLines reads the assistant's last long reports in the main thread —
// up to reportsRead messages of reportMin runes, not counting its very
// last message (index last) and the report before a short close
// (quoted), which the prompt quotes itself — and returns
// their lines that carry state or facts, best first: a next step or open
// item, then a verdict (builds, fails, verified), each raised when it
// names a file, identifier or figure; narration and praise are left out.
// The newest report's lines win ties; a line the session spoke of again
// afterwards (supersession) is left out. The earlier findings
// (earlierFindings) of the reports before those come second, newest first.
func KeyLines(main []handoff.Message, last int, quoted handoff.MessageRef) (lines, findings []handoff.KeyLine) {
	return keyLinesOf(main, last, quoted, false)
}

// keyLinesOf is KeyLines; said marks a transcript that records no tool
// calls (conversation.said-changes): what changed is known only from the
// reports, so a line naming a file or identifier counts one more.
func keyLinesOf(main []handoff.Message, last int, quoted handoff.MessageRef, said bool) (lines, findings []handoff.KeyLine) {
	var out []handoff.KeyLine
	seen := map[string]bool{}
	shown := "" // the last message, which the prompt quotes
	if last >= 0 && last < len(main) {
		shown = normLine(main[last].Text)
	}
	reports, oldest := 0, last
	later := newSupersession(main)
	for i := last - 1; i >= 0 && reports < reportsRead; i-- {
		m := main[i]
		if m.Role != handoff.RoleAssistant || m.Sidechain || (quoted.ID != "" && m.ID == quoted.ID) {
			continue // the report the prompt quotes as the last one is not read twice
		}
		text := facts.WithoutThinking(m.Text)
		if utf8.RuneCountInString(text) < reportMin {
			continue
		}
		for n, l := range strings.Split(facts.StripCode(text), "\n") {
			line, score := keyLine(l, said)
			if score == 0 {
				continue
			}
			if n == 0 {
				score++ // a report's first line is its headline
			}
			if score-reports < minKeyScore {
				continue
			}
			key := normLine(line)
			if seen[key] || strings.Contains(shown, strings.TrimSuffix(key, " …")) || later.stale(line, i) {
				continue
			}
			seen[key] = true
			out = append(out, handoff.KeyLine{Text: line, Score: score - reports, Source: m.Ref()})
		}
		reports++
		oldest = i
	}
	slices.SortStableFunc(out, func(a, b handoff.KeyLine) int { return b.Score - a.Score })
	limit := maxKeyLines
	if said {
		limit = maxSaidKeyLines
	}
	if len(out) > limit {
		out = out[:limit]
	}
	return out, earlierFindings(main, oldest, shown, seen, laterNames(main, oldest))
}

// keyLine cleans one report line and scores what it carries: 0 for a
// line to leave out.
func keyLine(raw string, said bool) (string, int) {
	t := reportLine(raw)
	if t == "" {
		return "", 0
	}
	score := 0
	switch {
	case nextLineRe.MatchString(t):
		score = 3
	case verdictRe.MatchString(t):
		score = 2
	}
	fact := FactRe.MatchString(t)
	if score == 0 && !fact {
		return "", 0
	}
	if fact {
		score += 2
		if said {
			score++
		}
	}
	if FigureRe.MatchString(t) {
		score++
	}
	if score < minKeyScore {
		return "", 0
	}
	return prose.ClipSentences(t, keyLineLimit), score
}

// reportLine cleans one report line: markup out, a table row's cells
// joined; "" for a rule, a table's rule row, boilerplate or a line too
// short to say anything.
func reportLine(raw string) string {
	t := strings.TrimSpace(raw)
	if t == "" || facts.ItalicLineRe.MatchString(t) || facts.BoilerplateRe.MatchString(t) || facts.RuleLineRe.MatchString(t) || tableRule.MatchString(t) {
		return ""
	}
	if strings.HasPrefix(t, "|") { // a table row: its cells, in a line
		var cells []string
		for _, c := range strings.Split(strings.Trim(t, "|"), "|") {
			if c = strings.TrimSpace(c); c != "" {
				cells = append(cells, c)
			}
		}
		t = strings.Join(cells, " — ")
	}
	t = withoutCourtesy(prose.CleanLine(t))
	if utf8.RuneCountInString(t) < 12 || courtesy(t) {
		return ""
	}
	return t
}

// normLine is a line's text for spotting repeats: markup and case aside.
func normLine(l string) string {
	return strings.ToLower(strings.Join(strings.Fields(prose.CleanLine(l)), " "))
}

// hasToolCalls reports whether any message of main calls a tool.
func hasToolCalls(main []handoff.Message) bool {
	return slices.ContainsFunc(main, func(m handoff.Message) bool { return len(m.ToolCalls) > 0 })
}

package conversation

import (
	"slices"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// Open problems the assistant reported in prose: not a command that
// failed but a sentence of its late reports that states a defect, a gap or
// an unverified claim about a named thing ("`index.js` exports only 2
// schemas while `index.d.ts` declares 5", "the hook is a TODO stub",
// "the fix is not yet verified in CI"). They are filed as open errors of
// type "reported", ranked below failing commands, unless a later message
// of the assistant says the same thing was fixed.

const (
	// problemReports is how many of the last substantial assistant
	// messages are read.
	problemReports = 3
	// problemMin is the shortest message read as a report.
	problemMin = 200
	// maxProblems bounds the problems filed.
	maxProblems = 4
)

var (
	// defectRe is a small, general list of words that state a defect or
	// a gap, not an action.
	defectRe = prose.LazyRE(rulebook.Pattern("conversation.defect"))
	// todoRe is a TODO marker as a defect ("is just a TODO placeholder"),
	// case-sensitive: a "TODO app" is a product.
	todoRe = prose.LazyRE(rulebook.Pattern("conversation.todo"))
	// conditionRe is a conditional or a diagnosis of the past, not an
	// open finding.
	conditionRe = prose.LazyRE(rulebook.Pattern("conversation.condition"))
	// namedRe is a named thing: a code span, a file, an identifier with an
	// underscore, a dot call or inner capitals.
	namedRe = prose.LazyRE(rulebook.Pattern("conversation.named-thing"))
	// hedgeRe is a plan, an offer or a condition, not a finding.
	hedgeRe = prose.LazyRE(rulebook.Pattern("conversation.hedge"))
	// solvedRe is a line that reports a fix, not a problem.
	solvedRe    = prose.LazyRE(rulebook.Pattern("conversation.solved"))
	lowerWordRe = prose.LazyRE(rulebook.Pattern("conversation.lower-word"))
	// proseWriteRe is a call input that writes a notes file.
	proseWriteRe = prose.LazyRE(rulebook.Pattern("conversation.prose-write"))
	// problemFixedRe is a later message saying something was fixed.
	problemFixedRe = prose.LazyRE(rulebook.Pattern("conversation.problem-fixed"))
	// milestoneDoneRe says a numbered part of a plan is finished.
	milestoneDoneRe = prose.LazyRE(rulebook.Pattern("conversation.milestone-done"))
)

// ReportedProblems reads the last reports of the main thread for open
// problems the assistant stated.
func ReportedProblems(main []handoff.Message) []handoff.ErrorRecord {
	type cand struct {
		text  string
		names []string
		ref   handoff.MessageRef
		at    int
	}
	var found []cand
	reports := 0
	for i := len(main) - 1; i >= 0 && reports < problemReports; i-- {
		m := main[i]
		if m.Role != handoff.RoleAssistant || m.Sidechain {
			continue
		}
		text := facts.WithoutThinking(m.Text)
		if len(text) < problemMin {
			continue
		}
		reports++
		for _, line := range strings.Split(facts.StripCode(text), "\n") {
			for _, s := range prose.ProseSentences(line) {
				s = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(s), "#*->•0123456789.) "))
				s = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(s, "[ ]"), "[x]"))
				s = strings.ReplaceAll(s, "**", "")
				if len(s) < 20 || len(strings.Fields(s)) < 4 || strings.HasSuffix(s, "?") ||
					hedgeRe.MatchString(s) || conditionRe.MatchString(s) || solvedRe.MatchString(s) ||
					!(defectRe.MatchString(s) || todoRe.MatchString(s)) {
					continue
				}
				names := namedRe.FindAllString(s, 3)
				if len(names) == 0 {
					continue
				}
				if w := strings.Fields(s)[0]; lowerWordRe.MatchString(w) {
					// A lowercase subject ("sharp is missing …") names
					// the thing too, for finding later work on it.
					names = append(names, w)
				}
				found = append(found, cand{text: s, names: names, ref: m.Ref(), at: i})
			}
		}
	}
	var out []handoff.ErrorRecord
	seen := map[string]bool{}
	for _, c := range found {
		key := normLine(c.text)
		if seen[key] || problemFixedLater(main, c.at, c.names) || milestoneDoneLater(main, c.at, c.text) {
			continue
		}
		seen[key] = true
		out = append(out, handoff.ErrorRecord{
			ID:         "r" + strconv.Itoa(len(out)+1),
			Type:       facts.ReportedProblem,
			Message:    prose.Truncate(c.text, facts.ErrorMessageLimit),
			Resolution: handoff.ResolutionUnresolved,
			Source:     c.ref,
		})
		if len(out) == maxProblems {
			break
		}
	}
	return out
}

// problemFixedLater reports whether, after index at, an assistant message
// names one of the problem's things and says it was fixed, or a tool call
// works on one of them (then it is no longer the report's word that
// counts, and the failing command, if any, speaks for itself).
func problemFixedLater(main []handoff.Message, at int, names []string) bool {
	for i, m := range main[at:] {
		for _, c := range m.ToolCalls { // the report's own calls come after its words
			in := string(c.Input)
			if proseWriteRe.MatchString(in) {
				continue // notes that mention it do not work on it
			}
			for _, n := range names {
				if n = strings.Trim(n, "`"); len(n) >= 4 && strings.Contains(in, n) {
					return true
				}
			}
		}
		if i == 0 || m.Role != handoff.RoleAssistant || !problemFixedRe.MatchString(m.Text) {
			continue
		}
		for _, s := range prose.ProseSentences(m.Text) {
			if !problemFixedRe.MatchString(s) {
				continue
			}
			for _, n := range names {
				if strings.Contains(s, strings.Trim(n, "`")) {
					return true
				}
			}
		}
	}
	return false
}

// milestoneDoneLater reports whether a problem that names a numbered part
// of a plan ("Phase 11: … (not built yet)") was settled by a later
// assistant sentence saying that part is done (conversation.milestone-done):
// the part's own stretch of the sentence, up to the next part it names,
// says done and states no defect.
func milestoneDoneLater(main []handoff.Message, at int, text string) bool {
	parts := milestones(text)
	if len(parts) == 0 {
		return false
	}
	for _, m := range main[at+1:] {
		if m.Role != handoff.RoleAssistant || m.Sidechain || !milestoneDoneRe.MatchString(m.Text) {
			continue
		}
		for _, s := range prose.ProseSentences(m.Text) {
			spans := numberedMilestoneRe.FindAllStringSubmatchIndex(s, -1)
			for k, sp := range spans {
				end := len(s)
				if k+1 < len(spans) {
					end = spans[k+1][0]
				}
				part := milestoneKey(s[sp[2]:sp[3]], s[sp[4]:sp[5]])
				stretch := s[sp[0]:end]
				if slices.Contains(parts, part) && milestoneDoneRe.MatchString(stretch) && !defectRe.MatchString(stretch) {
					return true
				}
			}
		}
	}
	return false
}

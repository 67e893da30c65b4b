package conversation

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// Limits on the earlier findings: key lines of the reports before the
// last reportsRead ones. Most facts a successor lacks sit in the
// assistant's own reports a few dozen turns back ("`foo.c` compiles, 25
// pages"); the older a report, the more a line must carry to be kept,
// and a later line about the same name replaces it.
const (
	// findingMin is the least an earlier line must score: a verdict with
	// a name (a next step or plan from back then is not a finding: it has
	// likely been done or dropped since).
	findingMin = 4
	// findingAge is how many reports back each extra point is needed:
	// the oldest reports need a verdict, a name and a figure.
	findingAge = 6
	// maxFindings bounds the list; the compiler's ranks decide how many
	// fit.
	maxFindings = 12
	// findingsPerReport keeps one long report from filling the list.
	findingsPerReport = 3
	// findingReportMin is how long an earlier message must be to be read:
	// a short status table ("Driver: ✅ 575.64.03") is a report too.
	findingReportMin = 200
)

// problemLineRe marks a line that reports a problem. An earlier report's
// problem is left out: most were fixed by the reports that followed, and
// those still open are the open errors' business (reported problems of
// the last reports, failing commands).
var problemLineRe = prose.LazyRE(rulebook.Pattern("conversation.problem-line"))

// guessLineRe marks a line that guesses, asks or plans rather than
// states: a hypothesis from back then is not a finding.
var guessLineRe = prose.LazyRE(rulebook.Pattern("conversation.guess-line"))

// planLineRe is a line that starts with an instruction ("Verify that …",
// "[PR] Create PR: …"): a step of a plan, not a result.
var planLineRe = prose.LazyRE(rulebook.Pattern("conversation.plan-line"))

// FindingLike reports whether a scored line states a result that can
// still hold: a verdict or a figure, not a list's lead-in ("… please
// also add:"), a next step, a problem, a guess or a plan step, and
// not the middle of a wrapped sentence (a lower-case start).
func FindingLike(line string) bool {
	if r, _ := utf8.DecodeRuneInString(line); unicode.IsLower(r) || strings.HasSuffix(line, ":") {
		return false
	}
	if !verdictRe.MatchString(line) && !doneRe.MatchString(line) && !FigureRe.MatchString(line) && !changeArrowRe.MatchString(line) {
		return false // a name alone is narration ("the file we want is …")
	}
	plain := strings.ReplaceAll(line, "`", "")
	return !nextLineRe.MatchString(line) && !problemLineRe.MatchString(line) && !guessLineRe.MatchString(line) && !planLineRe.MatchString(plain)
}

// earlierFindings returns the key lines of the main thread's reports
// before index before (the oldest report keyLines read), newest first.
// A line is left out when it is a plan or next step, when it repeats a
// line already kept or the last message (shown), or when a later report
// — any of the later lines in later, or a newer finding — names the same
// file or identifier: the later word on a thing wins.
func earlierFindings(main []handoff.Message, before int, shown string, seen map[string]bool, later map[string]bool) []handoff.KeyLine {
	var out []handoff.KeyLine
	age := 0
	// Past the report where a line needs more than any line scores, no
	// older one can be kept: the walk stops there, not at the session's
	// first message (a long session's whole history was read for
	// nothing; later and seen are the caller's last use).
	for i := before - 1; i >= 0 && len(out) < maxFindings && findingMin+age/findingAge <= maxFindingScore+headlineBonus; i-- {
		m := main[i]
		if m.Role != handoff.RoleAssistant || m.Sidechain || m.CompactSummary {
			continue
		}
		text := facts.WithoutThinking(m.Text)
		if utf8.RuneCountInString(text) < findingReportMin {
			continue
		}
		least := findingMin + age/findingAge
		var names []string
		var found []handoff.KeyLine
		units := map[string]bool{} // units of figures stated below in this report
		lines := strings.Split(facts.StripCode(text), "\n")
		// Bottom up: a report's last figure in a unit ("… 122 lines") is
		// its result; the same unit's figures above it are steps on the way.
		for n := len(lines) - 1; n >= 0; n-- {
			line, score, own := findingLine(lines[n])
			if score == 0 {
				continue
			}
			stated := statesAbout(line)
			if stated {
				names = append(names, own...)
			}
			if n == 0 {
				score += headlineBonus
			}
			ok := score >= least && FindingLike(line) && !namedLater(own, units)
			if stated {
				for _, u := range own {
					if strings.HasPrefix(u, "unit:") {
						units[u] = true
					}
				}
			}
			if !ok {
				continue
			}
			key := normLine(line)
			if seen[key] || strings.Contains(shown, strings.TrimSuffix(key, " …")) || namedLater(own, later) {
				continue
			}
			seen[key] = true
			found = append(found, handoff.KeyLine{Text: line, Score: score, Source: m.Ref()})
		}
		slices.Reverse(found) // the report's order
		found = found[:min(len(found), findingsPerReport, maxFindings-len(out))]
		out = append(out, found...)
		// The report's names supersede older lines only once its own
		// lines are read: one report's lines do not cancel each other.
		for _, n := range names {
			later[n] = true
		}
		age++
	}
	return out
}

// unitRe is a measurement's unit ("131 lines", "94% coverage"): a later
// figure in the same unit replaces an older one.
var unitRe = prose.LazyRE(rulebook.Pattern("conversation.unit"))

// labelRe is a line's leading label ("GPU Hardware: ✅ …").
var labelRe = prose.LazyRE(rulebook.Pattern("conversation.label"))

// doneRe is a change reported as made ("Removed the hard-coded names",
// "Second refactoring (reverted)"): what was done is a finding too.
var doneRe = prose.LazyRE(rulebook.Pattern("conversation.done"))

// changeArrowRe is a change written as an arrow ("`art/` → `Art/`",
// "142 -> 126 lines"): a verdict in any language.
var changeArrowRe = prose.LazyRE(rulebook.Pattern("conversation.change-arrow"))

// PascalRe is a PascalCase identifier of two humps or more
// (LibraryPaths, SignalScorer), which factRe's lower camelCase misses.
var PascalRe = prose.Screened(rulebook.Pattern("conversation.pascal-case"), prose.MayPascal)

// maxFindingScore is the most findingLine scores a line (a verdict, a
// name and a figure), and headlineBonus what a report's first line gets
// on top.
const (
	maxFindingScore = 5
	headlineBonus   = 1
)

// findingLine cleans one line of an earlier report and scores it as a
// finding: 2 for a verdict or a change made, 2 for a name, 1 for a
// figure; it returns the names too (0 and none for a line that carries
// neither a name nor a figure).
func findingLine(raw string) (string, int, []string) {
	t := reportLine(raw)
	if t == "" {
		return "", 0, nil
	}
	names := LineNames(t)
	named := FactRe.MatchString(t) || PascalRe.MatchString(t)
	figure := FigureRe.MatchString(t)
	if !named && !figure {
		return "", 0, names
	}
	score := 0
	if verdictRe.MatchString(t) || doneRe.MatchString(t) || (named && changeArrowRe.MatchString(t)) {
		score += 2
	}
	if named {
		score += 2
	}
	if figure {
		score++
		if !named {
			score++ // a figure or version names what it is about
		}
	}
	return prose.ClipSentences(t, keyLineLimit), score, names
}

// LineNames are the files and identifiers a line names, lower-cased,
// with a path cut to its base name so `src/a.c` and `a.c` are one name,
// its leading label and its units: a later "Driver: …" line or "126
// lines" replaces an older one.
func LineNames(line string) []string {
	var out []string
	if m := labelRe.FindStringSubmatch(line); m != nil && len(strings.Fields(m[1])) <= 4 {
		out = append(out, "label:"+strings.ToLower(strings.Trim(m[1], "`* ")))
	}
	for _, m := range unitRe.FindAllStringSubmatch(line, -1) {
		out = append(out, "unit:"+strings.TrimSuffix(strings.ToLower(m[1]), "s"))
	}
	for _, n := range append(FactRe.FindAllString(line, -1), PascalRe.FindAllString(line, -1)...) {
		n = strings.TrimRight(strings.ToLower(strings.Trim(n, "`()")), "/")
		if i := strings.LastIndex(n, "/"); i >= 0 && i < len(n)-1 {
			n = n[i+1:]
		}
		if len(n) >= 3 {
			out = append(out, n)
		}
	}
	return out
}

// namedLater reports whether a later line names one of names.
func namedLater(names []string, later map[string]bool) bool {
	for _, n := range names {
		if later[n] {
			return true
		}
	}
	return false
}

// statesAbout reports whether a line says how a thing stands or what
// was done to it (a verdict, a change, a problem): only such a line
// replaces an older one about the same name; a passing mention does not.
func statesAbout(line string) bool {
	return verdictRe.MatchString(line) || doneRe.MatchString(line) || problemLineRe.MatchString(line) || changeArrowRe.MatchString(line)
}

// laterNames are the names in the scored lines of the main thread's
// assistant messages from index from on: what the newest reports and the
// last message say about things overrides what older reports said.
func laterNames(main []handoff.Message, from int) map[string]bool {
	later := map[string]bool{}
	for i := max(from, 0); i < len(main); i++ {
		m := main[i]
		if m.Role != handoff.RoleAssistant || m.Sidechain {
			continue
		}
		for _, l := range strings.Split(facts.StripCode(facts.WithoutThinking(m.Text)), "\n") {
			if line, score, names := findingLine(l); score > 0 && statesAbout(line) {
				for _, n := range names {
					later[n] = true
				}
			}
		}
	}
	return later
}

package compiler

import (
	"fmt"
	"path"
	"strings"

	"github.com/handoff-cli/handoff"
)

// maxCheckLines caps the builds, linters and dry runs listed: the newest
// say where the project stands, older ones were superseded by the work.
const maxCheckLines = 6

// rankNothingChanged ranks the line that says a session changed nothing
// and ran nothing: short, and it stops a successor from looking for work
// that was never done (a review, a planning session).
const rankNothingChanged = 20

// rankPointerDrop lowers a check line that only points to its open error.
const rankPointerDrop = 12

// checkLine is one check's line: what it is, its command, how its newest
// run went and the line of output that says so. A failing check whose
// failure is already under Open errors points there instead of quoting
// the same output twice.
func checkLine(s *handoff.Snapshot, c handoff.CheckState, limit int) string {
	var b strings.Builder
	b.WriteString(checkNoun(c.Kind, true))
	b.WriteString(" ")
	b.WriteString(code(firstLineOf(c.Command), min(commandText, limit)))
	b.WriteString(": ")
	b.WriteString(checkVerdict(s, c, limit))
	b.WriteString(".")
	return b.String()
}

// checkVerdict is how a check's newest run went, with its evidence.
func checkVerdict(s *handoff.Snapshot, c handoff.CheckState, limit int) string {
	var v string
	switch c.Status {
	case handoff.TestsPassing:
		v = "passing"
		if c.Summary != "" {
			v += " (" + quoted(c.Summary, limit) + ")"
		}
	case handoff.TestsFailing:
		v = "failing"
		switch {
		case c.Failures > 1 && c.PassedBefore:
			v += fmt.Sprintf(" (%d runs in a row; it passed earlier)", c.Failures)
		case c.Failures > 1:
			v += fmt.Sprintf(" (%d runs in a row)", c.Failures)
		case c.PassedBefore:
			v += " (it passed earlier)"
		}
		if checkErrorListed(s, c) {
			v += ", see Open errors"
		} else if c.Summary != "" {
			v += ": " + quoted(c.Summary, limit)
		}
	default:
		if c.Summary != "" {
			v = "exited non-zero after printing " + quoted(c.Summary, limit) + " (outcome unclear)"
		} else {
			v = "outcome not shown"
		}
	}
	if n := c.EditsAfter; n > 0 {
		v += fmt.Sprintf("; %d file %s came after it", n, plural(n, "edit", "edits"))
	}
	return v
}

// checkClause is a check as the end of a sentence: "the build `make`
// passes (“…”)".
func checkClause(s *handoff.Snapshot, c handoff.CheckState, limit int) string {
	text := checkNoun(c.Kind, false) + " " + code(firstLineOf(c.Command), min(commandText, limit))
	switch c.Status {
	case handoff.TestsPassing:
		text += " passes"
		if c.Summary != "" {
			text += " (" + quoted(c.Summary, limit) + ")"
		}
	case handoff.TestsFailing:
		text += " fails"
		if checkErrorListed(s, c) {
			text += " (see Open errors)"
		} else if c.Summary != "" {
			text += ": " + quoted(c.Summary, limit)
		}
	default:
		if c.Summary != "" {
			return text + " exited non-zero after printing " + quoted(c.Summary, limit) + " (outcome unclear)"
		}
		return text + " ran, but its outcome is not shown"
	}
	if n := c.EditsAfter; n > 0 {
		text += fmt.Sprintf(" (before %d later file %s)", n, plural(n, "edit", "edits"))
	}
	return text
}

// checkErrorListed reports whether an open error is this failing check's
// own run: the prompt then shows its output once, under Open errors.
func checkErrorListed(s *handoff.Snapshot, c handoff.CheckState) bool {
	return listedErrorRank(s, c) >= 0
}

// checkNoun names a check's kind for a line's start ("Build") or inside a
// sentence ("the build").
func checkNoun(kind string, lead bool) string {
	if kind == "" {
		kind = "check"
	}
	if lead {
		return strings.ToUpper(kind[:1]) + kind[1:]
	}
	return "the " + kind
}

// newestChecks returns at most n checks, the newest run first.
func newestChecks(s *handoff.Snapshot, n int) []handoff.CheckState {
	out := make([]handoff.CheckState, 0, min(n, len(s.Checks)))
	for i := len(s.Checks) - 1; i >= 0 && len(out) < n; i-- {
		out = append(out, s.Checks[i])
	}
	return out
}

// checkRank ranks a check's line like the test line: a failure with the
// failing tests, a pass a little below, an unclear outcome with no output
// line with the "nothing was run" lines. Older checks fall fast (a stride of 8): the
// newest says where the build stands, and the budget is better spent on
// the files changed than on every earlier run. A result later edits made
// stale falls a little further.
func checkRank(c handoff.CheckState, i int) int {
	r := rankNoTests
	switch {
	case c.Status == handoff.TestsFailing:
		r = rankTests + 1
	case c.Status == handoff.TestsPassing:
		r = rankTests + 3
	case c.Summary != "":
		// Unclear, but with the line that says what it made ("Output
		// written on paper.pdf (25 pages)").
		r = rankTests + 5
	}
	if c.EditsAfter > 0 {
		r += 4
	}
	return r + 8*i
}

// checkLineRank is checkRank, but never above the open error that holds
// the same failure: the line points there ("see Open errors"), so it must
// not survive the budget without it.
func checkLineRank(s *handoff.Snapshot, c handoff.CheckState, i int) int {
	r := checkRank(c, i)
	if at := listedErrorRank(s, c); at >= r {
		r = at + 1
	}
	return r
}

// listedErrorRank is the rank errors() gives the open error that is this
// check's failure (open errors newest first, a stride of 5), -1 when none
// is.
func listedErrorRank(s *handoff.Snapshot, c handoff.CheckState) int {
	if c.Status != handoff.TestsFailing {
		return -1
	}
	var own *handoff.ErrorRecord
	for i, e := range s.Errors {
		if openListed(e) && sameRun(e, c) {
			own = &s.Errors[i]
			break
		}
	}
	if own == nil {
		return -1
	}
	newer := 0
	for _, e := range s.Errors {
		if openListed(e) && e.Source.Index > own.Source.Index {
			newer++
		}
	}
	if subagentError(*own) {
		newer++
	}
	return rankOpenErrors + 5*newer
}

// openListed is an error errors() lists as open.
func openListed(e handoff.ErrorRecord) bool {
	switch e.Type {
	case "probe", "harness", "running", reportedType:
		return false
	}
	return e.Resolution == handoff.ResolutionUnresolved || e.Resolution == handoff.ResolutionDeferred
}

// sameRun reports an error that is the check's own failing run.
func sameRun(e handoff.ErrorRecord, c handoff.CheckState) bool {
	return e.Source.Index == c.Source.Index || (e.Command != "" && strings.TrimSpace(e.Command) == strings.TrimSpace(c.Command))
}

// addChecks lists the checks, one line each, newest first; from is the
// position of the first among all the checks, for its rank.
func (b *builder) addChecks(s *handoff.Snapshot, checks []handoff.CheckState, from int) {
	for i, c := range checks {
		r := checkLineRank(s, c, from+i)
		if listedErrorRank(s, c) >= 0 {
			// Only a pointer to Open errors: worth less than a line of
			// its own, such as the files changed.
			r += rankPointerDrop
		}
		b.variants(secTests, "checks", []int{r, r + 10},
			[]string{"- " + checkLine(s, c, 100), "- " + checkLine(s, c, 200)})
	}
}

// docFile reports a file that is prose for a reader, not code to test:
// Markdown, text, reStructuredText, AsciiDoc, LaTeX.
func docFile(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".txt", ".rst", ".adoc", ".tex", ".bib":
		return true
	}
	return false
}

// docsOnly returns the base names of the modified files when every one is
// a document, nil otherwise (or when nothing was modified).
func docsOnly(files []handoff.FileChange) []string {
	if len(files) == 0 {
		return nil
	}
	names := make([]string, 0, len(files))
	seen := map[string]bool{}
	for _, f := range files {
		if agentOwnFile(f.Path) {
			continue
		}
		if !docFile(f.Path) {
			return nil
		}
		if n := path.Base(f.Path); !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil
	}
	return names
}

// agentOwnFile is a file in an agent's own home directory (its memory,
// plans and settings under ~/.claude, ~/.codex, ~/.gemini): the agent's
// notes to itself, not the project's code.
func agentOwnFile(p string) bool {
	for _, d := range []string{"/.claude/", "/.codex/", "/.gemini/"} {
		if strings.Contains(p, d) {
			return true
		}
	}
	return false
}

// nameList is up to n names in code spans, "and N more" after them.
func nameList(names []string, n int) string {
	shown := make([]string, 0, min(n, len(names))+1)
	for i := len(names) - 1; i >= 0 && len(shown) < n; i-- {
		shown = append(shown, code(names[i], 60))
	}
	if len(names) > n {
		shown = append(shown, fmt.Sprintf("%d more", len(names)-n))
	}
	return strings.Join(shown, ", ")
}

// firstLineOf is s up to its first newline: a heredoc's first line names
// what it runs.
func firstLineOf(s string) string {
	first, _, multi := strings.Cut(strings.TrimSpace(s), "\n")
	if multi {
		return strings.TrimSpace(first) + " …"
	}
	return first
}

// rankStatedResult ranks a result a prose-only transcript's messages
// state: below the earlier requests, which at 500 tokens it pushed out,
// with the done tasks.
const rankStatedResult = 27 // + stride 1

// reportedFilesShown is how many of the files a prose-only transcript's
// reports name as changed the Tests section lists, newest first.
const reportedFilesShown = 6

// noTests is the Tests section when no test runner ran: what changed (only
// documents, N files, nothing), that no tests ran, and the checks that
// did: the newest as the end of the sentence ("…, but the build `make`
// passes"), older ones as lines under it.
func (b *builder) noTests(s *handoff.Snapshot, checks []handoff.CheckState) {
	var lead string
	var stated []string // results a prose-only transcript's messages state
	rank := rankUntested
	if docs := docsOnly(s.FilesModified); docs != nil {
		lead = fmt.Sprintf("Only documents were changed (%s); no code changed and no tests were run", nameList(docs, 4))
	} else if n := len(s.FilesModified); n > 0 {
		lead = fmt.Sprintf("The test suite was not run in this session (no test command seen), so the changes to %d %s are untested", n, plural(n, "file", "files"))
	} else {
		// "seen": a shell `mv` or a generator can change files no edit
		// tool reported, so the line claims no more than the tools show.
		lead = "No file edits were seen (no code changed by an edit tool), and no tests and no build were run, as far as the transcript shows"
		if len(checks) > 0 {
			lead = "No file edits were seen and no tests were run"
		} else if s.Usage.ToolCalls == 0 && s.EndState != nil && s.EndState.LastAssistant != "" {
			// A prose-only export (Cursor, a chat) keeps no calls: that
			// nothing ran is then unknown, not seen.
			lead = "The transcript records no tool calls, so what was edited, built or tested is known only from what the messages say"
			if files := s.EndState.ReportedFiles; len(files) > 0 {
				lead += "; they name as changed " + nameList(files, reportedFilesShown)
			}
			stated = s.EndState.ReportedChecks
		}
		rank = rankNothingChanged
	}
	if len(checks) == 0 {
		b.add(secTests, rank, "test state", lead+".")
		for i, c := range stated {
			b.add(secTests, rankStatedResult+i, "stated results", "- a result the messages state: "+quoted(c, 200))
		}
		return
	}
	// The newest check ends the sentence, so that the line says how the
	// build stands even when the budget keeps nothing under it.
	c := checks[0]
	join := ", and "
	if c.Status == handoff.TestsPassing {
		join = ", but "
	}
	rank = min(rank, checkLineRank(s, c, 0))
	short, full := lead+join+checkClause(s, c, 100)+".", lead+join+checkClause(s, c, 200)+"."
	b.variants(secTests, "test state", []int{rank, rank + 10}, []string{short, full})
	if len(checks) > 1 {
		// The lead-in to the checks below, said only when one of them
		// fits: alone it promised a list that was not there.
		for i := len(b.pieces) - 1; i >= 0 && b.pieces[i].group == b.groups; i-- {
			b.pieces[i].tail, b.pieces[i].tailKind = " Earlier checks:", "checks"
		}
	}
	b.addChecks(s, checks[1:], 1)
}

package extractor

import (
	"strings"
	"unicode"

	"github.com/handoff-cli/handoff/extractor/rulebook"
)

var (
	exceptionLineRe = gated(`^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure)\b(?::|$)`)
	compilerLineRe  = gated(`(?i)(?:^|: )(?:fatal )?error(?:\[\w+\])?:|^error TS\d+|\berror TS\d+:|^panic: |^fatal: |undefined reference to|: command not found|command not found:`)
	assertLineRe    = gated(`^E\s+\S|AssertionError|assert(?:ion)? failed|^\s*Expected\b|^\s*Received\b|expected .* (?:to|but) `)
	failTestLineRe  = gated(`^--- FAIL: |^FAILED |^FAIL[: \t]|^[✕×✗] |\(\d+ tests? \| \d+ failed\)| FAILED$|^test \S+ \.\.\. FAILED|^ERROR: test|^\d+\) `)
	passLineRe      = gated(`(?i)(^ok\s|^pass(?:ed)?\b|^--- PASS|^\s*[✓✔√] |\.{3,}\s*(?:passed|skipped)|\(no files to check\)\s*skipped$|\b0 (?:failed|errors?|failures)\b.*\bpassed\b|^=+ \d+ passed|^tests?:\s+\d+ passed,?\s+\d+ total$|^test result: ok)`)
	keywordLineRe   = gated(`(?i)(error|fail|fatal|panic|exception|denied|not found|no such file|cannot|can't|unable to|invalid|refused|timed? ?out|undefined|unexpected|missing|rejected|conflict|permission)`)
	noticeLineRe    = gated(`(?i)^(?:\[notice\]|warning:|npm warn|deprecat|hint:)`)
	// bannerLineRe is a runner's section header ("=== test session starts
	// ===", "----- Captured stdout -----"): it frames output, it never
	// says what went wrong.
	bannerLineRe = lazyRE(rulebook.Pattern("facts.banner-line"))
	// progressFailRe is a test runner's progress line with failures or
	// errors in it ("tests/a_spec.py ..FE.s [ 50%]").
	progressFailRe = lazyRE(rulebook.Pattern("facts.progress-fail"))
	// diffMarkRe says the output holds a diff or patch, whose +/- body
	// lines are the change's text, never the failure's.
	diffMarkRe     = screened("(?m)^(?:```diff|@@|\\*\\*\\* Begin Patch|\\+\\+\\+ |--- a/)", mayDiffMark)
	diffBodyLineRe = lazyRE(rulebook.Pattern("facts.diff-body-line"))
)

// scoredPrefix is how much of a line lineScore reads.
const scoredPrefix = 400

// lineScore rates how much a line of failure output tells a successor;
// zero means never a headline.
func lineScore(l string) int { return everyLine.score(l) }

// lineScorer is lineScore for the lines of one output. A gated pattern
// none of whose literals the whole output holds matches none of its
// lines, so it is left out of every line's score (its flag false): one
// substring search of the output instead of one per line, with the same
// score for every line of it.
type lineScorer struct {
	pass, exception, compiler, failTest, assert, notice, keyword bool
}

// everyLine is the lineScorer that tries every pattern.
var everyLine = lineScorer{true, true, true, true, true, true, true}

// scorerFor is the lineScorer for lines taken from text.
func scorerFor(text string) lineScorer {
	var lower lowered
	may := func(g gatedRegexp) bool { return g.gate().mayMatchWith(text, &lower) }
	return lineScorer{
		pass: may(passLineRe), exception: may(exceptionLineRe), compiler: may(compilerLineRe),
		failTest: may(failTestLineRe), assert: may(assertLineRe), notice: may(noticeLineRe), keyword: may(keywordLineRe),
	}
}

// score is lineScore(l), trying only the patterns sc keeps.
func (sc lineScorer) score(l string) int {
	if (sc.pass && passLineRe.MatchString(l)) || strings.Trim(l, "=-_*#~^ .") == "" || bannerLineRe.MatchString(l) || goPackageHeader(l) {
		return 0
	}
	switch {
	case sc.exception && exceptionLineRe.MatchString(l):
		return 10
	case sc.compiler && compilerLineRe.MatchString(l):
		return 9
	case sc.failTest && failTestLineRe.MatchString(l):
		return 8
	case sc.assert && assertLineRe.MatchString(l):
		return 7
	case progressFailRe.MatchString(l):
		return 6
	case sc.notice && noticeLineRe.MatchString(l):
		return 1
	case sc.keyword && keywordLineRe.MatchString(l):
		return 5
	case strings.HasPrefix(l, "Traceback"):
		return 2
	}
	return 1
}

// goPackageHeader reports go build's "# example.com/pkg" line, which names
// the package whose errors follow and never says what went wrong.
func goPackageHeader(l string) bool {
	rest, ok := strings.CutPrefix(l, "# ")
	return ok && rest != "" && strings.IndexFunc(rest, unicode.IsSpace) < 0
}

// errorMessage picks the most informative line of a failure by score (the
// final exception of a traceback, the first compiler error, a failing
// test), never a pass line or a wrapper header, and the line after it
// when that adds detail, within errorMessageLimit.
func errorMessage(content string) string {
	return truncate(failingLine(content), errorMessageLimit)
}

// failingLine is errorMessage before the cut, so the files a long line
// names are all seen.
func failingLine(content string) string {
	content, note := harnessPayload(content) // never the harness's wrapper line
	lines := outputBody(toolErrTagRe.ReplaceAllString(content, ""))
	if diffMarkRe.MatchString(content) {
		kept := lines[:0]
		for _, l := range lines {
			if !diffBodyLineRe.MatchString(l) {
				kept = append(kept, l)
			}
		}
		lines = kept
	}
	if len(lines) == 0 {
		return "(no output)"
	}
	// The headline is the last line scoring 10 when there is one, else
	// the first line with the highest score: look for the 10 from the end
	// (exceptionLineRe's gate makes that cheap), then score forward and
	// stop at the first 9. What makes a line a headline shows in its
	// first few hundred bytes; scoring a whole minified or base64 line
	// costs the regexes' time for nothing.
	sc := everyLine
	if len(lines) > 1 {
		sc = scorerFor(strings.Join(lines, "\n"))
	}
	best, bestScore := -1, 0
	for i := len(lines) - 1; i >= 0 && sc.exception; i-- {
		if l := headOf(lines[i], scoredPrefix); exceptionLineRe.MatchString(l) && sc.score(l) == 10 {
			best, bestScore = i, 10
			break
		}
	}
	for i := 0; best < 0 || bestScore < 9; i++ {
		if i == len(lines) {
			break
		}
		if s := sc.score(headOf(lines[i], scoredPrefix)); s > bestScore {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		return "(no failing line in the output)" // only banners and pass lines
	}
	msg := lines[best]
	if best+1 < len(lines) && bestScore < 10 && len([]rune(msg)) < 120 && len(lines[best+1]) >= 12 && sc.score(lines[best+1]) >= 5 {
		msg += " / " + lines[best+1]
	}
	if note != "" {
		msg += " (" + note + ")"
	}
	return msg
}

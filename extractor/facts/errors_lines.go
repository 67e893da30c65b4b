package facts

import (
	"strings"
	"unicode"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

var (
	ExceptionLineRe = prose.Gated(rulebook.Pattern("facts.exception-line"))
	CompilerLineRe  = prose.Gated(rulebook.Pattern("facts.compiler-line"))
	AssertLineRe    = prose.Gated(rulebook.Pattern("facts.assert-line"))
	FailTestLineRe  = prose.Gated(rulebook.Pattern("facts.fail-test-line"))
	PassLineRe      = prose.Gated(rulebook.Pattern("facts.pass-line"))
	KeywordLineRe   = prose.Gated(rulebook.Pattern("facts.keyword-line"))
	NoticeLineRe    = prose.Gated(rulebook.Pattern("facts.notice-line"))
	// bannerLineRe is a runner's section header ("=== test session starts
	// ===", "----- Captured stdout -----"): it frames output, it never
	// says what went wrong.
	bannerLineRe = prose.LazyRE(rulebook.Pattern("facts.banner-line"))
	// progressFailRe is a test runner's progress line with failures or
	// errors in it ("tests/a_spec.py ..FE.s [ 50%]").
	progressFailRe = prose.LazyRE(rulebook.Pattern("facts.progress-fail"))
	// DiffMarkRe says the output holds a diff or patch, whose +/- body
	// lines are the change's text, never the failure's.
	DiffMarkRe     = prose.Screened(rulebook.Pattern("facts.diff-mark"), prose.MayDiffMark)
	diffBodyLineRe = prose.LazyRE(rulebook.Pattern("facts.diff-body-line"))
)

// ScoredPrefix is how much of a line lineScore reads.
const ScoredPrefix = 400

// LineScore rates how much a line of failure output tells a successor;
// zero means never a headline.
func LineScore(l string) int { return EveryLine.Score(l) }

// lineScorer is lineScore for the lines of one output. A gated pattern
// none of whose literals the whole output holds matches none of its
// lines, so it is left out of every line's score (its flag false): one
// substring search of the output instead of one per line, with the same
// score for every line of it.
type lineScorer struct {
	pass, exception, compiler, failTest, assert, notice, keyword bool
}

// EveryLine is the lineScorer that tries every pattern.
var EveryLine = lineScorer{true, true, true, true, true, true, true}

// ScorerFor is the lineScorer for lines taken from text.
func ScorerFor(text string) lineScorer {
	var lower prose.Lowered
	may := func(g prose.GatedRegexp) bool { return g.Gate().MayMatchWith(text, &lower) }
	return lineScorer{
		pass: may(PassLineRe), exception: may(ExceptionLineRe), compiler: may(CompilerLineRe),
		failTest: may(FailTestLineRe), assert: may(AssertLineRe), notice: may(NoticeLineRe), keyword: may(KeywordLineRe),
	}
}

// Score is lineScore(l), trying only the patterns sc keeps.
func (sc lineScorer) Score(l string) int {
	if (sc.pass && PassLineRe.MatchString(l)) || strings.Trim(l, "=-_*#~^ .") == "" || bannerLineRe.MatchString(l) || goPackageHeader(l) {
		return 0
	}
	switch {
	case sc.exception && ExceptionLineRe.MatchString(l):
		return 10
	case sc.compiler && CompilerLineRe.MatchString(l):
		return 9
	case sc.failTest && FailTestLineRe.MatchString(l):
		return 8
	case sc.assert && AssertLineRe.MatchString(l):
		return 7
	case progressFailRe.MatchString(l):
		return 6
	case sc.notice && NoticeLineRe.MatchString(l):
		return 1
	case sc.keyword && KeywordLineRe.MatchString(l):
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

// ErrorMessage picks the most informative line of a failure by score (the
// final exception of a traceback, the first compiler error, a failing
// test), never a pass line or a wrapper header, and the line after it
// when that adds detail, within errorMessageLimit.
func ErrorMessage(content string) string {
	return prose.Truncate(failingLine(content), ErrorMessageLimit)
}

// failingLine is errorMessage before the cut, so the files a long line
// names are all seen.
func failingLine(content string) string {
	content, note := harnessPayload(content) // never the harness's wrapper line
	lines := OutputBody(toolErrTagRe.ReplaceAllString(content, ""))
	if DiffMarkRe.MatchString(content) {
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
	sc := EveryLine
	if len(lines) > 1 {
		sc = ScorerFor(strings.Join(lines, "\n"))
	}
	best, bestScore := -1, 0
	for i := len(lines) - 1; i >= 0 && sc.exception; i-- {
		if l := prose.HeadOf(lines[i], ScoredPrefix); ExceptionLineRe.MatchString(l) && sc.Score(l) == 10 {
			best, bestScore = i, 10
			break
		}
	}
	for i := 0; best < 0 || bestScore < 9; i++ {
		if i == len(lines) {
			break
		}
		if s := sc.Score(prose.HeadOf(lines[i], ScoredPrefix)); s > bestScore {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		return "(no failing line in the output)" // only banners and pass lines
	}
	msg := lines[best]
	if best+1 < len(lines) && bestScore < 10 && len([]rune(msg)) < 120 && len(lines[best+1]) >= 12 && sc.Score(lines[best+1]) >= 5 {
		msg += " / " + lines[best+1]
	}
	if note != "" {
		msg += " (" + note + ")"
	}
	return msg
}

package facts

import (
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)
import "strings"

// A check or test run can say it failed in words while its exit status
// says nothing: a chain that ends in `docker inspect` prints "unhealthy"
// and exits 0, a home-made test runner prints "❌ 5 TEST(S) FAILED" with
// no format the test parsers know. failureWordLine finds that line, so
// the run is not read as passing and the line becomes its headline.

// failureWordRe is a line that reports a failure in words: a health
// state, a count of failed tests or checks (not zero), a summary that
// some or all failed, or a line led by a cross mark.
var failureWordRe = prose.Screened(rulebook.Pattern("facts.failure-word"), mayFailureWord)

// mayFailureWord screens failureWordRe: each alternative holds "fail",
// "unhealthy" or a cross mark.
func mayFailureWord(s string) bool {
	return prose.ContainsLower(s, []string{"fail", "unhealthy"}) || strings.ContainsAny(s, "❌✗✘✖")
}

// failureWordLine is the last line of out that reports a failure in
// words (the final summary of a run that prints one per stage), trimmed
// and cut to 200 bytes; "" when there is none.
func failureWordLine(out string) string {
	if !mayFailureWord(out) {
		return ""
	}
	lines := strings.Split(out, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l != "" && failureWordRe.MatchString(prose.HeadOf(l, ScoredPrefix)) {
			return prose.Truncate(l, 200)
		}
	}
	return ""
}

// failedRunSummary is a failed test run's summary: the one the test
// parsers found, else the line that says in words that it failed.
func failedRunSummary(summary, out string, fail bool) string {
	if summary != "" || !fail {
		return summary
	}
	return failureWordLine(out)
}

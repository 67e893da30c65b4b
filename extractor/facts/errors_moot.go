package facts

import (
	"strings"
	"sync"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// LandsRe is a call whose purpose is to record or publish work: a commit,
// a push, a script named for one. When such a call has no result, what
// to check is whether it landed.
var LandsRe = prose.LazyRE(rulebook.Pattern("facts.lands"))

// successReportRe is an assistant's closing report that the work is done
// and working.
var successReportRe = prose.LazyRE(rulebook.Pattern("facts.success-report"))

// mootError reports an open error that later evidence made moot for the
// next step: a passing test run, a commit, or the assistant's success
// report after it. Such an error stays listed (it may still matter) but
// is not what to do first; nor is a sandbox's refusal, which is the
// environment's rule, not the project's fault.
func mootError(s *handoff.Snapshot, e handoff.ErrorRecord) bool {
	return mootErrorWith(s, e, func() bool { return successReportRe.MatchString(s.EndState.LastAssistant) })
}

// MootErrors is mootError for each of s's errors, with the assistant's
// last message read for a success report at most once (nextStep asks for
// every error: sixteen readings of the same text on the largest file).
func MootErrors(s *handoff.Snapshot) func(handoff.ErrorRecord) bool {
	reported := sync.OnceValue(func() bool { return successReportRe.MatchString(s.EndState.LastAssistant) })
	return func(e handoff.ErrorRecord) bool { return mootErrorWith(s, e, reported) }
}

// mootErrorWith is mootError, asking reported whether the assistant's
// last message reports success.
func mootErrorWith(s *handoff.Snapshot, e handoff.ErrorRecord, reported func() bool) bool {
	if strings.Contains(e.Message, "Sandbox(Denied") || strings.Contains(e.Message, "SandboxDenied") {
		return true
	}
	at := e.Source.Index
	if ts := s.TestState; ts != nil && ts.Status == handoff.TestsPassing && ts.Source.Index > at {
		return true
	}
	for _, c := range s.Commits {
		if c.Source.Index > at {
			return true
		}
	}
	if end := s.EndState; end != nil && end.LastSource.Index > at && reported() {
		return true
	}
	return false
}

// NewestOpenError returns the newest error that is still open, worth a
// successor's time, and met while working on the person's latest message
// (after index since): an error from before it was either dealt with or
// set aside by the person, and is listed, not made the next step.
func NewestOpenError(errs []handoff.ErrorRecord, since int) (handoff.ErrorRecord, bool) {
	best := -1
	for i, e := range errs {
		if e.Resolution != handoff.ResolutionUnresolved || benign(e) || e.Source.Index < since || e.Type == ReportedProblem {
			continue
		}
		if best < 0 || e.Source.Index > errs[best].Source.Index {
			best = i
		}
	}
	if best < 0 {
		return handoff.ErrorRecord{}, false
	}
	return errs[best], true
}

// benign reports failures that are not problems to resolve: a search that
// found nothing, a tool use the person declined.
func benign(e handoff.ErrorRecord) bool {
	m := strings.ToLower(e.Message)
	if strings.Contains(m, "doesn't want to proceed") || strings.Contains(m, "tool use was rejected") || strings.Contains(m, "request interrupted by user") {
		return true
	}
	cmd := NormalizeCommand(e.Command)
	first, _, _ := strings.Cut(cmd, " ")
	switch first {
	case "grep", "rg", "ag", "ls", "find", "which", "test", "[", "diff", "pgrep":
		return e.Message == "(no output)" || !strings.Contains(cmd, "&&")
	}
	return false
}

// ReportedProblem is the error type of a problem the assistant reported in
// prose, not a failed command.
const ReportedProblem = "reported"

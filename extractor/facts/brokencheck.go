package facts

import (
	"fmt"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
)

// BrokenCheck names a build or test command that failed, was never fixed
// and that no later passing test run or passing run of the same check
// covers, for a next step that would otherwise only say "ask the person":
// a request settled on top of a broken build is not settled, and the
// person should hear about it. "" when there is none.
func BrokenCheck(s *handoff.Snapshot) string {
	var found *handoff.ErrorRecord
	for i, e := range s.Errors {
		if e.Resolution != handoff.ResolutionUnresolved || e.Command == "" || benign(e) ||
			(e.Type != "build_error" && e.Type != "test_failure") {
			continue
		}
		if ts := s.TestState; ts != nil && ts.Status == handoff.TestsPassing && ts.Source.Index > e.Source.Index {
			continue
		}
		if checkPassedAfter(s, CheckKey(e.Command), e.Source.Index) {
			continue
		}
		if found == nil || e.Source.Index > found.Source.Index {
			found = &s.Errors[i]
		}
	}
	if found == nil {
		return ""
	}
	return prose.Truncate(prose.FirstLine(found.Command), 120)
}

// checkPassedAfter reports a passing run of the check key, or of the same
// program with no narrower target ("make" after "make vsla_static"),
// after message at.
func checkPassedAfter(s *handoff.Snapshot, key string, at int) bool {
	if key == "" {
		return false
	}
	for _, c := range s.Checks {
		if c.Status != handoff.TestsPassing || c.Source.Index <= at {
			continue
		}
		if ck := CheckKey(c.Command); ck == key || (ck != "" && strings.HasPrefix(key, ck+" ") && !strings.Contains(ck, " ")) {
			return true
		}
	}
	return false
}

// FailingBuildStep is the next step when the newest result of a check
// (a build, type check, lint or dry run) is a failure nothing later made
// moot: fixing the build comes before anything built on it. A failure
// that later edits may have fixed is not the newest signal, and leaves the
// next step to the later evidence. "" when no check is failing.
func FailingBuildStep(s *handoff.Snapshot) string {
	var found *handoff.CheckState
	for i := len(s.Checks) - 1; i >= 0; i-- {
		c := s.Checks[i]
		if c.Status != handoff.TestsFailing || c.EditsAfter > 0 || checkPassedAfter(s, CheckKey(c.Command), c.Source.Index) ||
			mootError(s, handoff.ErrorRecord{Source: c.Source}) {
			continue
		}
		if supersededCheck(s, c) {
			continue
		}
		found = &s.Checks[i]
		break
	}
	if found == nil {
		return ""
	}
	kind := found.Kind
	if kind == "" {
		kind = "check"
	}
	// The output stays in the Tests section: a next step names the
	// command, never what a tool printed (it could carry instructions).
	return fmt.Sprintf("Fix the %s: `%s` failed on its last run, and nothing later made that moot.", kind, prose.Truncate(prose.FirstLine(found.Command), 160))
}

// supersededCheck reports a failing check after which the same program ran
// again without failing (on another target, or from another directory):
// the session moved on from that failure.
func supersededCheck(s *handoff.Snapshot, c handoff.CheckState) bool {
	prog, _, _ := strings.Cut(CheckKey(c.Command), " ")
	for _, o := range s.Checks {
		if o.Source.Index <= c.Source.Index || o.Status == handoff.TestsFailing {
			continue
		}
		if p, _, _ := strings.Cut(CheckKey(o.Command), " "); p == prog && p != "" {
			return true
		}
	}
	return false
}

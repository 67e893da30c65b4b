package extractor

import "github.com/handoff-cli/handoff"

// brokenCheck names a build or test command that failed, was never fixed
// and that no later passing test run covers, for a next step that would
// otherwise only say "ask the person": a request settled on top of a
// broken build is not settled, and the person should hear about it. ""
// when there is none.
func brokenCheck(s *handoff.Snapshot) string {
	var found *handoff.ErrorRecord
	for i, e := range s.Errors {
		if e.Resolution != handoff.ResolutionUnresolved || e.Command == "" || benign(e) ||
			(e.Type != "build_error" && e.Type != "test_failure") {
			continue
		}
		if ts := s.TestState; ts != nil && ts.Status == handoff.TestsPassing && ts.Source.Index > e.Source.Index {
			continue
		}
		if found == nil || e.Source.Index > found.Source.Index {
			found = &s.Errors[i]
		}
	}
	if found == nil {
		return ""
	}
	return truncate(firstLine(found.Command), 120)
}

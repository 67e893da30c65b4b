package conversation

import (
	"fmt"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
)

// StaleFailingRun reports a failing test run that is not where the
// session ended, so fixing it is not the next step: the session committed
// its work after the run, and then ended or went on to a later request of
// the person's. The run stays a known failing state (the Tests section
// lists it, and knownFailing says it beside the next step); the next step
// comes from how the session ended. Without a commit after it, a failing
// run is still the outstanding problem, whatever the person asked since.
func StaleFailingRun(s *handoff.Snapshot) bool {
	ts := s.TestState
	if ts == nil || ts.Status != handoff.TestsFailing {
		return false
	}
	at := ts.Source.Index
	committed := false
	for _, c := range s.Commits {
		if c.Source.Index > at {
			committed = true
		}
	}
	return committed && (sessionEnded(s.EndState) || latestRequestIndex(s) > at)
}

// sessionEnded reports an end signal that closes the session: the person
// exited, the agent finished, submitted or gave its final answer.
func sessionEnded(e *handoff.EndState) bool {
	if e == nil {
		return false
	}
	switch e.Signal {
	case "user exited", "finished", "submitted", "task complete":
		return true
	}
	return false
}

// latestRequestIndex is the message index of the person's latest
// substantive request (the snapshot's latest request, else its goal), or
// -1: the acknowledgements and commands after it ask for nothing.
func latestRequestIndex(s *handoff.Snapshot) int {
	want := s.LatestRequest
	if want == "" {
		want = s.Goal
	}
	for i := len(s.Requests) - 1; i >= 0; i-- {
		if want != "" && s.Requests[i].Text == want {
			return s.Requests[i].Source.Index
		}
	}
	return -1
}

// KnownFailing says a stale failing run beside the next step: the
// successor should know the suite was red when last run, without being
// sent to fix it first.
func KnownFailing(ts *handoff.TestState) string {
	what := "tests"
	switch n := len(ts.FailingTests); {
	case n == 1:
		what = ts.FailingTests[0]
	case n > 1:
		what = fmt.Sprintf("%d tests", n)
	}
	run := "the test run"
	if ts.Command != "" {
		run = "`" + prose.Truncate(prose.FirstLine(ts.Command), 60) + "`"
	}
	return fmt.Sprintf(" Known failing state: %s failed %s (message %d); committed past, never re-run.", run, what, ts.Source.Index)
}

// WithoutStaleRun is a copy of s for choosing the next step past a stale
// failing run: without the run, and without the test and build failures
// up to it, which are that same known failing state.
func WithoutStaleRun(s *handoff.Snapshot) *handoff.Snapshot {
	t := *s
	at := s.TestState.Source.Index
	t.TestState = nil
	t.Errors = nil
	for _, e := range s.Errors {
		if e.Source.Index <= at && (e.Type == "test_failure" || e.Type == "build_error") {
			continue
		}
		t.Errors = append(t.Errors, e)
	}
	return &t
}

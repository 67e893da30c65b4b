package extractor

import (
	"fmt"
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// settleByLaterCalls closes open errors that later calls made moot, so they
// are neither listed as open nor made the next step:
//   - facts.error-worked-around: a later call of the same tool (not a
//     shell) with other arguments succeeded, the error's workaround, named
//     with the arguments that differ (voice_id=… where voice_name failed);
//   - facts.error-abandoned: the assistant's next words turned away from
//     the failed approach ("a different approach") and nothing ran it
//     again, while later calls went on succeeding.
func settleByLaterCalls(s *handoff.Snapshot, main []handoff.Message, calls []sessionCall, sw rulebook.Switches) {
	resultAt := map[string]int{}
	for _, m := range main {
		for _, r := range m.ToolResults {
			if r.CallID != "" {
				resultAt[r.CallID] = m.Index
			}
		}
	}
	for i := range s.Errors {
		e := &s.Errors[i]
		if e.Resolution != handoff.ResolutionUnresolved {
			continue
		}
		at := slices.IndexFunc(calls, func(c sessionCall) bool {
			if c.call.ID != "" && c.done {
				if at, ok := resultAt[c.call.ID]; ok && at == e.Source.Index {
					return true
				}
			}
			return main[c.at].Index == e.Source.Index
		})
		if at < 0 {
			continue
		}
		// A failure seen more than once is judged from its last run.
		if key := programKey(calls[at].info.command); calls[at].info.shell() && key != "" {
			for k := at + 1; k < len(calls); k++ {
				if c := calls[k]; c.info.shell() && c.done && c.result.Failed() && sameProgramKey(programKey(c.info.command), key) {
					at = k
				}
			}
		}
		failedCall := calls[at]
		if sw.On("facts.error-worked-around") && !failedCall.info.shell() {
			if j := slices.IndexFunc(calls[at+1:], func(c sessionCall) bool {
				return c.call.Name == failedCall.call.Name && c.done && !c.result.Failed()
			}); j >= 0 {
				ok := calls[at+1+j]
				e.Resolution = handoff.ResolutionWorkaround
				e.ResolutionNotes = "a later " + failedCall.call.Name + " call succeeded" + argsDiff(failedCall.input, ok.input)
				continue
			}
		}
		if sw.On("facts.error-abandoned") && failedCall.info.shell() && abandoned(main, calls, at) {
			e.Resolution = handoff.ResolutionDeferred
			if e.ResolutionNotes == "" {
				e.ResolutionNotes = "set aside: the session went on another way"
			}
		}
	}
}

// argsDiff names the short arguments of the successful call that the
// failed one did not have, or had with another value (" with
// voice_id=BRk6…"): what the workaround changed.
func argsDiff(failed, ok map[string]any) string {
	var parts []string
	keys := make([]string, 0, len(ok))
	for k := range ok {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := fmt.Sprint(ok[k])
		if len(v) > 60 || strings.Contains(v, "\n") {
			continue
		}
		if fv, had := failed[k]; had && fmt.Sprint(fv) == v {
			continue
		}
		parts = append(parts, k+"="+v)
	}
	if len(parts) == 0 {
		return ""
	}
	return " with " + strings.Join(firstN(parts, 4), ", ")
}

// abandoned reports a failed shell call at calls[at] that the assistant's
// next words turned away from, whose program and script never ran again,
// and after which at least three calls succeeded.
func abandoned(main []handoff.Message, calls []sessionCall, at int) bool {
	failedCall := calls[at]
	next := ""
	for _, m := range main[failedCall.at+1:] {
		if m.Role == handoff.RoleAssistant && strings.TrimSpace(m.Text+m.Thinking) != "" {
			next = m.Text + " " + m.Thinking
			break
		}
	}
	if next == "" || !rulebook.Regexp("facts.error-abandoned").MatchString(next) {
		return false
	}
	key := programKey(failedCall.info.command)
	succeeded := 0
	for _, c := range calls[at+1:] {
		if c.info.shell() && key != "" && sameProgramKey(programKey(c.info.command), key) {
			return false // tried again: the normal resolution decides
		}
		if c.done && !c.result.Failed() && c.info.kind != kindOther {
			succeeded++
		}
	}
	return succeeded >= 3
}

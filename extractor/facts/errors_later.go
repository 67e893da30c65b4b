package facts

import (
	"fmt"
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// SettleByLaterCalls closes open errors that later calls made moot, so they
// are neither listed as open nor made the next step:
//   - facts.error-worked-around: a later call of the same tool (not a
//     shell) with other arguments succeeded, the error's workaround, named
//     with the arguments that differ (voice_id=… where voice_name failed);
//   - facts.error-abandoned: the assistant's next words turned away from
//     the failed approach ("a different approach") and nothing ran it
//     again, while later calls went on succeeding.
func SettleByLaterCalls(s *handoff.Snapshot, main []handoff.Message, calls []SessionCall, sw rulebook.Switches) {
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
		at := slices.IndexFunc(calls, func(c SessionCall) bool {
			if c.call.ID != "" && c.Done {
				if at, ok := resultAt[c.call.ID]; ok && at == e.Source.Index {
					return true
				}
			}
			return main[c.At].Index == e.Source.Index
		})
		if at < 0 {
			continue
		}
		// A failure seen more than once is judged from its last run.
		if key := calls[at].Info.programKey(); calls[at].Info.Shell() && key != "" {
			for k := at + 1; k < len(calls); k++ {
				if c := calls[k]; c.Info.Shell() && c.Done && c.Result.Failed() && sameProgramKey(c.Info.programKey(), key) {
					at = k
				}
			}
		}
		failedCall := calls[at]
		if sw.On("facts.error-worked-around") && !failedCall.Info.Shell() {
			if j := slices.IndexFunc(calls[at+1:], func(c SessionCall) bool {
				return c.call.Name == failedCall.call.Name && c.Done && !c.Result.Failed()
			}); j >= 0 {
				ok := calls[at+1+j]
				e.Resolution = handoff.ResolutionWorkaround
				e.ResolutionNotes = "a later " + failedCall.call.Name + " call succeeded" + argsDiff(failedCall.input(), ok.input())
				continue
			}
		}
		if sw.On("facts.error-abandoned") && failedCall.Info.Shell() && abandoned(main, calls, at) {
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
	return " with " + strings.Join(FirstN(parts, 4), ", ")
}

// abandoned reports a failed shell call at calls[at] that the assistant's
// next words turned away from, whose program and script never ran again,
// and after which at least three calls succeeded.
func abandoned(main []handoff.Message, calls []SessionCall, at int) bool {
	failedCall := calls[at]
	next := ""
	for _, m := range main[failedCall.At+1:] {
		if m.Role == handoff.RoleAssistant && strings.TrimSpace(m.Text+m.Thinking) != "" {
			next = m.Text + " " + m.Thinking
			break
		}
	}
	if next == "" || !errorAbandonedRe.MatchString(next) {
		return false
	}
	key := failedCall.Info.programKey()
	succeeded := 0
	for _, c := range calls[at+1:] {
		if c.Info.Shell() && key != "" && sameProgramKey(c.Info.programKey(), key) {
			return false // tried again: the normal resolution decides
		}
		if c.Done && !c.Result.Failed() && c.Info.Kind != KindOther {
			succeeded++
		}
	}
	return succeeded >= 3
}

// The patterns of this file's rules, compiled on first use behind
// their literal gates.
var (
	errorAbandonedRe = prose.LazyRE(rulebook.Pattern("facts.error-abandoned"))
)

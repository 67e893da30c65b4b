package compiler

import (
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
)

// subagentError reports an error the extractor filed from a sub-agent's
// run (its ids start with "s"; the main thread's with "e"): the main
// thread never saw it fail, so it ranks below the main thread's own.
func subagentError(e handoff.ErrorRecord) bool { return strings.HasPrefix(e.ID, "s") }

// subagentErrorsLast moves sub-agent errors after the main thread's,
// keeping each group's order.
func subagentErrorsLast(errs []handoff.ErrorRecord) []handoff.ErrorRecord {
	out := slices.Clone(errs)
	slices.SortStableFunc(out, func(a, b handoff.ErrorRecord) int {
		switch sa, sb := subagentError(a), subagentError(b); {
		case sa == sb:
			return 0
		case sb:
			return -1
		}
		return 1
	})
	return out
}

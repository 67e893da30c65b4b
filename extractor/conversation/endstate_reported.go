package conversation

import (
	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// ReportedNext returns the best key line of the assistant's last reports
// that names what comes next ("🎯 Next Priority: implement …"), "" when
// none does.
func ReportedNext(e *handoff.EndState) string {
	if e == nil {
		return ""
	}
	for _, k := range e.KeyLines {
		if namedNextRe.MatchString(k.Text) {
			return k.Text
		}
	}
	return ""
}

// namedNextRe is a line that names the next step after a label ("Next:",
// "🎯 Next Priority Task: …", "Remaining: …"), not one that only says a
// next step exists ("updated STATUS.md with the next priority task").
var namedNextRe = prose.LazyRE(rulebook.Pattern("facts.named-next"))

// LastRequestIndex is the message index of the person's latest message,
// or -1.
func LastRequestIndex(s *handoff.Snapshot) int {
	if n := len(s.Requests); n > 0 {
		return s.Requests[n-1].Source.Index
	}
	return -1
}

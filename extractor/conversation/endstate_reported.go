package conversation

import (
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// ReportedNext returns the best key line of the assistant's last reports
// that names what comes next ("🎯 Next Priority: implement …"), else the
// list the last message puts under a label of its own ("**NEXT:**" and
// numbered items: conversation.next-list-label); "" when neither does.
func ReportedNext(e *handoff.EndState, sw rulebook.Switches) string {
	if e == nil {
		return ""
	}
	for _, k := range e.KeyLines {
		if namedNextRe.MatchString(k.Text) {
			return k.Text
		}
	}
	if sw.On("conversation.next-list-label") {
		return listedNext(e.LastAssistant)
	}
	return ""
}

// maxListedNext is how many items of a next-steps list are quoted: the
// first is what to do, the rest say what follows it.
const maxListedNext = 3

// listedNext returns the first items of the last next-steps list in
// text (a list under a label line, nextListLabelRe: listsUnder), as
// "Next: 1. … 2. …"; "" when text has none.
func listedNext(text string) string {
	lists := listsUnder(text, nextListLabelRe)
	for i := len(lists) - 1; i >= 0; i-- {
		if len(lists[i]) == 0 {
			continue
		}
		var items []string
		for n, item := range lists[i][:min(len(lists[i]), maxListedNext)] {
			items = append(items, strconv.Itoa(n+1)+". "+prose.CleanLine(item))
		}
		return "Next: " + strings.Join(items, " ")
	}
	return ""
}

// nextListLabelRe is a label alone on its line that opens a list of next
// steps.
var nextListLabelRe = prose.LazyRE(rulebook.Pattern("conversation.next-list-label"))

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

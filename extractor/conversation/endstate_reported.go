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

// listedNext returns the items of the last next-steps list in text, as
// "Next: 1. … 2. …", "" when text has none. A list is the item lines
// right under a label line (nextListLabelRe), blank lines between items
// allowed, up to the first line that is no item.
func listedNext(text string) string {
	lines := strings.Split(text, "\n")
	found := ""
	for i := 0; i < len(lines); i++ {
		if !nextListLabelRe.MatchString(lines[i]) {
			continue
		}
		var items []string
		for j := i + 1; j < len(lines) && len(items) < maxListedNext; j++ {
			l := strings.TrimSpace(lines[j])
			if l == "" && len(items) == 0 {
				continue
			}
			if l == "" {
				break
			}
			if !listItemRe.MatchString(l) {
				break
			}
			items = append(items, strconv.Itoa(len(items)+1)+". "+prose.CleanLine(listItemRe.ReplaceAllString(l, "")))
		}
		if len(items) > 0 {
			found = "Next: " + strings.Join(items, " ")
		}
	}
	return found
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

package conversation

import (
	"strings"
	"unicode/utf8"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// prohibitionRe opens a sentence that forbids something ("YOU DO NOT run
// builds or tests.", "Do NOT run mutating commands", "IMPORTANT: Never
// push", "MUST NOT invent requirements"); group 1 is what it forbids.
var prohibitionRe = prose.LazyRE(rulebook.Pattern("conversation.prohibition"))

// itemEndRe ends what a prohibition forbids: its reason, exception or
// alternative follows.
var itemEndRe = prose.LazyRE(rulebook.Pattern("conversation.item-end"))

// ProhibitionsLimit bounds the folded constraint in runes: shorter than
// constraintLimit, since it stands for many rules at once and a small
// budget cannot spend 70 tokens on one line.
const ProhibitionsLimit = 170

// minPastedProhibitions is how many prohibitions past a message's clip make
// a constraint: one ("Do not modify files." closing a long task prompt) is
// kept as written, more are folded.
const minPastedProhibitions = 1

// PastedProhibitions folds the prohibitions a long message states past its
// clip (a role prompt the person pasted: "YOU DO NOT run builds or tests.
// … Do NOT run mutating commands — read-only diagnostics only.") into one
// constraint, "Do not: run builds or tests; run mutating commands — …",
// each item cut to what it forbids, the whole cut at an item so it fits
// prohibitionsLimit. Each as its own constraint
// would crowd out every other rule; left out, they are lost (the clip is
// all the prompt quotes). A single prohibition is returned as written.
// Returns "" when there is none.
func PastedProhibitions(sents []string) string {
	var items []string
	first := ""
	seen := map[string]bool{}
	for _, s := range sents {
		m := prohibitionRe.FindStringSubmatch(strings.TrimSpace(s))
		if m == nil {
			continue
		}
		if first == "" {
			first = strings.TrimSpace(s)
		}
		item := m[1]
		if i := itemEndRe.FindStringIndex(item); i != nil {
			item = item[:i[0]] // what is forbidden, without the why and the unless
		}
		item = strings.TrimRight(strings.TrimSpace(item), ".!;:,")
		if key := strings.ToLower(item); item != "" && !seen[key] {
			seen[key] = true
			items = append(items, item)
		}
	}
	if len(items) < minPastedProhibitions {
		return ""
	}
	if len(items) == 1 && utf8.RuneCountInString(first) <= ProhibitionsLimit {
		return first // one rule, in the person's words
	}
	out := "Do not: " + items[0]
	if utf8.RuneCountInString(out) > ProhibitionsLimit {
		return prose.Truncate(out, ProhibitionsLimit)
	}
	for _, it := range items[1:] {
		next := out + "; " + it
		if utf8.RuneCountInString(next)+2 > ProhibitionsLimit {
			return out + "; …"
		}
		out = next
	}
	return out + "."
}

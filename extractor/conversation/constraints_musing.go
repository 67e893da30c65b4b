package conversation

import (
	"github.com/handoff-cli/handoff/extractor/prose"
)
import "github.com/handoff-cli/handoff/extractor/rulebook"

// musingRe is the person hedging about their own next move ("Maybe I
// should try to create a local user without an Apple ID", "I wonder if we
// could skip the cache"): a thought aloud, no rule for the agent. The
// hedge opens a clause and its subject is the person (I/we), whatever
// the verb, so a typo ("Maybe I shoudl") reads the same. It runs from the
// hedge to the end of its clause, so a rule joined to it ("…, but never
// push") is still read. A hedge about the agent ("maybe you should
// always…") is a soft rule and is not matched.
var musingRe = prose.LazyRE(rulebook.Pattern("conversation.musing"))

// withoutMusings masks the person's musings about their own action in
// sent, so that the constraint words inside them set no rule.
func withoutMusings(sent string) string {
	return musingRe.ReplaceAllString(sent, " ")
}

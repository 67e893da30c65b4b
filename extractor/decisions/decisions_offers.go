package decisions

import (
	"github.com/handoff-cli/handoff/extractor/prose"
)
import "github.com/handoff-cli/handoff/extractor/rulebook"

// An offer to show, explain or look is no proposal of a choice: "Should
// I show you the uncommitted changes?", "Want me to check the logs
// first?". The person's "Sure" lets the assistant look; it settles
// nothing a successor must keep, and the paragraph above such a question
// is usually a status report, not a plan.

// offerRe is a proposal trigger followed by a verb that only looks,
// reads or tells.
var offerRe = prose.LazyRE(rulebook.Pattern("decisions.offer-to-look"))

// offersOnly reports whether every proposal in a line is an offer to
// look or tell: "I recommend X. Want me to show you the diff?" still
// proposes X.
func offersOnly(line string) bool {
	all := proposalRe.Regexp().FindAllStringIndex(line, -1)
	if len(all) == 0 {
		return false
	}
	for _, loc := range all {
		if m := offerRe.FindStringIndex(line[loc[0]:]); m == nil || m[0] != 0 {
			return false
		}
	}
	return true
}

// interjectionRe is an opening exclamation of one or two words
// ("Perfect! ", "Got it! "): tone, not part of what was proposed. Only
// "!": "Use pgx. Want me to do that?" opens with the proposal itself.
var interjectionRe = prose.LazyRE(rulebook.Pattern("decisions.interjection"))

// trimInterjection drops an opening exclamation from a proposal.
func trimInterjection(p string) string {
	if loc := interjectionRe.FindStringIndex(p); loc != nil && loc[1] < len(p) {
		return p[loc[1]:]
	}
	return p
}

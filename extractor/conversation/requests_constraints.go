package conversation

import (
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// withoutRequestEchoes drops the constraints read from the message shown
// as the goal or the latest request: the prompt quotes that message
// already, and a sentence of it repeated as a constraint says it twice. A
// standing rule ("never push without asking") stays: it outlives the
// request it came in.
func withoutRequestEchoes(cons []handoff.Constraint, reqs []handoff.Request, shown ...string) []handoff.Constraint {
	var src []int
	said := map[int]string{}
	for _, r := range reqs {
		if r.Text != "" && slices.Contains(shown, r.Text) {
			src = append(src, r.Source.Index)
			said[r.Source.Index] = facts.SpaceRun.ReplaceAllString(r.Text, " ")
		}
	}
	if len(src) == 0 {
		return cons
	}
	out := cons[:0:0]
	for _, c := range cons {
		// Only a sentence the shown (clipped) text holds is an echo: a
		// rule from past the clip is said nowhere else.
		if slices.Contains(src, c.Source.Index) && strings.Contains(said[c.Source.Index], facts.SpaceRun.ReplaceAllString(c.Text, " ")) && !standingRuleRe.MatchString(c.Text) && !askFirstRe.MatchString(c.Text) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// askFirstRe is a rule about asking the person first ("let me know before
// you start", "ask before deleting"): it stands for the whole session.
var askFirstRe = prose.LazyRE(rulebook.Pattern("conversation.ask-first"))

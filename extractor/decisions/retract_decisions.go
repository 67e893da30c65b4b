package decisions

import (
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// aiderRemovedLineRe is Aider's whole /undo answer line: "Removed:
// 7e3d1b2 feat: skip own-account transfers in importers".
var aiderRemovedLineRe = prose.LazyRE(rulebook.Pattern("decisions.aider-removed-line"))

// UndoDecisions are the commits the person took back with the harness's
// undo (Aider's /undo): each a tried-and-reverted change, so that a
// successor does not make it again, with the person's next words (the
// reason they usually give right after) as its rationale.
func UndoDecisions(main []handoff.Message) []handoff.Decision {
	var out []handoff.Decision
	for i, m := range main {
		if !(m.Meta || m.Role == handoff.RoleSystem) || !strings.Contains(m.Text, "Removed: ") {
			continue
		}
		for _, sm := range aiderRemovedLineRe.FindAllStringSubmatch(m.Text, -1) {
			what := "commit `" + sm[1] + "` " + prose.Truncate(sm[2], prose.AlternativeLimit)
			d := handoff.Decision{
				Timestamp: m.Timestamp, Source: m.Ref(), Type: handoff.DecisionApproach,
				Description: handoff.RevertedPrefix + what + " (undo)",
			}
			if why := nextWords(main[i+1:]); why != "" {
				d.Rationale = "the person: " + facts.QuoteData(prose.Truncate(why, 140))
			}
			out = append(out, d)
		}
	}
	return out
}

// nextWords is the person's next message that says something, unless the
// assistant spoke first.
func nextWords(rest []handoff.Message) string {
	for _, m := range rest {
		if m.Role == handoff.RoleAssistant && strings.TrimSpace(m.Text) != "" {
			return ""
		}
		if m.Role != handoff.RoleUser || m.Meta {
			continue
		}
		if req := conversation.CleanRequest(facts.UserRequest(m.Text)); req != "" && !conversation.IsCommandOnly(req) {
			return req
		}
	}
	return ""
}

package decisions

import (
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// Decisions the assistant numbered in its own words. A design session
// keeps a register ("- **D4** — `rawData` untouched; `SessionData` is
// additive", "**Decision:** keep SQLite", "ADR-3: …") and repeats it as
// the register grows and entries change. Each such line is one decision
// whatever its phrasing, so the first-person patterns are not needed to
// find it; and one label is one decision, so a later line under the same
// label is its newest wording (D4 first "dropped", later "untouched")
// and the earlier one is not listed beside it.

// labelledDecisionRe is a line that opens with a decision label: a list
// mark, bold, then "D<n>", "ADR-<n>" or "Decision", then a separator
// (":", a dash, or the bold's close) and the decision itself. "D<n>" must
// be upper case in prose, where "d3" is more likely a name than a label.
var labelledDecisionRe = prose.LazyRE(rulebook.Pattern("decisions.labelled-decision"))

// aboutLabelRe is a body that goes on talking about the label instead of
// stating a decision: "**D9** is now purely machine identity", "**D6**
// recorded", "D5 and D7 stay".
var aboutLabelRe = prose.LazyRE(rulebook.Pattern("decisions.about-label"))

// Label is the key a label is compared by: "adr 3", "ADR-3" and
// "ADR3" are one label; a bare "Decision" is no label at all.
func Label(label string) string {
	key := strings.ToUpper(strings.NewReplacer(" ", "", "-", "").Replace(label))
	if key == "DECISION" {
		return ""
	}
	return key
}

// labelledLine returns the label and decision of a line that opens with
// a decision label, ok false for any other line, a body too short to
// decide anything, or one that only talks about its label.
func labelledLine(line string) (label, body string, ok bool) {
	sm := labelledDecisionRe.FindStringSubmatch(strings.TrimSpace(line))
	if sm == nil {
		return "", "", false
	}
	body = strings.TrimSpace(strings.ReplaceAll(sm[2], "**", ""))
	if len([]rune(body)) < 8 || aboutLabelRe.MatchString(body) {
		return "", "", false
	}
	return strings.TrimSpace(sm[1]), body, true
}

// LabelledDecisions returns the text without its code blocks and its
// labelled decision lines, and those lines as candidates: the rest of
// the text is left to the sentence patterns, which would read the same
// line again (and drop the code blocks themselves).
func (s *Set) LabelledDecisions(m handoff.Message, text, task string) (string, []candidate) {
	lines := strings.Split(facts.StripCode(text), "\n")
	var found []candidate
	kept := lines[:0:0]
	for _, l := range lines {
		label, body, ok := labelledLine(l)
		if !ok {
			kept = append(kept, l)
			continue
		}
		key, desc := Label(label), body
		if key != "" {
			desc = label + ": " + body
		}
		c := candidate{Decision: handoff.Decision{
			Timestamp: m.Timestamp, TaskID: task, Source: m.Ref(),
			Description: prose.Truncate(desc, prose.DescriptionLimit),
		}, label: key}
		c.Type = s.Classify(body, false)
		found = append(found, c)
	}
	return strings.Join(kept, "\n"), found
}

package decisions

import (
	"slices"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

var (
	// approvalRe is a short reply that approves what was just proposed.
	approvalRe = prose.LazyRE(rulebook.Pattern("conversation.approval"))
	// proposalRe is a sentence in which the assistant proposes or asks
	// leave to do something.
	proposalRe = prose.LazyRE(rulebook.Pattern("conversation.proposal"))
)

// Approvals finds the decisions a person made by answering: a proposal of
// the assistant's that the person's short reply approved, and an option
// the person picked from a list (Request.Answers). The decision is the
// assistant's proposal in its own words, so it names the concrete choice;
// the person's reply is its rationale.
func Approvals(main []handoff.Message, reqs []handoff.Request) []handoff.Decision {
	var out []handoff.Decision
	lastText := ""
	var lastMsg handoff.Message
	for _, m := range main {
		switch {
		case m.Role == handoff.RoleAssistant && strings.TrimSpace(m.Text) != "":
			lastText, lastMsg = m.Text, m
		case m.Role == handoff.RoleUser && !m.Meta && !m.CompactSummary && lastText != "":
			reply := conversation.CleanRequest(facts.UserRequest(m.Text))
			if reply == "" || !approvalRe.MatchString(reply) {
				continue
			}
			if p := proposal(lastText); p != "" {
				out = append(out, handoff.Decision{
					Type: handoff.DecisionApproach, Description: prose.Truncate(p, prose.DescriptionLimit),
					Rationale: handoff.ApprovedRationale + facts.QuoteData(prose.Truncate(reply, 80)),
					Source:    lastMsg.Ref(), Timestamp: m.Timestamp,
				})
			}
			lastText = ""
		}
	}
	for _, r := range reqs {
		if r.Answers == "" || strings.HasPrefix(strings.TrimSpace(r.Text), "{") || !answerIsChoice(r.Text, r.Answers) {
			continue
		}
		// The answer in full enough to act on; the question only enough to
		// recognise it (the whole exchange is in the earlier messages).
		desc := handoff.ChosePrefix + facts.QuoteData(prose.Truncate(r.Text, 140))
		if conversation.PickRe.MatchString(r.Text) {
			desc = handoff.PickedPrefix + facts.QuoteData(prose.Truncate(r.Answers, 200))
		} else {
			desc += handoff.AskedInfix + facts.QuoteData(prose.Truncate(facts.FirstSentence(r.Answers), 90))
		}
		out = append(out, handoff.Decision{Type: handoff.DecisionClarification, Description: desc, Source: r.Source, Timestamp: r.Timestamp})
	}
	for i := range out {
		out[i].ID = "p" + strconv.Itoa(i+1)
	}
	return out
}

// proposal returns the sentences of text that propose something, with the
// list that follows a proposal line, or "".
func proposal(text string) string {
	lines := strings.Split(facts.StripCode(text), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" || !proposalRe.MatchString(l) {
			continue
		}
		if offersOnly(l) {
			return "" // the reply lets the assistant look; it chooses nothing
		}
		out := l
		// A bare question ("Want me to do that?") names its choice in the
		// lines before: the list an introducing line ("Remove these:")
		// opens, else the paragraph just above.
		if i > 0 && (len(l) < 80 || (len(l) < 140 && strings.HasSuffix(strings.TrimRight(l, "* "), "?"))) {
			if what := proposedBefore(lines[:i]); what != "" {
				out = what + " " + l
			}
		}
		if strings.HasSuffix(strings.TrimRight(l, "*"), ":") {
			for _, f := range lines[i+1:] {
				f = strings.TrimSpace(f)
				if f == "" {
					continue
				}
				if !conversation.ListItem(f) {
					break
				}
				out += " " + f
				if len(out) > 400 {
					break
				}
			}
		}
		return trimInterjection(facts.SpaceRun.ReplaceAllString(out, " "))
	}
	return ""
}

// proposedBefore returns what the lines just above a bare question
// propose: from the nearest line that introduces a list (it ends with a
// colon and is no list item itself) down to the question, when such a
// line is close (in lines that say something: a list spaced out with
// blank lines is no further away); else the nearest non-empty line,
// unless that is one item of a list whose opening is out of reach (the
// question alone is then the proposal, not one item out of context).
func proposedBefore(lines []string) string {
	const window, room = 16, 600
	var block []string
	size := 0
	for k := len(lines) - 1; k >= 0 && len(block) < window && size < room; k-- {
		l := strings.TrimSpace(lines[k])
		if l == "" {
			continue
		}
		block = append(block, l)
		size += len(l)
		if strings.HasSuffix(strings.TrimRight(l, "*"), ":") && !conversation.ListItem(l) && len(block) > 1 {
			slices.Reverse(block)
			return compactProposal(block)
		}
	}
	if len(block) > 0 && !conversation.ListItem(block[0]) {
		return block[0]
	}
	return ""
}

package decisions

import (
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// A change that was tried and then undone is a decision too: "X tried
// and reverted" tells a successor not to try X again. It shows in git's
// own output for a revert commit, or in the assistant's report of the
// revert ("Reverted! … the LibraryPaths dataclass is gone"); the person's
// words that asked for it give the why.

const revertEpisode = 4 // messages within which a report describes the same revert

var (
	// gitRevertLineRe is the line `git revert` prints for the commit it
	// made: `[main bcb5223] Revert "refactor: Consolidate …"`.
	gitRevertLineRe = prose.LazyRE(rulebook.Pattern("decisions.git-revert-line"))
	// conventionalRe is a commit subject's type prefix ("feat(ui): ").
	conventionalRe = prose.LazyRE(rulebook.Pattern("decisions.conventional"))
	// revertedWordRe marks a message that reports a revert.
	revertedWordRe = prose.LazyRE(rulebook.Pattern("decisions.reverted-word"))
	// goneRe is what the report says is gone: "the LibraryPaths dataclass
	// is gone", "the retry wrapper has been removed".
	goneRe = prose.LazyRE(rulebook.Pattern("decisions.gone"))
	// triedRe is "tried X, reverted" / "tried X but rolled it back".
	triedRe = prose.LazyRE(rulebook.Pattern("decisions.tried"))
	// revertAskRe is the person asking for a revert.
	revertAskRe = prose.LazyRE(rulebook.Pattern("decisions.revert-ask"))
)

// revertTracker finds tried-and-reverted changes as the messages go by.
type revertTracker struct {
	asks []string // the person's recent messages, newest last
	last int      // index of the last revert recorded, -1 for none
}

// NewRevertTracker returns a tracker with no change tried yet.
func NewRevertTracker() *revertTracker { return &revertTracker{last: -1 - revertEpisode} }

// See reads one main-thread message and adds any revert it records.
func (r *revertTracker) See(s *Set, m handoff.Message, task string) {
	switch m.Role {
	case handoff.RoleUser:
		if req := strings.TrimSpace(conversation.CleanRequest(facts.UserRequest(m.Text))); req != "" {
			r.asks = append(r.asks, req)
			if len(r.asks) > 2 {
				r.asks = r.asks[1:]
			}
		}
	case handoff.RoleAssistant:
		if m.Index-r.last > revertEpisode {
			if what := ReportedRevert(m.Text); what != "" {
				r.Add(s, m, task, what)
			}
		}
	}
	for _, res := range m.ToolResults {
		for _, sm := range gitRevertLineRe.FindAllStringSubmatch(res.Content, -1) {
			r.Add(s, m, task, conventionalRe.ReplaceAllString(strings.TrimSpace(sm[1]), ""))
		}
	}
}

// Add adds to s the decision that what, tried in m, was undone.
func (r *revertTracker) Add(s *Set, m handoff.Message, task, what string) {
	what = prose.Truncate(strings.Trim(what, " `*\"'"), prose.AlternativeLimit)
	c := candidate{Decision: handoff.Decision{
		Timestamp: m.Timestamp, TaskID: task, Source: m.Ref(),
		Type:        handoff.DecisionApproach,
		Description: handoff.RevertedPrefix + what,
		Rationale:   r.why(),
	}, alts: []string{what}}
	c.Alternatives = c.alts
	s.Add(c)
	r.last = m.Index
}

// why returns the person's reason for a revert they asked for: their
// words before "revert" ("nah, this ended up to be more LOC. revert"),
// or, when the ask is bare ("Revert."), the message before it ("This was
// a TDD violation"). An agent's own revert has none.
func (r *revertTracker) why() string {
	if len(r.asks) == 0 {
		return ""
	}
	ask := r.asks[len(r.asks)-1]
	loc := revertAskRe.FindStringIndex(ask)
	if loc == nil {
		return ""
	}
	before := strings.TrimRight(strings.TrimSpace(ask[:loc[0]]), ",;:—- ")
	if len(strings.Fields(before)) < 3 && len(r.asks) > 1 {
		before = r.asks[len(r.asks)-2]
	}
	if before == "" {
		return ""
	}
	return "the person: " + facts.QuoteData(prose.Truncate(before, 140))
}

// ReportedRevert returns what an assistant's message says it reverted:
// the thing "is gone" in a message that reports a revert, or X of "tried
// X, reverted".
func ReportedRevert(text string) string {
	text = facts.StripCode(text)
	if m := triedRe.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	if !revertedWordRe.MatchString(text) {
		return ""
	}
	for _, sent := range prose.SplitSentences(text) {
		if m := goneRe.FindStringSubmatch(sent); m != nil {
			return m[1]
		}
	}
	return ""
}

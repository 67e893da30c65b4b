package decisions

import (
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// A hedged claim is not a settled choice. "`X = 3` appears to be the
// correct value", "this is our strongest candidate", "I'll probably use
// Y", "I think Z could work" match a decision pattern, but their main
// clause says the session does not know yet. Under "Decisions in force" a
// successor reads them as settled and builds on a guess.
//
// A hedged candidate is held back, not dropped: it becomes a decision
// when the session later confirms it: the person's next message approves
// it, a later unhedged sentence of the assistant names its subject with a
// confirming word ("confirmed", "verified", "is indeed"), or a later call
// writes its subject into a file (the work now rests on it).

// hedgedRe is a word that hedges the claim of its clause.
var hedgedRe = prose.LazyRE(rulebook.Pattern("decisions.hedged"))

// claimConfirmRe is a word that settles a claim: the session checked it.
var claimConfirmRe = prose.LazyRE(rulebook.Pattern("decisions.claim-confirm"))

// hedgedClaim reports whether the clauses of a sentence that choose are
// all hedged: the main claim is a guess. A hedge in the reason ("I'll use
// pgx because it is probably faster") or in another clause ("it may be
// slow, so I'll use Redis instead") leaves the choice settled.
func hedgedClaim(sent string, patterns []prose.LazyRegexp, rationale prose.LazyRegexp) bool {
	if !hedgedRe.MatchString(sent) {
		return false
	}
	claim := sent
	if loc := rationale.FindStringIndex(sent); loc != nil && strings.TrimSpace(sent[:loc[0]]) != "" {
		claim = sent[:loc[0]]
	}
	choosing, hedged := 0, 0
	for _, cl := range splitClauses(claim) {
		if !prose.MatchesAny(patterns, cl) {
			continue
		}
		choosing++
		if hedgedRe.MatchString(cl) {
			hedged++
		}
	}
	if choosing == 0 {
		// The pattern spans clauses ("the correct value: X"): judge the
		// claim whole.
		return hedgedRe.MatchString(claim)
	}
	return hedged == choosing
}

// hypothesis is a hedged candidate waiting for a confirmation.
type hypothesis struct {
	c        candidate
	msg      int      // index of the message that said it
	subjects []string // what a confirmation must name
}

// subjectsOf returns what a claim is about: its code spans, else the
// identifiers it names (paths, names with an underscore or inner
// capitals), else its chosen phrase. A claim with none can only be
// confirmed by the person.
func subjectsOf(c candidate) []string {
	var out []string
	for _, sm := range conversation.BacktickRe.FindAllStringSubmatch(c.Description, -1) {
		if s := strings.TrimSpace(sm[1]); len(s) > 1 {
			out = append(out, s)
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, tok := range identifierRe.Regexp().FindAllString(c.Description, -1) {
		tok = strings.Trim(strings.TrimSpace(tok), `"'“”‘’`)
		if len(tok) > 2 && !prose.IsDigits(strings.ReplaceAll(tok, ".", "")) {
			out = append(out, tok)
		}
	}
	if len(out) == 0 && len(c.chosen) > 0 && !EmptyPhrase(c.chosen[0]) {
		out = append(out, c.chosen[0])
	}
	return out
}

// hold keeps a hedged candidate until something confirms it.
func (s *Set) hold(c candidate, msg int) {
	s.Pending = append(s.Pending, hypothesis{c: c, msg: msg, subjects: subjectsOf(c)})
}

// AddUnconfirmed lists the hypotheses nothing confirmed as decisions
// marked unconfirmed (handoff.UnconfirmedPrefix): a successor needs the
// session's best guess, said as a guess; two guesses at one thing are one.
func (s *Set) AddUnconfirmed() {
	for _, h := range s.Pending {
		h.c.unconfirmed = true
		s.Add(h.c)
	}
	s.Pending = nil
}

// Confirm reads a later message for confirmations of the held
// hypotheses and adds those it confirms as decisions, in the order they
// were said.
func (s *Set) Confirm(i int, m handoff.Message) {
	if len(s.Pending) == 0 {
		return
	}
	var ev *confirmEvidence // read from m once, when a hypothesis first needs it
	keep := s.Pending[:0]
	for _, h := range s.Pending {
		if i > h.msg {
			if ev == nil {
				ev = s.readConfirmEvidence(i, m)
			}
			if s.confirms(h, ev) {
				s.Add(h.c)
				continue
			}
		}
		keep = append(keep, h)
	}
	s.Pending = keep
}

// confirmEvidence is what one message offers to confirm a hypothesis
// with, read once for all the held ones: reading it per hypothesis made
// a long session's cost grow with the square of its claims.
type confirmEvidence struct {
	role     handoff.Role
	approves bool     // the person's reply approves
	texts    []string // claims of the assistant's and texts its calls wrote, spaces and backticks normalised
}

func (s *Set) readConfirmEvidence(at int, m handoff.Message) *confirmEvidence {
	ev := &confirmEvidence{role: m.Role}
	switch m.Role {
	case handoff.RoleUser:
		// Extract passes no meta message or compaction summary.
		reply := conversation.CleanRequest(facts.UserRequest(m.Text))
		ev.approves = reply != "" && approvalRe.MatchString(reply)
	case handoff.RoleAssistant:
		for _, sent := range prose.SplitSentences(facts.StripCode(facts.WithoutThinking(m.Text))) {
			if claimConfirmRe.MatchString(sent) && !hedgedRe.MatchString(sent) && !strings.HasSuffix(sent, "?") {
				ev.texts = append(ev.texts, claimText(sent))
			}
		}
		for _, f := range s.written(at, m) {
			ev.texts = append(ev.texts, claimText(f.text))
		}
	}
	return ev
}

// confirms reports whether a message's evidence confirms hypothesis h.
func (s *Set) confirms(h hypothesis, ev *confirmEvidence) bool {
	switch ev.role {
	case handoff.RoleUser:
		// The person's first reply after the claim approves it (an
		// approval later on approves something else).
		return ev.approves && s.LastUser <= h.msg
	case handoff.RoleAssistant:
		for _, t := range ev.texts {
			if namesSubject(t, h.subjects) {
				return true
			}
		}
	}
	return false
}

// claimText is a claim or a written text as it is searched for a
// hypothesis's subjects: backticks dropped, spaces normalised.
func claimText(text string) string { return normSpace(strings.ReplaceAll(text, "`", "")) }

// namesSubject reports whether t, already a claimText, names one of
// subjects.
func namesSubject(t string, subjects []string) bool {
	for _, sub := range subjects {
		if n := normSpace(sub); n != "" && strings.Contains(t, n) {
			return true
		}
	}
	return false
}

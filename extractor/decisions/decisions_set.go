package decisions

import (
	"slices"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// Patterns are the compiled sentence patterns.
type Patterns struct {
	Assistant []prose.LazyRegexp
	User      []prose.LazyRegexp
	NotChoice prose.LazyRegexp
	// ChosenAlt pairs: submatch "c" is the choice, "a" the alternative.
	ChosenAlt []prose.LazyRegexp
	Rationale prose.LazyRegexp
	Follow    prose.LazyRegexp
	Reversal  prose.LazyRegexp
	// type classifiers, in order of precedence
	Workaround, Skip, Layout, Library, Architecture prose.LazyRegexp
}

// CompilePatterns returns the decision set's sentence patterns from the catalogue.
func CompilePatterns() Patterns {
	c := func(id string) prose.LazyRegexp { return prose.LazyRE(rulebook.Pattern(id)) }
	prosePatterns := make([]prose.LazyRegexp, 0, len(proseDecisionPatterns))
	for _, id := range proseDecisionPatterns {
		prosePatterns = append(prosePatterns, c(id))
	}
	return Patterns{
		Assistant: append(prosePatterns,
			c("decisions.choose-instead"),
			c("decisions.instead-of-choose"),
			c("decisions.decided"),
			c("decisions.switch-to"),
			c("decisions.go-with"),
			c("decisions.going-with-opening"),
			c("decisions.chose-over"),
			c("decisions.opt-for"),
			c("decisions.choose-rather-than"),
			c("decisions.will-skip"),
			c("decisions.workaround-label"),
			c("decisions.as-workaround"),
			c("decisions.revert-to"),
		),
		User: []prose.LazyRegexp{
			c("decisions.user-lets"),
			c("decisions.user-dont"),
			c("decisions.user-use-instead"),
			c("decisions.user-instead-of"),
			c("decisions.user-always-use"),
			c("decisions.user-prefer"),
			c("decisions.user-go-with"),
		},
		// Moving around the tree is not a decision.
		NotChoice: c("decisions.not-choice"),
		ChosenAlt: []prose.LazyRegexp{
			c("decisions.alt-use-instead-of"),
			c("decisions.alt-instead-of-we"),
			c("decisions.alt-switch-from-to"),
			c("decisions.alt-switch-to"),
			c("decisions.alt-chose-over"),
			c("decisions.alt-opt-for"),
			c("decisions.alt-revert-to"),
			c("decisions.alt-go-with"),
			c("decisions.alt-decided-on"),
			c("decisions.alt-rather-than"),
			c("decisions.alt-rather-than-bare"),
			c("decisions.alt-instead-of"),
			c("decisions.alt-use"),
		},
		Rationale: c("decisions.rationale"),
		Follow:    c("decisions.follow"),
		Reversal:  c("decisions.reversal"),

		Workaround: c("decisions.type-workaround"),
		// A skip is work left undone, said of the work itself: "we'll
		// skip the e2e suite", "out of scope", "I won't port X". "Skip"
		// inside a description of how code behaves ("the loop skips to
		// the next day") and "this won't compile" are not.
		Skip:         c("decisions.type-skip"),
		Layout:       c("decisions.type-layout"),
		Library:      c("decisions.type-library"),
		Architecture: c("decisions.type-architecture"),
	}
}

// candidate is a decision with the phrases used to relate it to others.
type candidate struct {
	handoff.Decision
	chosen, alts []string
	reversal     bool
	// unconfirmed marks a hedged claim no later message confirmed.
	unconfirmed bool
	// label is the decision's own label ("D4", "ADR3"), "" when it has
	// none: one label is one decision.
	label string
}

// Set accumulates decisions in order, folding near-duplicates and
// marking reversed ones superseded.
type Set struct {
	Pat *Patterns
	// Heads decodes call inputs, once per build; nil decodes each time.
	Heads *facts.Headlines
	List  []handoff.Decision
	meta  []candidate
	// Pending are hedged candidates no later message has confirmed yet;
	// lastUser is the index of the person's latest message before the
	// one being read.
	Pending  []hypothesis
	LastUser int
	writes   messageWrites
}

// Scan reads the text of message at (m) for decisions.
func (s *Set) Scan(at int, m handoff.Message, text string, fromUser bool, task string) {
	sentences := prose.SplitSentences(facts.StripCode(text))
	for i, sent := range sentences {
		if strings.HasSuffix(sent, "?") || (fromUser && len(sent) > prose.UserSentenceLimit) {
			continue
		}
		patterns := s.Pat.Assistant
		if fromUser {
			patterns = s.Pat.User
		}
		if !prose.MatchesAny(patterns, sent) || s.Pat.NotChoice.MatchString(sent) || (fromUser && bareLetsNotRe.MatchString(sent)) ||
			hindsightOnly(sent, patterns) {
			continue
		}
		next := ""
		if i+1 < len(sentences) {
			next = sentences[i+1]
		}
		c := s.judge(m, sent, next, fromUser, task)
		switch {
		case choosesNothing(c):
		case hedgedClaim(sent, patterns, s.Pat.Rationale):
			s.hold(c, at)
		default:
			s.Add(c)
		}
	}
}

// judge builds a candidate decision from a sentence that matched.
func (s *Set) judge(m handoff.Message, sent, next string, fromUser bool, task string) candidate {
	p := s.Pat
	c := candidate{Decision: handoff.Decision{
		Timestamp:   m.Timestamp,
		TaskID:      task,
		Description: prose.Truncate(sent, prose.DescriptionLimit),
		Source:      m.Ref(),
	}}
	decides := func(s string) bool { return prose.MatchesAny(p.Assistant, s) }
	if fromUser {
		decides = func(s string) bool { return prose.MatchesAny(p.User, s) }
	}
	if why := sentenceRationale(p, sent, decides); why != "" {
		c.Rationale = prose.Truncate(why, prose.RationaleLimit)
	} else if next != "" && p.Follow.MatchString(next) && !prose.MatchesAny(p.Assistant, next) {
		c.Rationale = prose.Truncate(next, prose.RationaleLimit)
	}
	for _, re := range p.ChosenAlt {
		sm := re.FindStringSubmatchIndex(sent)
		if sm == nil {
			continue
		}
		for gi, name := range re.SubexpNames() {
			if name == "" || sm[2*gi] < 0 {
				continue
			}
			phrase := cleanPhrase(capturedPhrase(sent, sm[2*gi], sm[2*gi+1]))
			if phrase == "" {
				continue
			}
			switch name {
			case "c":
				if len(c.chosen) == 0 {
					c.chosen = append(c.chosen, phrase)
				}
			case "a":
				if !prose.ContainsFold(c.alts, phrase) {
					c.alts = append(c.alts, phrase)
				}
			}
		}
	}
	c.Alternatives = c.alts
	c.reversal = p.Reversal.MatchString(sent)
	c.Type = s.Classify(sent, fromUser)
	return c
}

// Classify says what kind of decision a sentence states.
func (s *Set) Classify(sent string, fromUser bool) handoff.DecisionType {
	p := s.Pat
	switch {
	case fromUser:
		return handoff.DecisionClarification
	case p.Workaround.MatchString(sent):
		return handoff.DecisionWorkaround
	case p.Skip.MatchString(sent):
		return handoff.DecisionSkip
	case p.Layout.MatchString(sent):
		return handoff.DecisionArchitecture
	case p.Library.MatchString(sent):
		return handoff.DecisionLibrary
	case p.Architecture.MatchString(sent):
		return handoff.DecisionArchitecture
	}
	return handoff.DecisionApproach
}

// Add appends a candidate, in place of a current decision it restates
// (restates), and marks the current decisions it reverses as superseded.
func (s *Set) Add(c candidate) {
	c.ID = "d" + strconv.Itoa(len(s.List)+1)
	for i := range s.List {
		if s.List[i].SupersededBy == "" && restates(c, s.meta[i]) {
			if c.unconfirmed && !s.meta[i].unconfirmed {
				return // a guess at what is settled says nothing new
			}
			c = s.restated(i, c)
			break
		}
	}
	if c.unconfirmed {
		// A guess supersedes nothing, and is listed where it was said.
		d := c.Decision
		d.Description = handoff.UnconfirmedPrefix + d.Description
		at := len(s.List)
		for at > 0 && s.List[at-1].Source.Index > d.Source.Index {
			at--
		}
		s.List = slices.Insert(s.List, at, d)
		s.meta = slices.Insert(s.meta, at, c)
		return
	}
	for i := len(s.List) - 1; i >= 0; i-- {
		prev := &s.List[i]
		if prev.SupersededBy != "" {
			continue
		}
		old := s.meta[i]
		movesAway := Overlaps(c.alts, old.chosen)
		movesBack := c.reversal && Overlaps(c.chosen, old.alts)
		if movesAway || movesBack {
			prev.SupersededBy = c.ID
		}
	}
	s.List = append(s.List, c.Decision)
	s.meta = append(s.meta, c)
}

// isStopWord reports words left out when comparing subjects: they say
// nothing about which thing was chosen.
func isStopWord(w string) bool {
	switch w {
	case "the", "a", "an", "to", "of", "for", "with", "use", "using", "instead", "back", "it", "this", "that", "we", "i", "our", "my", "library", "package", "module", "approach", "tool", "file", "files", "code", "version", "one", "and", "or", "in", "on", "new", "old", "existing", "simple", "plain", "just", "go", "let", "s", "ll", "is", "be":
		return true
	}
	return false
}

func subjectWords(phrase string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(phrase), prose.NotWordRune) {
		if len(w) >= 2 && !isStopWord(w) {
			out = append(out, w)
		}
	}
	return out
}

// Overlaps reports whether any phrase in a shares a subject word with any
// phrase in b.
func Overlaps(a, b []string) bool {
	for _, x := range a {
		xw := subjectWords(x)
		for _, y := range b {
			for _, yw := range subjectWords(y) {
				for _, w := range xw {
					if w == yw {
						return true
					}
				}
			}
		}
	}
	return false
}

// cleanPhrase trims a captured choice to a short noun phrase.
func cleanPhrase(p string) string {
	p = strings.Trim(strings.TrimSpace(p), "`*'\".,;:")
	p = strings.TrimPrefix(strings.TrimPrefix(p, "the "), "a ")
	return prose.Truncate(p, prose.AlternativeLimit)
}

package extractor

import (
	"slices"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
)

// decisionPatterns are the compiled sentence patterns.
type decisionPatterns struct {
	assistant []lazyRegexp
	user      []lazyRegexp
	notChoice lazyRegexp
	// chosenAlt pairs: submatch "c" is the choice, "a" the alternative.
	chosenAlt []lazyRegexp
	rationale lazyRegexp
	follow    lazyRegexp
	reversal  lazyRegexp
	// type classifiers, in order of precedence
	workaround, skip, layout, library, architecture lazyRegexp
}

// end closes a captured phrase: a clause word or punctuation.
const end = `(?:\s+(?:because|since|so that|so|as|for|which|to|in|and|but|when|while|here|now|from|instead|over|rather)\b|[,;:!?()"]|\.(?:\s|$)|$)`

func compileDecisionPatterns() decisionPatterns {
	c := func(s string) lazyRegexp { return lazyRE(`(?i)` + s) }
	we := `(?:i'?ll|i will|we'?ll|we will|let'?s|i'?m going to|we'?re going to|i'?d rather|we should|i'?m|we'?re)`
	// weChoose is a first person choosing, not narrating progress: "I'm
	// now reading X rather than Y" reports what the agent looks at, "I'll
	// use X rather than Y" or "I'm switching to X instead" decides.
	weChoose := `(?:i'?ll|i will|we'?ll|we will|let'?s|i'?m going to|we'?re going to|i'?d rather|we should|i should|` +
		`(?:i|we) (?:decided|chose|opted|went)|(?:i|we)'?ve (?:decided|chosen|opted|gone)|` +
		`(?:i'?m|we'?re)\s+(?:now\s+)?(?:using|switching|going with|keeping|replacing|changing|moving|dropping|removing|adding|sticking))`
	prose := make([]lazyRegexp, 0, len(proseDecisionPatterns))
	for _, p := range proseDecisionPatterns {
		prose = append(prose, c(p))
	}
	return decisionPatterns{
		assistant: append(prose,
			c(`\b`+weChoose+`\b.*\binstead\b`),
			c(`\binstead of\b.+,\s*`+weChoose+`\b`),
			c(`\b(?:i'?ve|i have|we'?ve|we have)?\s*decided\s+(?:to|on|that|against)\b`),
			c(`(?:^|\b(?:i'?m|we'?re|i'?ll|we'?ll|let'?s|i will|we will|i)\s+)switch(?:ing|ed)?\s+(?:back\s+)?(?:from\s+.+?\s+)?to\b`),
			c(`\b(?:let'?s|i'?ll|we'?ll|i'?m|we'?re)\s+go(?:ing)?\s+with\b`),
			c(`^going with\b`),
			c(`\b(?:chose|choose|choosing|chosen|picked|picking|prefer|preferring)\b.+\bover\b`),
			c(`\bopt(?:ed|ing)?\s+for\b`),
			c(`\b`+weChoose+`\b.*\brather than\b`),
			c(`\b(?:we'?ll|i'?ll|i will|we will|let'?s)\s+skip\b`),
			c(`\bworkaround:`),
			c(`\bas a workaround\b`),
			c(`\b(?:revert(?:ing)?|go(?:ing)? back|switch(?:ing)? back)\s+to\b`),
		),
		user: []lazyRegexp{
			c(`\blet'?s\s+(?:use|go with|keep|stick with|switch to|not|skip|avoid)\b`),
			c(`\b(?:don'?t|do not|never|please don'?t)\s+(?:delete|remove|use|touch|change|modify|commit|push|add|rename|drop|install|run|rewrite)\b`),
			c(`\buse\s+.+?\s+instead of\b`),
			c(`\binstead of\b`),
			c(`\b(?:always|only|please)\s+use\b`),
			c(`\bi(?:'d| would)?\s+(?:want|prefer)\s+(?:you to\s+)?(?:use|keep|go with|stick with)\b`),
			c(`\bgo with\b`),
		},
		// Moving around the tree is not a decision.
		notChoice: c(`\bswitch(?:ing|ed)?\s+(?:back\s+)?to\s+(?:the\s+)?(?:\S+\s+)?(?:directory|dir|folder|branch|tab|worktree|terminal|window)\b`),
		chosenAlt: []lazyRegexp{
			c(`\buse\s+(?P<c>.+?)\s+instead\s+of\s+(?P<a>.+?)` + end),
			c(`\binstead\s+of\s+(?P<a>.+?),\s*` + we + `\s+(?:use\s+|go with\s+|switch to\s+)?(?P<c>.+?)` + end),
			c(`\bswitch(?:ing|ed)?\s+(?:back\s+)?from\s+(?P<a>.+?)\s+to\s+(?P<c>.+?)` + end),
			c(`\bswitch(?:ing|ed)?\s+(?:back\s+)?to\s+(?P<c>.+?)` + end),
			c(`\b(?:chose|choose|choosing|chosen|picked|picking|prefer|preferring)\s+(?P<c>.+?)\s+over\s+(?P<a>.+?)` + end),
			c(`\bopt(?:ed|ing)?\s+for\s+(?P<c>.+?)` + end),
			c(`\b(?:revert(?:ing)?|go(?:ing)? back)\s+to\s+(?P<c>.+?)` + end),
			c(`\bgo(?:ing)?\s+with\s+(?P<c>.+?)` + end),
			c(`\bdecided\s+(?:to\s+use|on)\s+(?P<c>.+?)` + end),
			c(`\b(?P<c>\S+(?:\s+\S+)?)\s+rather\s+than\s+(?P<a>.+?)` + end),
			c(`\brather\s+than\s+(?P<a>.+?)` + end),
			c(`\binstead\s+of\s+(?P<a>.+?)` + end),
			c(`\b(?:use|keep|stick with)\s+(?P<c>.+?)` + end),
		},
		rationale: c(`\b(?:because|since|so that|given that|as (?:it|they|this|that|the|we|there|otherwise))\b\s*(.+)$`),
		follow:    c(`^(?:this|that|it|because|since|the reason|otherwise|that way|which|so that)\b`),
		reversal:  c(`\b(?:back|revert(?:ing|ed)?|actually|after all|undo)\b`),

		workaround: c(`\b(?:workaround|work around|temporar(?:y|ily)|hack|for now)\b`),
		// A skip is work left undone, said of the work itself: "we'll
		// skip the e2e suite", "out of scope", "I won't port X". "Skip"
		// inside a description of how code behaves ("the loop skips to
		// the next day") and "this won't compile" are not.
		skip: c(`\b(?:(?:we|i|let'?s)(?:'ll| will| can| are| am|'re|'m)?\s+(?:just\s+|also\s+)?(?:skip(?:ping)?|not (?:do|port|implement|add|fix|support)|won'?t|will not|not going to)` +
			`|skipping\b.{0,60}\b(?:for now|this time|entirely|altogether)` +
			`|defer(?:ring)?|postpone|out of scope|leave .+ for later)\b`),
		layout:       c(`\bmodule layout\b`),
		library:      c(`\b(?:package|library|libraries|lib|module|dependency|dependencies|import|crate|gem|npm install|go get|pip install|sdk|framework)\b`),
		architecture: c(`\b(?:architecture|design|structure|refactor(?:ing)?|interface|layer(?:s|ing)?|abstraction|schema)\b`),
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

// decisionSet accumulates decisions in order, folding near-duplicates and
// marking reversed ones superseded.
type decisionSet struct {
	pat  *decisionPatterns
	list []handoff.Decision
	meta []candidate
	// pending are hedged candidates no later message has confirmed yet;
	// lastUser is the index of the person's latest message before the
	// one being read.
	pending  []hypothesis
	lastUser int
}

// scan reads the text of message at (m) for decisions.
func (s *decisionSet) scan(at int, m handoff.Message, text string, fromUser bool, task string) {
	sentences := splitSentences(stripCode(text))
	for i, sent := range sentences {
		if strings.HasSuffix(sent, "?") || (fromUser && len(sent) > userSentenceLimit) {
			continue
		}
		patterns := s.pat.assistant
		if fromUser {
			patterns = s.pat.user
		}
		if !matchesAny(patterns, sent) || s.pat.notChoice.MatchString(sent) || (fromUser && bareLetsNotRe.MatchString(sent)) ||
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
		case hedgedClaim(sent, patterns, s.pat.rationale):
			s.hold(c, at)
		default:
			s.add(c)
		}
	}
}

// judge builds a candidate decision from a sentence that matched.
func (s *decisionSet) judge(m handoff.Message, sent, next string, fromUser bool, task string) candidate {
	p := s.pat
	c := candidate{Decision: handoff.Decision{
		Timestamp:   m.Timestamp,
		TaskID:      task,
		Description: truncate(sent, descriptionLimit),
		Source:      m.Ref(),
	}}
	decides := func(s string) bool { return matchesAny(p.assistant, s) }
	if fromUser {
		decides = func(s string) bool { return matchesAny(p.user, s) }
	}
	if why := sentenceRationale(p, sent, decides); why != "" {
		c.Rationale = truncate(why, rationaleLimit)
	} else if next != "" && p.follow.MatchString(next) && !matchesAny(p.assistant, next) {
		c.Rationale = truncate(next, rationaleLimit)
	}
	for _, re := range p.chosenAlt {
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
				if !containsFold(c.alts, phrase) {
					c.alts = append(c.alts, phrase)
				}
			}
		}
	}
	c.Alternatives = c.alts
	c.reversal = p.reversal.MatchString(sent)
	c.Type = s.classify(sent, fromUser)
	return c
}

func (s *decisionSet) classify(sent string, fromUser bool) handoff.DecisionType {
	p := s.pat
	switch {
	case fromUser:
		return handoff.DecisionClarification
	case p.workaround.MatchString(sent):
		return handoff.DecisionWorkaround
	case p.skip.MatchString(sent):
		return handoff.DecisionSkip
	case p.layout.MatchString(sent):
		return handoff.DecisionArchitecture
	case p.library.MatchString(sent):
		return handoff.DecisionLibrary
	case p.architecture.MatchString(sent):
		return handoff.DecisionArchitecture
	}
	return handoff.DecisionApproach
}

// add appends a candidate, in place of a current decision it restates
// (restates), and marks the current decisions it reverses as superseded.
func (s *decisionSet) add(c candidate) {
	c.ID = "d" + strconv.Itoa(len(s.list)+1)
	for i := range s.list {
		if s.list[i].SupersededBy == "" && restates(c, s.meta[i]) {
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
		at := len(s.list)
		for at > 0 && s.list[at-1].Source.Index > d.Source.Index {
			at--
		}
		s.list = slices.Insert(s.list, at, d)
		s.meta = slices.Insert(s.meta, at, c)
		return
	}
	for i := len(s.list) - 1; i >= 0; i-- {
		prev := &s.list[i]
		if prev.SupersededBy != "" {
			continue
		}
		old := s.meta[i]
		movesAway := overlaps(c.alts, old.chosen)
		movesBack := c.reversal && overlaps(c.chosen, old.alts)
		if movesAway || movesBack {
			prev.SupersededBy = c.ID
		}
	}
	s.list = append(s.list, c.Decision)
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
	for _, w := range strings.FieldsFunc(strings.ToLower(phrase), notWordRune) {
		if len(w) >= 2 && !isStopWord(w) {
			out = append(out, w)
		}
	}
	return out
}

// overlaps reports whether any phrase in a shares a subject word with any
// phrase in b.
func overlaps(a, b []string) bool {
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
	return truncate(p, alternativeLimit)
}

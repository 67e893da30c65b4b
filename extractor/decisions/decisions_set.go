package decisions

import (
	"slices"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
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

// end closes a captured phrase: a clause word or punctuation.
const end = `(?:\s+(?:because|since|so that|so|as|for|which|to|in|and|but|when|while|here|now|from|instead|over|rather)\b|[,;:!?()"]|\.(?:\s|$)|$)`

func CompilePatterns() Patterns {
	c := func(s string) prose.LazyRegexp { return prose.LazyRE(`(?i)` + s) }
	we := `(?:i'?ll|i will|we'?ll|we will|let'?s|i'?m going to|we'?re going to|i'?d rather|we should|i'?m|we'?re)`
	// weChoose is a first person choosing, not narrating progress: "I'm
	// now reading X rather than Y" reports what the agent looks at, "I'll
	// use X rather than Y" or "I'm switching to X instead" decides.
	weChoose := `(?:i'?ll|i will|we'?ll|we will|let'?s|i'?m going to|we'?re going to|i'?d rather|we should|i should|` +
		`(?:i|we) (?:decided|chose|opted|went)|(?:i|we)'?ve (?:decided|chosen|opted|gone)|` +
		`(?:i'?m|we'?re)\s+(?:now\s+)?(?:using|switching|going with|keeping|replacing|changing|moving|dropping|removing|adding|sticking))`
	prosePatterns := make([]prose.LazyRegexp, 0, len(proseDecisionPatterns))
	for _, p := range proseDecisionPatterns {
		prosePatterns = append(prosePatterns, c(p))
	}
	return Patterns{
		Assistant: append(prosePatterns,
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
		User: []prose.LazyRegexp{
			c(`\blet'?s\s+(?:use|go with|keep|stick with|switch to|not|skip|avoid)\b`),
			c(`\b(?:don'?t|do not|never|please don'?t)\s+(?:delete|remove|use|touch|change|modify|commit|push|add|rename|drop|install|run|rewrite)\b`),
			c(`\buse\s+.+?\s+instead of\b`),
			c(`\binstead of\b`),
			c(`\b(?:always|only|please)\s+use\b`),
			c(`\bi(?:'d| would)?\s+(?:want|prefer)\s+(?:you to\s+)?(?:use|keep|go with|stick with)\b`),
			c(`\bgo with\b`),
		},
		// Moving around the tree is not a decision.
		NotChoice: c(`\bswitch(?:ing|ed)?\s+(?:back\s+)?to\s+(?:the\s+)?(?:\S+\s+)?(?:directory|dir|folder|branch|tab|worktree|terminal|window)\b`),
		ChosenAlt: []prose.LazyRegexp{
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
		Rationale: c(`\b(?:because|since|so that|given that|as (?:it|they|this|that|the|we|there|otherwise))\b\s*(.+)$`),
		Follow:    c(`^(?:this|that|it|because|since|the reason|otherwise|that way|which|so that)\b`),
		Reversal:  c(`\b(?:back|revert(?:ing|ed)?|actually|after all|undo)\b`),

		Workaround: c(`\b(?:workaround|work around|temporar(?:y|ily)|hack|for now)\b`),
		// A skip is work left undone, said of the work itself: "we'll
		// skip the e2e suite", "out of scope", "I won't port X". "Skip"
		// inside a description of how code behaves ("the loop skips to
		// the next day") and "this won't compile" are not.
		Skip: c(`\b(?:(?:we|i|let'?s)(?:'ll| will| can| are| am|'re|'m)?\s+(?:just\s+|also\s+)?(?:skip(?:ping)?|not (?:do|port|implement|add|fix|support)|won'?t|will not|not going to)` +
			`|skipping\b.{0,60}\b(?:for now|this time|entirely|altogether)` +
			`|defer(?:ring)?|postpone|out of scope|leave .+ for later)\b`),
		Layout:       c(`\bmodule layout\b`),
		Library:      c(`\b(?:package|library|libraries|lib|module|dependency|dependencies|import|crate|gem|npm install|go get|pip install|sdk|framework)\b`),
		Architecture: c(`\b(?:architecture|design|structure|refactor(?:ing)?|interface|layer(?:s|ing)?|abstraction|schema)\b`),
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
	Pat  *Patterns
	List []handoff.Decision
	meta []candidate
	// Pending are hedged candidates no later message has confirmed yet;
	// lastUser is the index of the person's latest message before the
	// one being read.
	Pending  []hypothesis
	LastUser int
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

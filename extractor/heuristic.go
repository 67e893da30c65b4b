package extractor

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
)

// Limits on extracted text, in runes.
const (
	descriptionLimit = 300
	rationaleLimit   = 300
	alternativeLimit = 80
	contextLimit     = 200
	// userSentenceLimit skips long user sentences: pasted logs and code,
	// not choices.
	userSentenceLimit = 400
)

// Heuristic is the offline, deterministic Extractor: sentence patterns
// over what the assistant said (and choices the user stated) find
// decisions; the assistant's words just before a failing call give the
// error its context. It needs no network and no key, so the main job
// always runs.
type Heuristic struct {
	logger *slog.Logger
	pat    decisionPatterns
}

// NewHeuristic returns the heuristic extractor. A nil logger discards
// diagnostics.
func NewHeuristic(logger *slog.Logger) *Heuristic {
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Heuristic{logger: logger, pat: compileDecisionPatterns()}
}

// Name implements Extractor.
func (h *Heuristic) Name() string { return "heuristic" }

// Extract implements Extractor. Decisions come only from the assistant's
// visible text and the user's own requests: never from tool results,
// reasoning, or text the harness injected.
func (h *Heuristic) Extract(ctx context.Context, msgs []handoff.Message) (*Result, error) {
	ds := decisionSet{pat: &h.pat}
	reverts := newRevertTracker()
	var currentTask string
	for i, m := range msgs {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("heuristic extract: %w", err)
			}
		}
		if m.Sidechain || m.Meta || m.CompactSummary {
			continue
		}
		reverts.see(&ds, m, currentTask)
		ds.confirm(i, m)
		switch m.Role {
		case handoff.RoleAssistant:
			text, labelled := ds.labelledDecisions(m, withoutThinking(m.Text), currentTask)
			for _, c := range labelled {
				ds.add(c)
			}
			ds.scan(i, m, text, false, currentTask)
			ds.scanWritten(m, currentTask)
		case handoff.RoleUser:
			req := userRequest(m.Text)
			if req != "" {
				ds.scan(i, m, req, true, currentTask)
			}
			if cleanRequest(req) != "" {
				ds.lastUser = i
			}
		}
		for _, c := range m.ToolCalls {
			if tasks, ok := planTasks(c, nil); ok {
				currentTask, _ = currentAndNext(tasks)
			}
		}
	}
	unconfirmed := len(ds.pending)
	ds.addUnconfirmed()
	h.logger.Debug("heuristic extraction", "messages", len(msgs), "decisions", len(ds.list), "unconfirmed", unconfirmed)
	return &Result{
		Decisions: ds.list,
		Usage:     &handoff.ExtractionUsage{Extractor: h.Name()},
	}, nil
}

// errorContext is the last line the assistant said before a failing call.
func errorContext(said string) string {
	said = stripCode(said)
	lines := strings.Split(said, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := cleanLine(lines[i]); l != "" {
			return truncate(l, contextLimit)
		}
	}
	return ""
}

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

func wordSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), notWordRune) {
		set[w] = true
	}
	return set
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

func notWordRune(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' || r > 127)
}

func matchesAny(res []lazyRegexp, s string) bool {
	var lower lowered // one lower-casing of s for every pattern's gate
	for _, re := range res {
		if re.gate().match(s, &lower) {
			return true
		}
	}
	return false
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
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

// stripCode removes fenced code blocks and pasted commands with their
// output ("$ cmd" and the lines under it up to a blank line): code is not
// a statement of intent, and output is not the speaker's words.
func stripCode(text string) string {
	if !strings.Contains(text, "```") && !strings.Contains(text, "$ ") {
		return text
	}
	var b strings.Builder
	inFence, output := false, false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence, output = !inFence, false
			continue
		}
		if inFence {
			continue
		}
		if strings.TrimSpace(line) == "" {
			output = false
		} else if output || groundPromptRe.MatchString(line) {
			output = true
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// cleanLine strips markdown list and emphasis markers from a line.
func cleanLine(l string) string {
	l = strings.TrimSpace(l)
	for _, p := range []string{"- ", "* ", "+ ", "> ", "#### ", "### ", "## ", "# "} {
		l = strings.TrimPrefix(l, p)
	}
	if i := strings.Index(l, ". "); i > 0 && i <= 3 && isDigits(l[:i]) {
		l = l[i+2:]
	}
	return strings.TrimSpace(strings.ReplaceAll(l, "**", ""))
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// splitSentences splits text into sentences: at line breaks, and after
// ".", "!" or "?" followed by a space and a capital letter (so "e.g. the"
// and "main.go" stay whole).
func splitSentences(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		out = appendSentences(out, cleanLine(line), func(r rune) bool { return 'A' <= r && r <= 'Z' })
	}
	return out
}

// appendSentences appends the sentences of one line to out: it breaks
// after ".", "!" or "?" followed by a space and a rune for which
// capital holds.
func appendSentences(out []string, line string, capital func(rune) bool) []string {
	return appendSentencesWhere(out, line, func(line string, start, i int) bool {
		r, _ := utf8.DecodeRuneInString(line[i+2:])
		return capital(r)
	})
}

// appendSentencesWhere appends the sentences of one line to out: it
// breaks after a ".", "!" or "?" at byte i followed by a space where
// breaks(line, start, i) holds, start being where the sentence began.
func appendSentencesWhere(out []string, line string, breaks func(line string, start, i int) bool) []string {
	start := 0
	for i := 0; i+2 < len(line); i++ {
		if c := line[i]; (c != '.' && c != '!' && c != '?') || line[i+1] != ' ' {
			continue
		}
		if !breaks(line, start, i) {
			continue
		}
		if s := strings.TrimSpace(line[start : i+1]); s != "" {
			out = append(out, s)
		}
		start = i + 2
	}
	if s := strings.TrimSpace(line[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

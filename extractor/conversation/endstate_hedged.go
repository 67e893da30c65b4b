package conversation

import (
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// hedgedFixRe is a sentence that expects a fix to work without having
// seen it work: "Push and re-run should work now.", "The build should now
// pass." Said last, it leaves the fix unverified, and a successor that
// reads it as done builds on a guess. "should be fixed" is left out: it
// as often says what still needs fixing.
var hedgedFixRe = prose.LazyRE(rulebook.Pattern("conversation.hedged-fix"))

// HedgedFix returns the last sentence of the session's final assistant
// message that expects a fix to work (hedgedFixRe), when no check passed
// after that message; "" otherwise. A question ("Should it work now?")
// is not a claim.
func HedgedFix(s *handoff.Snapshot) string {
	e := s.EndState
	if e == nil || e.LastAssistant == "" {
		return ""
	}
	for _, c := range s.Checks {
		if c.Status == handoff.TestsPassing && c.Source.Index >= e.LastSource.Index {
			return ""
		}
	}
	if ts := s.TestState; ts != nil && ts.Status == handoff.TestsPassing && ts.Source.Index >= e.LastSource.Index {
		return ""
	}
	sentences := prose.SplitSentences(e.LastAssistant)
	for i := len(sentences) - 1; i >= 0; i-- {
		t := strings.TrimSpace(sentences[i])
		if hedgedFixRe.MatchString(t) && !strings.HasSuffix(t, "?") {
			return t
		}
	}
	return ""
}

package conversation

import (
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// deferredRe opens the part of a request the person put off to the next
// session: "next time: …", "next session, …", "nächstes Mal: …", "la
// prochaine fois : …", "la próxima vez: …".
var deferredRe = prose.LazyRE(rulebook.Pattern("conversation.deferred"))

// DeferredRequest is the work the person's latest request put off to the
// next session, "" when it put off none: what they asked to be done first
// when the work resumes.
func DeferredRequest(s *handoff.Snapshot) string {
	req := s.LatestRequest
	if req == "" {
		req = s.Goal
	}
	loc := deferredRe.FindStringIndex(req)
	if loc == nil {
		return ""
	}
	rest := strings.TrimSpace(req[loc[1]:])
	if prose.WordCount(rest) < 3 {
		return ""
	}
	return rest
}

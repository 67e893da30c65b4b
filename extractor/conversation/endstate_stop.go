package conversation

import (
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

var (
	// APIErrorRe is a harness's report that a model request failed: an
	// HTTP status from the provider's API, or the harness's own words.
	APIErrorRe = prose.LazyRE(rulebook.Pattern("conversation.api-error"))
	// contextFullRe is a context report's figure: "201k/200k tokens (100%)";
	// only a report that counts tokens is one.
	contextFullRe = prose.LazyRE(rulebook.Pattern("conversation.context-full"))
	// resumeCommandRe is a slash command in a code span of the assistant's
	// words whose name says it resumes, recovers or restores a session
	// ("/recover-from-checkpoint", "/resume"): the way back the session
	// itself set up.
	resumeCommandRe = prose.LazyRE(rulebook.Pattern("conversation.resume-command"))
)

// contextFullAt is the share of the context window a report must show for
// a session to count as ended by a full context.
const contextFullAt = 95

// AbruptEnd says how a session stopped outside its own work: a model
// request that failed with an API error, or a context window reported
// full, in the harness commands after the last assistant turn or as the
// last assistant text itself ("API Error: …", "Prompt is too long").
// "" when the session ended on its own terms.
func AbruptEnd(e *handoff.EndState) string {
	if e == nil {
		return ""
	}
	var apiErr, full string
	for _, c := range e.Commands {
		name, answer, _ := strings.Cut(c, " → ")
		if strings.HasPrefix(answer, "error:") && APIErrorRe.MatchString(answer) && apiErr == "" {
			apiErr = "an API error (`" + name + "` → " + facts.QuoteData(harnessAPIError(strings.TrimPrefix(answer, "error:"))) + ")"
		}
		if m := contextFullRe.FindStringSubmatch(answer); m != nil && strings.Contains(strings.ToLower(answer), "token") {
			if pct, _ := strconv.Atoi(m[1]); pct >= contextFullAt {
				full = "its context full (" + contextFigure(answer) + "%)"
			}
		}
	}
	if apiErr == "" && full == "" {
		if last := strings.TrimSpace(e.LastAssistant); last != "" && APIErrorRe.MatchString(prose.FirstLine(last)) && len(last) < 400 {
			apiErr = "an API error (" + facts.QuoteData(harnessAPIError(prose.FirstLine(last))) + ")"
		}
	}
	switch {
	case apiErr != "" && full != "":
		return apiErr + " with " + full
	case apiErr != "":
		return apiErr
	case full != "":
		return full
	}
	return ""
}

// contextFigure is the part of a context report that gives the figure:
// "201k/200k tokens (100%)".
func contextFigure(answer string) string {
	loc := contextFullRe.FindStringIndex(answer)
	start := strings.LastIndex(answer[:loc[0]], "·") + len("·")
	if start < len("·") {
		start = 0
	}
	return strings.TrimSpace(answer[start:loc[0]]) + ", " + contextFullRe.FindStringSubmatch(answer)[1]
}

// apiMessageRe is the message of a provider's JSON error body.
var apiMessageRe = prose.LazyRE(rulebook.Pattern("conversation.api-message"))

// harnessAPIError is an API error said short: its status and the message of
// its JSON body ("Error: 400 … Expected `thinking` …"), not the body.
func harnessAPIError(s string) string {
	s = strings.TrimSpace(s)
	status := statusRe.FindString(s)
	if m := apiMessageRe.FindStringSubmatch(s); m != nil {
		msg := m[1]
		if before, after, ok := strings.Cut(msg, ": "); ok && !strings.Contains(before, " ") {
			msg = after // "messages.75.content.0.type: Expected …": the field path is noise
		}
		return strings.TrimSpace(status + " " + prose.Truncate(msg, 70))
	}
	return prose.Truncate(s, 70)
}

// statusRe is an HTTP error status after "Error".
var statusRe = prose.LazyRE(rulebook.Pattern("conversation.status"))

// resumeCommand is the slash command the assistant's last words name for
// resuming the session, "" when they name none.
func resumeCommand(e *handoff.EndState) string {
	for _, text := range []string{e.LastAssistant, e.Report} {
		if m := resumeCommandRe.FindStringSubmatch(text); m != nil {
			return m[1]
		}
	}
	return ""
}

// AbruptNext is the next step for a session that ended abruptly: it
// cannot be continued where it stopped, so resume in a new session, the
// way the session named when it named one, then pick up what was under
// way (rest, the next step as if the session had ended normally).
func AbruptNext(e *handoff.EndState, how, rest string) string {
	out := "The session ended on " + how + ", not by finishing: resume in a new session"
	if cmd := resumeCommand(e); cmd != "" {
		out += " with `" + cmd + "`, the recovery command the session named"
	}
	if rest == "" {
		return out + "."
	}
	return out + "; then: " + rest
}

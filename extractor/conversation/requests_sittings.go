package conversation

import (
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// A transcript can hold several sittings: runs of the agent that each
// began with an empty context. Aider appends every launch to the same
// chat history file, and a person's /clear (or /reset, /new) empties the
// context inside one run. After such a start the agent remembers nothing,
// so the person states the work afresh, and the work of the last sitting
// is what a successor continues: the session's goal comes from there.
//
// A pause alone is no new sitting: a resumed Claude Code or Codex session
// keeps its context, and a request after a night's gap usually carries on
// the same work ("OK, now we need to plan the work").

var (
	// harnessBannerRe is the version line a harness prints when it starts
	// a fresh chat (Aider: "Aider v0.85.2"), recorded as harness output.
	harnessBannerRe = prose.LazyRE(rulebook.Pattern("conversation.harness-banner"))
	// contextResetRe is a person's command that empties the agent's
	// context: Claude Code's and Aider's /clear, Aider's /reset, Codex's
	// /new, typed bare or recorded as Claude Code's command name.
	contextResetRe = prose.LazyRE(rulebook.Pattern("conversation.context-reset"))
)

// sittingStarts returns the Index of each main-thread message after which
// the agent's context started empty, in order. The transcript's own start
// is not listed.
func sittingStarts(main []handoff.Message) []int {
	var out []int
	seenWork := false // a banner before any exchange opens the first sitting
	for _, m := range main {
		switch {
		case m.Role == handoff.RoleSystem && harnessBannerRe.MatchString(m.Text):
			if seenWork {
				out = append(out, m.Index)
			}
		case m.Role == handoff.RoleUser && contextResetRe.MatchString(m.Text):
			if seenWork {
				out = append(out, m.Index)
			}
		case m.Role == handoff.RoleUser || m.Role == handoff.RoleAssistant:
			seenWork = true
		}
	}
	return out
}

// SittingOf is the sitting a message of the given Index belongs to: 0
// before the first start in starts, 1 after it, and so on.
func SittingOf(starts []int, index int) int {
	n := 0
	for _, s := range starts {
		if index < s {
			break
		}
		n++
	}
	return n
}

// lastSittingGoal is the goal of the last sitting whose person asked for
// work: the first request of that sitting that goalFitness takes as a
// task, and the number of the sitting it comes from; "" and -1 when no request is a task.
// Requests that answer a question, invoke a command or carry no request
// of their own (trivialRequest, isCommandOnly) are passed over, as for the
// goal of a single sitting.
//
// A sitting whose task restates an earlier sitting's (the same opening
// sentence, re-sent because the new context had lost it) continues that
// work: the goal stays the earlier, first statement of it.
func lastSittingGoal(reqs []handoff.Request, starts []int) (string, int) {
	goal, from, at := "", -1, -1
	var tasks []string // the opening sentences of the tasks seen so far
	for _, r := range reqs {
		if r.Command != "" || r.Answers != "" || r.RunsCommand || trivialRequest(r.Text) || IsCommandOnly(r.Text) {
			continue
		}
		n := SittingOf(starts, r.Source.Index)
		if n == at || GoalFitness(r.Text) != GoalTask {
			continue
		}
		open := openingSentence(r.Text)
		if slices.Contains(tasks, open) {
			at = n
			continue
		}
		tasks = append(tasks, open)
		goal, from, at = r.Text, n, n
	}
	return goal, from
}

// openingSentence is a request's first sentence, lower-cased with its
// spacing collapsed, to recognise a request sent again.
func openingSentence(text string) string {
	sents := goalSentences(strings.TrimSpace(text))
	if len(sents) == 0 {
		return ""
	}
	return strings.ToLower(facts.SpaceRun.ReplaceAllString(strings.TrimSpace(sents[0]), " "))
}

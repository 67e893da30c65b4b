package conversation

import (
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// Conversation is what the person asked for and where the session stopped,
// read from the main thread's visible text: the backbone of a resume
// prompt. Tool output never enters it, except that the person's answer to
// a question tool (AskUserQuestion, request_user_input) is the person's
// words.
type Conversation struct {
	// Goal is the overall request; LatestRequest the newest substantive one.
	Goal          string
	LatestRequest string
	Requests      []handoff.Request
	Constraints   []handoff.Constraint
	// Language is the language the person writes in, when not English.
	Language  string
	End       *handoff.EndState
	Recent    []handoff.Turn
	Carried   *handoff.Carried
	FileNotes []handoff.FileNote
}

// Limits on conversation text, in runes unless said otherwise.
const (
	requestLimit       = 700
	ConstraintLimit    = 280
	lastAssistantLimit = 6000
	StatedNextLimit    = 500
	turnTextLimit      = 900
	// thinkingTurnLimit clips a reasoning summary shown as a recent turn.
	thinkingTurnLimit = 300
	toolLineLimit     = 220
	// outcomeLimit bounds the failure headline on a tool call's line.
	outcomeLimit = 140
	// recentBytes bounds the stored recent conversation: comfortably more
	// than the largest budget's share, small next to a transcript.
	recentBytes    = 48 << 10
	maxConstraints = 16
)

// Read reads the person's requests, constraints and the
// session's end state from a transcript. It is deterministic and offline.
func Read(t *handoff.Transcript) Conversation {
	return ReadWith(t, MainThread(t.Messages), nil, rulebook.Switches{})
}

// ReadWith is Read over main, t's main thread, sharing
// heads with the rest of a Build.
func ReadWith(t *handoff.Transcript, main []handoff.Message, heads *facts.Headlines, sw rulebook.Switches) Conversation {
	var c Conversation
	results := ResultsByCall(main)
	rr := requestReader{c: &c, questions: QuestionCalls(main, heads), seen: map[string]bool{}, full: map[int]string{}}
	for _, m := range main {
		rr.message(m)
	}
	c.Requests = withSkillTasks(c.Requests, main)
	markShellLines(c.Requests) // "pwd", "git push origin main": commands run
	c.Goal, c.LatestRequest = goalAndLatest(c.Requests, rr.summaryGoal, main, heads)
	rules := append(forkParentRules(t.Messages), pointedRules(main, c.Requests)...)
	c.Constraints = withoutRestatedRules(withoutRequestEchoes(constraints(append(rules, c.Requests...), rr.full), c.Requests, c.Goal, c.LatestRequest))
	c.Constraints = withoutQuotedEchoes(c.Constraints, c.Goal, c.LatestRequest)
	c.Language = personLanguage(c.Requests)
	c.End = endState(t, main, results, heads, sw)
	if c.Carried != nil {
		c.Carried.AtEnd = !assistantSpokeAfter(main, c.Carried.Source.Index)
		if c.Carried.AtEnd {
			carriedEnd(&c)
		}
	}
	c.Recent = RecentTurns(main, results, heads)
	c.FileNotes = facts.FileNotes(main, t.Session.CWD, heads)
	tidyAssistant(&c, t.Session.CWD)
	return c
}

// requestReader is readConversation's pass over the main thread that
// collects the person's requests.
type requestReader struct {
	c         *Conversation
	questions map[string]string // question tool calls by id (questionCalls)
	seen      map[string]bool   // requests already taken, lower-cased
	// full holds the whole text of a request clipped in Requests, by
	// message index: constraints reads the whole message.
	full              map[int]string
	summaryGoal       string // the latest compaction summary's primary request
	lastAssistantText string
	// invocation is a slash command's record, waiting for the message
	// that expands it.
	invocation string
}

// message reads one message of the main thread.
func (rr *requestReader) message(m handoff.Message) {
	switch m.Role {
	case handoff.RoleAssistant:
		if s := strings.TrimSpace(m.Text); s != "" {
			rr.lastAssistantText = s
		}
	case handoff.RoleUser:
		if !rr.User(m) {
			return
		}
	}
	rr.answers(m)
}

// User reads a message of the person's and reports whether its tool
// results are still to be read: a message taken whole (a command's
// expansion, harness text, a summary, an empty or repeated request) is
// done with.
func (rr *requestReader) User(m handoff.Message) bool {
	if rr.invocation != "" && m.Meta {
		name, cmd := commandRequest(rr.invocation, m.Text)
		rr.invocation = ""
		if cmd != "" && !rr.seen[strings.ToLower(cmd)] {
			rr.seen[strings.ToLower(cmd)] = true
			rr.c.Requests = append(rr.c.Requests, handoff.Request{Text: cmd, Command: name, Source: m.Ref(), Line: m.Line, Timestamp: m.Timestamp})
			return false
		}
	}
	rr.invocation = ""
	if commandNameRe.MatchString(m.Text) {
		rr.invocation = m.Text
	}
	if m.Meta {
		return false
	}
	if m.CompactSummary || isSummaryText(m.Text) {
		if g := facts.PrimaryRequest(m.Text); g != "" {
			rr.summaryGoal = g
		}
		if secs := ReadCarried(m.Text); len(secs) > 0 {
			rr.c.Carried = &handoff.Carried{Source: m.Ref(), Sections: secs}
		}
		return false
	}
	return rr.request(m)
}

// request takes the person's message as a request unless it is empty, a
// confirmation prompt's answer or a repeat; false when it is not one.
func (rr *requestReader) request(m handoff.Message) bool {
	req := CleanRequest(facts.UserRequest(m.Text))
	if req == "" || ConfirmPromptRe.MatchString(req) {
		return false
	}
	key := strings.ToLower(facts.SpaceRun.ReplaceAllString(req, " "))
	if rr.seen[key] {
		return false
	}
	rr.seen[key] = true
	r := handoff.Request{Text: prose.ClipSentences(req, requestLimit), Source: m.Ref(), Line: m.Line, Timestamp: m.Timestamp}
	if r.Text != req {
		rr.full[r.Source.Index] = req // constraints reads the whole message
	}
	if pick := ResolvePick(req, rr.lastAssistantText); pick != "" {
		r.Answers = pick
	}
	r.RunsCommand = IsCommandOnly(req)
	rr.c.Requests = append(rr.c.Requests, r)
	return true
}

// answers takes the person's answers to a question tool: they are their
// words too.
func (rr *requestReader) answers(m handoff.Message) {
	for _, res := range m.ToolResults {
		q, ok := rr.questions[res.CallID]
		if !ok || res.Failed() || strings.TrimSpace(res.Content) == "" {
			continue
		}
		ans := AnswerText(res.Content)
		if ans == "" {
			continue
		}
		rr.c.Requests = append(rr.c.Requests, handoff.Request{
			Text: prose.ClipSentences(ans, requestLimit), Source: m.Ref(), Line: m.Line, Timestamp: m.Timestamp,
			Answers: prose.ClipSentences(q, 300),
		})
	}
}

// goalAndLatest picks the goal and the latest request.
//
// The goal is the first request that asks for work (goalFitness), of
// the last sitting that has one. In a single sitting a compaction
// summary's primary request (the latest summary's) comes before that:
// it is the model's own account of everything asked up to it, where
// the first request may be a greeting or one early errand. Failing
// both, the first request that says anything (three words: ".about",
// a menu code such as "CH" are not one); failing that, the first of
// any kind, as when the person only ran commands.
func goalAndLatest(reqs []handoff.Request, summaryGoal string, main []handoff.Message, heads *facts.Headlines) (goal, latest string) {
	commandGoal, saysGoal := "", ""
	first := handoff.Request{}
	for _, r := range reqs {
		if r.Answers != "" && strings.HasPrefix(r.Text, "{") {
			continue
		}
		if trivialRequest(r.Text) || IsCommandOnly(r.Text) || r.RunsCommand {
			continue
		}
		if r.Command == "" && r.Answers == "" {
			if goal == "" && GoalFitness(r.Text) == GoalTask {
				goal = r.Text
			}
			if saysGoal == "" && prose.WordCount(r.Text) >= 3 {
				saysGoal = r.Text
			}
		}
		if commandGoal == "" {
			commandGoal, first = r.Text, r
		}
		latest = r.Text
	}
	// A session that opens with a command or skill the agent then works
	// on is about that command (requests_skills.go).
	if g := commandGoalOf(first, main, heads); g != "" {
		goal = g
	}
	// A transcript of several sittings (requests_sittings.go): the work
	// of the last one that asked for some is the goal.
	later := false
	if g, n := lastSittingGoal(reqs, sittingStarts(main)); n > 0 {
		goal, later = g, true
	}
	if summaryGoal != "" && !later {
		goal = prose.ClipSentences(summaryGoal, requestLimit)
	}
	for _, g := range []string{saysGoal, commandGoal} {
		if goal == "" {
			goal = g
		}
	}
	if latest == goal {
		latest = "" // one request: it is the goal
	}
	return goal, latest
}

// markdownLinkRe is a markdown link: [text](target).
var markdownLinkRe = prose.LazyRE(rulebook.Pattern("conversation.markdown-link"))

// tidyText makes the assistant's text cheaper to quote without losing
// anything: a markdown link to a file becomes the file's path, and paths
// inside the session's working directory become relative to it, as a
// person would name them.
func tidyText(s, cwd string) string {
	s = markdownLinkRe.ReplaceAllStringFunc(s, func(link string) string {
		m := markdownLinkRe.FindStringSubmatch(link)
		text, target := m[1], m[2]
		if strings.HasSuffix(target, text) || strings.HasSuffix(strings.Split(target, "#")[0], text) {
			return target
		}
		return link
	})
	if cwd = strings.TrimSuffix(cwd, "/"); len(cwd) > 1 {
		s = strings.ReplaceAll(s, cwd+"/", "")
	}
	return s
}

// tidyAssistant applies tidyText to the assistant's words the prompt
// quotes, and takes the courtesies off the start of its messages
// (withoutCourtesy); the person's words are kept as typed.
func tidyAssistant(c *Conversation, cwd string) {
	if e := c.End; e != nil {
		e.LastAssistant = withoutCourtesy(tidyText(e.LastAssistant, cwd))
		e.StatedNext = tidyText(e.StatedNext, cwd)
		e.Question = tidyText(e.Question, cwd)
		e.Report = withoutCourtesy(tidyText(e.Report, cwd))
	}
	for i := range c.Recent {
		switch t := &c.Recent[i]; {
		case t.Role == handoff.RoleAssistant && !t.Thinking:
			t.Text = withoutCourtesy(tidyText(t.Text, cwd))
		case t.Role != handoff.RoleUser:
			t.Text = tidyText(t.Text, cwd)
		}
	}
}

// assistantSpokeAfter reports whether the assistant said anything after
// the message with index idx.
func assistantSpokeAfter(main []handoff.Message, idx int) bool {
	for _, m := range main {
		if m.Index > idx && m.Role == handoff.RoleAssistant && strings.TrimSpace(m.Text) != "" {
			return true
		}
	}
	return false
}

// carriedEnd takes where the session stands from a compaction summary
// that ends the transcript: its next step is the assistant's stated next
// step, unless the assistant said one after its last message anyway.
func carriedEnd(c *Conversation) {
	for _, sec := range c.Carried.Sections {
		if sec.Kind != CarriedNextStep {
			continue
		}
		if c.End == nil {
			c.End = &handoff.EndState{}
		}
		if c.End.StatedNext == "" {
			c.End.StatedNext = prose.ClipSentences(facts.SpaceRun.ReplaceAllString(sec.Text, " "), StatedNextLimit)
		}
	}
}

// ResultsByCall maps call ids to their results.
func ResultsByCall(msgs []handoff.Message) map[string]handoff.ToolResult {
	out := map[string]handoff.ToolResult{}
	for _, m := range msgs {
		for _, r := range m.ToolResults {
			if r.CallID != "" {
				out[r.CallID] = r
			}
		}
	}
	return out
}

// MainThread returns the messages that are not subagent traffic: msgs
// itself when none is (most transcripts; a copy of a long session's
// messages is megabytes the snapshot never keeps), else a copy without
// them. Callers only read it.
func MainThread(msgs []handoff.Message) []handoff.Message {
	side := 0
	for _, m := range msgs {
		if m.Sidechain {
			side++
		}
	}
	if side == 0 {
		return msgs
	}
	out := make([]handoff.Message, 0, len(msgs)-side) // exact: it stays live through the Build
	for _, m := range msgs {
		if !m.Sidechain {
			out = append(out, m)
		}
	}
	return out
}

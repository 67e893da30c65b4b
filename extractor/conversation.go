package extractor

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
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
	constraintLimit    = 280
	lastAssistantLimit = 6000
	statedNextLimit    = 500
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

// ReadConversation reads the person's requests, constraints and the
// session's end state from a transcript. It is deterministic and offline.
func ReadConversation(t *handoff.Transcript) Conversation {
	return readConversation(t, mainThread(t.Messages), nil, rulebook.Switches{})
}

// readConversation is ReadConversation over main, t's main thread, sharing
// heads with the rest of a Build.
func readConversation(t *handoff.Transcript, main []handoff.Message, heads *headlines, sw rulebook.Switches) Conversation {
	var c Conversation
	results := resultsByCall(main)
	questions := questionCalls(main, heads)

	seen := map[string]bool{}
	var summaryGoal string
	var lastAssistantText string
	// invocation is a slash command's record, waiting for the message
	// that expands it.
	invocation := ""
	full := map[int]string{}
	for _, m := range main {
		switch m.Role {
		case handoff.RoleAssistant:
			if s := strings.TrimSpace(m.Text); s != "" {
				lastAssistantText = s
			}
		case handoff.RoleUser:
			if invocation != "" && m.Meta {
				name, cmd := commandRequest(invocation, m.Text)
				invocation = ""
				if cmd != "" && !seen[strings.ToLower(cmd)] {
					seen[strings.ToLower(cmd)] = true
					c.Requests = append(c.Requests, handoff.Request{Text: cmd, Command: name, Source: m.Ref(), Line: m.Line, Timestamp: m.Timestamp})
					continue
				}
			}
			invocation = ""
			if commandNameRe.MatchString(m.Text) {
				invocation = m.Text
			}
			if m.Meta {
				continue
			}
			if m.CompactSummary || isSummaryText(m.Text) {
				if g := primaryRequest(m.Text); g != "" {
					summaryGoal = g
				}
				if secs := readCarried(m.Text); len(secs) > 0 {
					c.Carried = &handoff.Carried{Source: m.Ref(), Sections: secs}
				}
				continue
			}
			req := cleanRequest(userRequest(m.Text))
			if req == "" || confirmPromptRe.MatchString(req) {
				continue
			}
			key := strings.ToLower(spaceRun.ReplaceAllString(req, " "))
			if seen[key] {
				continue
			}
			seen[key] = true
			r := handoff.Request{Text: clipSentences(req, requestLimit), Source: m.Ref(), Line: m.Line, Timestamp: m.Timestamp}
			if r.Text != req {
				full[r.Source.Index] = req // constraints reads the whole message
			}
			if pick := resolvePick(req, lastAssistantText); pick != "" {
				r.Answers = pick
			}
			r.RunsCommand = isCommandOnly(req)
			c.Requests = append(c.Requests, r)
		}
		// The person's answers to a question tool are their words too.
		for _, res := range m.ToolResults {
			q, ok := questions[res.CallID]
			if !ok || res.Failed() || strings.TrimSpace(res.Content) == "" {
				continue
			}
			ans := answerText(res.Content)
			if ans == "" {
				continue
			}
			c.Requests = append(c.Requests, handoff.Request{
				Text: clipSentences(ans, requestLimit), Source: m.Ref(), Line: m.Line, Timestamp: m.Timestamp,
				Answers: clipSentences(q, 300),
			})
		}
	}

	// The goal is the first request that asks for work (goalFitness), of
	// the last sitting that has one. In a single sitting a compaction
	// summary's primary request (the latest summary's) comes before that:
	// it is the model's own account of everything asked up to it, where
	// the first request may be a greeting or one early errand. Failing
	// both, the first request that says anything (three words: ".about",
	// a menu code such as "CH" are not one); failing that, the first of
	// any kind, as when the person only ran commands.
	c.Requests = withSkillTasks(c.Requests, main)
	markShellLines(c.Requests) // "pwd", "git push origin main": commands run
	commandGoal, saysGoal := "", ""
	first := handoff.Request{}
	for _, r := range c.Requests {
		if r.Answers != "" && strings.HasPrefix(r.Text, "{") {
			continue
		}
		if trivialRequest(r.Text) || isCommandOnly(r.Text) || r.RunsCommand {
			continue
		}
		if r.Command == "" && r.Answers == "" {
			if c.Goal == "" && goalFitness(r.Text) == goalTask {
				c.Goal = r.Text
			}
			if saysGoal == "" && wordCount(r.Text) >= 3 {
				saysGoal = r.Text
			}
		}
		if commandGoal == "" {
			commandGoal, first = r.Text, r
		}
		c.LatestRequest = r.Text
	}
	// A session that opens with a command or skill the agent then works
	// on is about that command (requests_skills.go).
	if g := commandGoalOf(first, main, heads); g != "" {
		c.Goal = g
	}
	// A transcript of several sittings (requests_sittings.go): the work
	// of the last one that asked for some is the goal.
	later := false
	if g, n := lastSittingGoal(c.Requests, sittingStarts(main)); n > 0 {
		c.Goal, later = g, true
	}
	if summaryGoal != "" && !later {
		c.Goal = clipSentences(summaryGoal, requestLimit)
	}
	for _, g := range []string{saysGoal, commandGoal} {
		if c.Goal == "" {
			c.Goal = g
		}
	}
	if c.LatestRequest == c.Goal {
		c.LatestRequest = "" // one request: it is the goal
	}
	rules := append(forkParentRules(t.Messages), pointedRules(main, c.Requests)...)
	c.Constraints = withoutRestatedRules(withoutRequestEchoes(constraints(append(rules, c.Requests...), full), c.Requests, c.Goal, c.LatestRequest))
	c.Constraints = withoutQuotedEchoes(c.Constraints, c.Goal, c.LatestRequest)
	c.Language = personLanguage(c.Requests)
	c.End = endState(t, main, results, heads)
	if c.Carried != nil {
		c.Carried.AtEnd = !assistantSpokeAfter(main, c.Carried.Source.Index)
		if c.Carried.AtEnd {
			carriedEnd(&c)
		}
	}
	c.Recent = recentTurns(main, results, heads)
	c.FileNotes = fileNotes(main, t.Session.CWD, heads)
	tidyAssistant(&c, t.Session.CWD)
	return c
}

// markdownLinkRe is a markdown link: [text](target).
var markdownLinkRe = lazyRE(`\[([^\]\n]{1,200})\]\(([^)\s]{1,400})\)`)

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
			c.End.StatedNext = clipSentences(spaceRun.ReplaceAllString(sec.Text, " "), statedNextLimit)
		}
	}
}

// resultsByCall maps call ids to their results.
func resultsByCall(msgs []handoff.Message) map[string]handoff.ToolResult {
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

// questionCalls finds calls that put questions to the person, by shape: an
// input holding a "questions" list (AskUserQuestion, request_user_input)
// or a single "question". It returns each call's question text by id.
func questionCalls(msgs []handoff.Message, heads *headlines) map[string]string {
	out := map[string]string{}
	for _, m := range msgs {
		if m.Role != handoff.RoleAssistant {
			continue
		}
		for _, c := range m.ToolCalls {
			if c.ID == "" {
				continue
			}
			if q := questionText(c, heads); q != "" {
				out[c.ID] = q
			}
		}
	}
	return out
}

// questionText returns the questions of a question-asking call, with their
// options, or "" when the call is not one.
func questionText(c handoff.ToolCall, heads *headlines) string {
	in := heads.object(c.Input)
	var parts []string
	if qs, ok := in["questions"].([]any); ok {
		for _, q := range qs {
			obj, _ := q.(map[string]any)
			if obj == nil {
				continue
			}
			text := str(obj, "question")
			if text == "" {
				text = str(obj, "header")
			}
			var opts []string
			if os, ok := obj["options"].([]any); ok {
				for _, o := range os {
					if oo, ok := o.(map[string]any); ok {
						if l := str(oo, "label"); l != "" {
							opts = append(opts, l)
						}
					} else if s, ok := o.(string); ok {
						opts = append(opts, s)
					}
				}
			}
			if len(opts) > 0 {
				text += " (options: " + strings.Join(opts, " / ") + ")"
			}
			if text != "" {
				parts = append(parts, text)
			}
		}
	} else if q := str(in, "question"); q != "" {
		parts = append(parts, q)
	}
	return strings.Join(parts, "; ")
}

// answerText reads the person's answer from a question tool's result: the
// Codex JSON {"answers": {id: {"answers": [...]}}} or Claude Code's
// `User has answered your questions: "Q"="A"` text.
func answerText(content string) string {
	s := strings.TrimSpace(content)
	if strings.HasPrefix(s, "{") {
		var v struct {
			Answers map[string]struct {
				Answers []string `json:"answers"`
			} `json:"answers"`
		}
		if json.Unmarshal([]byte(s), &v) == nil && len(v.Answers) > 0 {
			var out []string
			for _, a := range v.Answers {
				out = append(out, a.Answers...)
			}
			return strings.Join(out, "; ")
		}
	}
	if i := strings.Index(s, "You can now continue"); i > 0 {
		s = s[:i]
	}
	// Claude Code: `User has answered your questions: "Q"="A", "Q2"="A2".`
	if pairs := answerPairRe.FindAllStringSubmatch(s, -1); len(pairs) > 0 {
		var out []string
		for _, p := range pairs {
			out = append(out, p[2])
		}
		return strings.Join(out, "; ")
	}
	return strings.TrimSpace(s)
}

// answerPairRe is one "question"="answer" pair of a Claude Code answer.
var answerPairRe = lazyRE(`"((?:[^"\\]|\\.)*)"="((?:[^"\\]|\\.)*)"`)

var (
	// slashCommandRe is a message that is only a harness command
	// ("/exit", "/clear", "/add file.go"), not a request. The commands
	// whose argument is a request (/ask, /code, /architect) keep it.
	slashCommandRe = lazyRE(`^/[a-z][\w:-]*\b`)
	requestCommand = lazyRE(`^/(?:ask|code|architect|plan|agent)\s+`)
	trivialWords   = map[string]bool{
		"hi": true, "hello": true, "hey": true, "thanks": true, "thank": true, "you": true, "ok": true, "okay": true,
		"yes": true, "yep": true, "yeah": true, "no": true, "nope": true, "sure": true, "continue": true, "go": true,
		"ahead": true, "proceed": true, "y": true, "n": true, "lgtm": true, "do": true, "it": true, "please": true,
		"great": true, "good": true, "cool": true, "nice": true, "k": true, "fine": true, "done": true, "perfect": true,
		"awesome": true, "next": true, "right": true, "correct": true, "exactly": true, "agreed": true, "sounds": true,
		"ty": true, "thx": true, "go-ahead": true, "on": true, "carry": true, "keep": true, "going": true,
	}
)

// cleanRequest strips harness syntax from a request: an Aider-style
// request command's name; a pure command is kept as typed (it may be an
// end signal) and filtered out of goals by isCommandOnly.
func cleanRequest(s string) string {
	s = issueOnly(stripEnvelopes(strings.TrimSpace(s)))
	if loc := requestCommand.FindStringIndex(s); loc != nil {
		s = strings.TrimSpace(s[loc[1]:])
	}
	if placeholderOnly(s) {
		return ""
	}
	return s
}

// sweIssueRe is SWE-agent's task template: a preamble, the issue after
// "ISSUE:", and the harness's standing instructions to the model after
// "INSTRUCTIONS:" ("YOU CAN ONLY ENTER ONE COMMAND AT A TIME …").
var sweIssueRe = lazyRE(`(?s)^[^\n]*\bissue\b[^\n]*:\s*\nISSUE:\s*\n(.+?)\n\s*INSTRUCTIONS:\s*\n`)

// issueOnly is a task template's issue: the person's (the issue
// author's) words, without the harness's preamble and instructions,
// which read as orders to a successor. Other text comes back unchanged.
func issueOnly(s string) string {
	if m := sweIssueRe.FindStringSubmatch(s); m != nil && strings.TrimSpace(m[1]) != "" {
		return strings.TrimSpace(m[1])
	}
	return s
}

// isCommandOnly reports a message that is a harness command, not a
// request: /compact with the summariser's instructions, or a slash
// command whose arguments (if any) are fewer than three words. "/orchestrator create a TODO app with Next.js" carries its task
// in its arguments; "/add main.go" and "/clear" do not.
func isCommandOnly(s string) bool {
	if rulebook.Regexp("conversation.compact-instructions").MatchString(s) {
		return true
	}
	loc := slashCommandRe.FindStringIndex(s)
	if loc == nil || requestCommand.MatchString(s) {
		return invokesCommand(s)
	}
	return wordCount(s[loc[1]:]) < 3
}

// commandNameRe finds the slash command a harness records a person
// running (Claude Code: <command-name>/create-checkpoint</command-name>,
// with <command-args>).
var (
	commandNameRe = lazyRE(`<command-name>\s*(/[^<\s]+)\s*</command-name>`)
	commandArgsRe = lazyRE(`(?s)<command-args>(.*?)</command-args>`)
)

// commandRequest is the request a custom slash command makes: its name and
// arguments, then the start of the prompt the harness expanded it to (the
// person's own command file, sent as the next message). Built-in commands
// (/clear, /context) expand to nothing and make none.
func commandRequest(invocation, expansion string) (name, text string) {
	m := commandNameRe.FindStringSubmatch(invocation)
	body := strings.TrimSpace(expansion)
	if m == nil || body == "" || commandNameRe.MatchString(body) || strings.HasPrefix(body, "<local-command") {
		return "", ""
	}
	cmd := m[1]
	if a := commandArgsRe.FindStringSubmatch(invocation); a != nil && strings.TrimSpace(a[1]) != "" {
		cmd += " " + strings.TrimSpace(a[1])
	}
	return m[1], cmd + " — the command's prompt: " + clipSentences(spaceRun.ReplaceAllString(plainLines(body), " "), commandPromptLimit)
}

// plainLines is text with each line's heading, list and bold markup
// removed (cleanLine) and a full stop closing a line that has none: a
// command's prompt read as sentences of prose.
func plainLines(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = cleanLine(l); l == "" {
			continue
		}
		if !strings.ContainsAny(l[len(l)-1:], ".:;!?") {
			l += "." // a title or an item ends where its line does
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// commandPromptLimit bounds how much of a command's expanded prompt a
// request keeps: its title and first sentence say what was asked; the
// steps after them are the command's, re-run by invoking it.
const commandPromptLimit = 240

// trivialRequest reports a message that carries no request of its own:
// a greeting, an acknowledgement, "continue".
func trivialRequest(s string) bool {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-'
	})
	if len(words) == 0 {
		return true
	}
	if len(words) > 5 {
		return false
	}
	for _, w := range words {
		if !trivialWords[w] {
			return false
		}
	}
	return true
}

var (
	pickRe       = lazyRE(`(?i)^\s*(?:(?:it'?s|it is|(?:i'?d|i would|i'?ll|i will|let'?s|we'?ll)?\s*(?:go\s+(?:with|for)|do|pick|choose|prefer|take|use)|option|answer:?|definitely|probably)\s+)?(?:options?\s+)?\(?([a-h1-9])\)?(?:\s*(?:,|&|and|\+|plus)\s*\(?([a-h1-9])\)?)?(?:\s*(?:,|&|and|\+|plus)\s*\(?([a-h1-9])\)?)?\s*[.!]?\s*(?:please)?[.!]?\s*$`)
	optionLineRe = lazyRE(`(?im)^\s*(?:[-*]\s*)?(?:\*\*)?(?:option\s+)?\(?([a-h1-9])[).:]\)?(?:\*\*)?\s+(.+)$`)
)

// resolvePick resolves an option pick ("(a) and (c)", "option 2", "b",
// "It's b", "I'd go with 2")
// against the option list of the assistant text it answers, returning the
// picked options' text, or "".
func resolvePick(req, asked string) string {
	m := pickRe.FindStringSubmatch(req)
	if m == nil || asked == "" {
		return ""
	}
	opts := map[string]string{}
	for _, om := range optionLineRe.FindAllStringSubmatch(asked, -1) {
		k := strings.ToLower(om[1])
		if _, dup := opts[k]; !dup {
			opts[k] = strings.TrimSpace(om[2])
		}
	}
	var picked []string
	for _, k := range m[1:] {
		if k == "" {
			continue
		}
		if o, ok := opts[strings.ToLower(k)]; ok {
			picked = append(picked, "("+strings.ToLower(k)+") "+truncate(strings.ReplaceAll(o, "**", ""), 200))
		}
	}
	return strings.Join(picked, "; ")
}

// confirmPromptRe is a harness's yes/no prompt echoed with the key the
// person pressed (Aider's "Add file to the chat? (Y)es/(N)o/… [Yes]: a"):
// a click, not a request in the person's words.
var confirmPromptRe = lazyRE(`(?i)\?\s*\(Y\)es/\(N\)o\b.*\[\w+\]:\s*\S*\s*$`)

// constraintRe finds a person's standing instruction or preference.
var constraintRe = lazyRE(`(?i)\b(?:don'?t|do not|never|always|must(?:n'?t| not)?|make sure|ensure|keep|avoid|without|only use|use only|instead of|rather than|not \w+ but|prefer|(?:use|using|go with)\b[^.;]{1,60}\b(?:not|instead of|over)\b|ask (?:me )?before|let me know before|check with me|no need to|(?:^|please |, )stop|let(?:'?s| us) (?:not|never|always)|shouldn'?t|should not|not allowed|forbid|mustn't|important(?:ly)?|remember|mandatory|non-negotiable|off[- ]limits)\b`)

var (
	// notRuleRe are the phrases that carry a constraint word without
	// setting a rule: the person saying what they (or the agent) do not
	// know or have ("I don't understand", "you simply don't have"), and a
	// guess ("Must be a bug", "it must have been"). A sentence whose only
	// constraint words sit in these is no constraint.
	notRuleRe = lazyRE(`(?i)\b(?:i|we|they|he|she|it|you)\s+(?:\w+\s+)?(?:don'?t|do not|didn'?t|did not|never)\s+(?:know|understand|think|see|have|get|remember|care|feel|like|mind|want to know)\b|^\s*must (?:be|have)\b|\b(?:it|that|this|there|which) must (?:be|have)\b|\bi feel\b`)
	// ruleTagRe is a rule of the person's instructions file named by its
	// tag ("a <tdd_discipline> violation", "adhere to <code_style/>"):
	// people who write CLAUDE.md/AGENTS.md in tagged sections point back
	// at them this way. A tag name with '_' or '-' is not HTML.
	ruleTagRe = lazyRE(`<[a-z][a-z0-9]*[_-][a-z0-9_-]*\s*/?>`)
)

// isConstraint reports whether a sentence of the person's states a rule or
// preference.
func isConstraint(sent string) bool {
	if codeLine(sent) {
		return false
	}
	if ruleTagRe.MatchString(sent) {
		return true
	}
	if askRe.MatchString(sent) && !standingRuleRe.MatchString(sent) || asksForTask(sent) {
		// A request ("Can you run X and make sure it uses Y", "Please move
		// X … but don't bother with Y"), listed with the requests.
		return false
	}
	return constraintRe.MatchString(ruleWords(sent))
}

// backRefRe opens a sentence with a pronoun standing for something said
// before it.
var backRefRe = lazyRE(`(?i)^\s*(?:that|this|it|those|these|they|das|dies|es|ça|cela|это|то)\b`)

// pointsBack reports whether sent is a short sentence whose subject is a
// pronoun for something said before it: out of context it names nothing.
func pointsBack(sent string) bool {
	return backRefRe.MatchString(sent) && len(strings.Fields(sent)) < 9
}

var (
	// askRe opens a request put as a question without its question mark.
	askRe = lazyRE(`(?i)^\s*(?:can|could|would|will) you\b`)
	// standingRuleRe is a rule that stands beyond the request it is in.
	standingRuleRe = lazyRE(`(?i)\b(?:don'?t|do not|never|always|from now on|in future)\b`)
)

// constraints returns the person's constraints, standing rules first and
// newest first within rules and preferences (rulesFirst): sentences of
// their requests (code and quoted logs removed) that state a rule or
// preference.
//
// full holds the whole text of the requests whose Text was clipped, by
// source index: a task prompt's rules often come after its first 700
// runes. Items under a rule heading ("Constraints:") are constraints
// whatever their wording, and a line that introduces an output format is
// one with the format it introduces.
func constraints(reqs []handoff.Request, full map[int]string) []handoff.Constraint {
	var out []handoff.Constraint
	seen := map[string]bool{}
	listed := map[string]bool{}
	for i := len(reqs) - 1; i >= 0; i-- {
		r := reqs[i]
		if r.Answers != "" {
			continue
		}
		text := stripCode(r.Text)
		whole := text
		if f, ok := full[r.Source.Index]; ok {
			whole = stripCode(f)
		}
		for _, item := range listedConstraints(whole) {
			if key := strings.ToLower(item); item != "" && !codeLine(item) && !seen[key] && utf8.RuneCountInString(item) <= constraintLimit {
				seen[key], listed[item] = true, true
				out = append(out, handoff.Constraint{Text: item, Source: r.Source})
			}
		}
		// Past the clip only the structured rules are read (rule lists,
		// output formats): a long prompt's tail of tips is a harness's
		// boilerplate more often than the person's rules.
		sents := personSentences(whole)
		inClip := len(personSentences(text))
		if inClip < len(sents) {
			if p := pastedProhibitions(sents[inClip:]); p != "" && !seen[strings.ToLower(p)] {
				seen[strings.ToLower(p)], listed[p] = true, true
				out = append(out, handoff.Constraint{Text: p, Source: r.Source})
			}
		}
		skip := -1
		for j, sent := range sents {
			sent = strings.TrimSpace(sent)
			if j == skip {
				continue
			}
			if f, ok := withFormat(sents, j); ok && utf8.RuneCountInString(f) <= constraintLimit {
				sent, skip = f, j+1
				listed[f] = true
			} else if j >= inClip || sent == "" || strings.HasSuffix(sent, "?") || utf8.RuneCountInString(sent) > constraintLimit || !isConstraint(sent) {
				// A question asks; it does not set a rule.
				continue
			}
			if pointsBack(sent) {
				// "That will never be in cloud." says nothing without the
				// sentence it points back to.
				prev := ""
				if j > 0 {
					prev = strings.TrimSpace(sents[j-1])
				}
				if prev == "" || strings.HasSuffix(prev, "?") || utf8.RuneCountInString(prev+" "+sent) > constraintLimit {
					continue
				}
				sent = prev + " " + sent
				if n := len(out); n > 0 && out[n-1].Text == prev && out[n-1].Source == r.Source {
					out = out[:n-1] // the rule and its follow-up, once
				}
			}
			key := strings.ToLower(sent)
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, handoff.Constraint{Text: sent, Source: r.Source})
		}
	}
	return rulesFirst(out, listed)
}

// The stated-next patterns' shared alternatives.
const (
	// readyToRe is the assistant saying it is ready for the next piece of
	// work, said of itself ("Ready to start building Chunk 1 whenever you
	// want", "I'm ready to implement it once you confirm"): what comes
	// next, on the person's word. "The PR is ready to merge" is a state.
	readyToRe = `(?:^|[.!]\s+|\b(?:I'?m|I am|we'?re|we are)\s+(?:now\s+|all\s+)?)ready to (?:start|begin|proceed|move on|continue|tackle|implement|build|work on|pick up|dig into)\b`
	// offerPhrases are the stated next steps that offer the step rather
	// than announce it: they wait on the person's word (offeredNext).
	offerPhrases = `\bwould you like\b|\bdo you want\b|\bwant me to\b|` + readyToRe
)

var (
	statedNextRe = lazyRE(`(?i)(?:^(?:#+\s*|\*\*)?(?:recommended |suggested |immediate |possible )?next steps?\b|\bnext steps?\s*:|\bthe next (?:step|thing) (?:is|would be|will be)\b|\bnext,? I(?:'ll| will)\b|\bI(?:'ll| will) (?:now|then|next)\b|\bthen I(?:'ll| will)\b|^(?:#+\s*|\*\*)?remaining(?: work| tasks| items| issues)?\b.*:|\bstill (?:need|needs) to\b|\bleft to do\b|\bto do next\b|\bshould I\b|\bshall I\b|` + offerPhrases + `|\b(?:in the )?next (?:session|time)\s*[:—–,]|\bfor the next session\b)`)
	offeredNext  = lazyRE(`(?i)` + offerPhrases)
	questionEnd  = lazyRE(`\?\s*(?:\*\*)?\s*$`)
)

// endState reads where the session stopped.
func endState(t *handoff.Transcript, main []handoff.Message, results map[string]handoff.ToolResult, heads *headlines) *handoff.EndState {
	e := &handoff.EndState{Signal: t.Session.EndSignal}
	lastText := -1
	for i, m := range main {
		if m.Role != handoff.RoleAssistant {
			continue
		}
		if strings.TrimSpace(m.Text) != "" {
			lastText = i
		}
	}
	if lastText >= 0 {
		m := main[lastText]
		e.LastAssistant = clipSentences(withoutThinking(m.Text), lastAssistantLimit)
		e.LastSource = m.Ref()
	}
	// The person's words after the last assistant text.
	// The person's messages after the assistant's last text were answered
	// (questions) or taken up; the assistant acting after one (a tool
	// call) is working on it, so only messages after its last action of
	// any kind are unanswered.
	lastAct := -1
	for i, m := range main {
		if m.Role == handoff.RoleAssistant {
			lastAct = i
		}
	}
	var answeredQuestion bool
	for i, m := range main[lastText+1:] {
		if m.Role != handoff.RoleUser || m.Meta || m.CompactSummary {
			continue
		}
		req := cleanRequest(userRequest(m.Text))
		if req == "" {
			continue
		}
		answeredQuestion = true
		if isCommandOnly(req) {
			if e.Signal == "" && (strings.HasPrefix(req, "/exit") || strings.HasPrefix(req, "/quit")) {
				e.Signal = "user exited"
			}
			continue
		}
		if lastText+1+i > lastAct {
			e.Unanswered = append(e.Unanswered, clipSentences(req, requestLimit))
		}
	}
	if e.Signal == "" {
		for i := len(main) - 1; i >= 0; i-- {
			m := main[i]
			if m.Interrupt {
				e.Signal = "interrupted by the user"
			}
			if m.Role == handoff.RoleAssistant || (m.Role == handoff.RoleUser && !m.Meta && userRequest(m.Text) != "") {
				break
			}
		}
	}
	// Calls left without a result: only those after the assistant's last
	// words (it spoke after the others, so they had come back), only in
	// formats that pair results with calls by id, and not when the format
	// says the run finished.
	if pairsByID(main) && e.Signal != "finished" && e.Signal != "submitted" {
		start := max(lastText, 0)
		for _, m := range main[start:] {
			for _, c := range m.ToolCalls {
				if c.ID == "" {
					continue
				}
				if _, ok := results[c.ID]; ok {
					continue
				}
				if q := questionText(c, heads); q != "" {
					e.Question = clipSentences(q, statedNextLimit)
					continue
				}
				e.InFlight = append(e.InFlight, truncate(firstLine(describeCall(c)), toolLineLimit))
			}
		}
	}
	// A question put to the person in the last text, still unanswered.
	if lastText >= 0 && !answeredQuestion && e.Question == "" {
		e.Question = lastQuestion(main[lastText].Text)
	}
	// The assistant's own stated next step, from its last few turns.
	// A statement before the last words that the agent went on to act on
	// (tool calls after it, before its last words) is done or under way,
	// not the next step: the search stops at the first such call.
	seenTexts := 0
	for i := len(main) - 1; i >= 0 && seenTexts < 3; i-- {
		m := main[i]
		if m.Role == handoff.RoleUser && !m.Meta && userRequest(m.Text) != "" && i < lastText {
			break
		}
		if m.Role != handoff.RoleAssistant {
			continue
		}
		if i < lastText && len(m.ToolCalls) > 0 {
			break
		}
		if strings.TrimSpace(m.Text) == "" {
			continue
		}
		seenTexts++
		if s := statedNext(m.Text); s != "" {
			e.StatedNext = s
			break
		}
	}
	if e.Signal == "submitted" {
		e.Patch = submittedPatch(main)
	}
	if text, src, ok := lateReport(main); ok {
		e.Report, e.ReportSource = text, src
	}
	last := lastText
	if last < 0 {
		last = len(main) // nothing said: every report is before the end
	}
	e.KeyLines, e.Findings = keyLines(main, last, e.ReportSource)
	if text, src, ok := reasoningWork(main); ok {
		e.Reasoning, e.ReasoningSource = text, src
	}
	e.Commands = commandsAfter(main, lastText)
	if e.LastAssistant == "" && e.Signal == "" && len(e.Unanswered) == 0 && len(e.InFlight) == 0 && e.Question == "" &&
		e.Reasoning == "" && len(e.Commands) == 0 && len(e.KeyLines) == 0 && len(e.Findings) == 0 {
		return nil
	}
	return e
}

// interruptNote is the harness's record of an interruption, short: its
// first line, or "turn aborted" for Codex's <turn_aborted> envelope,
// whose first line is only the tag.
func interruptNote(text string) string {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "<turn_aborted>") {
		return "turn aborted"
	}
	return truncate(firstLine(t), 80)
}

// pairsByID reports whether the transcript pairs tool results with their
// calls by id: without that, a call cannot be known to lack a result.
func pairsByID(main []handoff.Message) bool {
	for _, m := range main {
		for _, r := range m.ToolResults {
			if r.CallID != "" {
				return true
			}
		}
	}
	return false
}

// lastQuestion returns the question the text ends on: the question
// sentences of its last two paragraphs (a question is often followed by a
// sentence of context, "A new option would be additive, but …").
func lastQuestion(text string) string {
	paras := strings.Split(strings.TrimSpace(stripCode(text)), "\n")
	seen := 0
	for i := len(paras) - 1; i >= 0 && seen < 2; i-- {
		p := strings.TrimSpace(paras[i])
		if p == "" {
			continue
		}
		seen++
		var qs []string
		for _, s := range splitSentences(p) {
			if questionEnd.MatchString(strings.TrimSpace(s)) {
				qs = append(qs, strings.TrimSpace(s))
			}
		}
		if len(qs) > 0 {
			return truncate(strings.Join(qs, " "), statedNextLimit)
		}
	}
	return ""
}

// statedNext returns the sentence (and the list that follows it) in which
// the assistant said what comes next, or "".
func statedNext(text string) string {
	lines := strings.Split(stripCode(text), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		loc := statedNextRe.FindStringIndex(l)
		if l == "" || loc == nil {
			continue
		}
		// From the sentence that says it: what the line reported before
		// ("The doc is complete. Ready to start Chunk 1 …") is done.
		l = l[sentenceStart(l, loc[1]-1):]
		out := l
		// A heading-like line ("Next steps:") is followed by its list.
		if strings.HasSuffix(strings.TrimRight(l, "*"), ":") {
			for _, f := range lines[i+1:] {
				f = strings.TrimSpace(f)
				if f == "" {
					if out != l {
						break
					}
					continue
				}
				if !listItem(f) {
					break
				}
				out += " " + f
			}
		}
		return truncate(spaceRun.ReplaceAllString(out, " "), statedNextLimit)
	}
	return ""
}

// sentenceStart returns where the sentence holding byte at of s begins:
// after the last ". ", "! " or "? " before it, else 0.
func sentenceStart(s string, at int) int {
	for i := at - 1; i > 0; i-- {
		if s[i] == ' ' && strings.ContainsRune(".!?", rune(s[i-1])) {
			return i + 1
		}
	}
	return 0
}

var listItemRe = lazyRE(`^(?:[-*•]|\d+[.)]|[a-h][.)])\s+`)

func listItem(s string) bool { return listItemRe.MatchString(s) }

// recentTurns returns the end of the conversation, oldest first, bounded
// by recentBytes: user requests, assistant text, one line per tool call
// with its outcome.
func recentTurns(main []handoff.Message, results map[string]handoff.ToolResult, heads *headlines) []handoff.Turn {
	var rev []handoff.Turn
	size, thought, printed := 0, 0, 0
	add := func(t handoff.Turn) bool {
		if t.Output != "" {
			// Outputs have their own allowance too; past it a call
			// keeps its line without its output.
			if printed+len(t.Output) > recentBytes/4 {
				t.Output = ""
			} else {
				printed += len(t.Output)
			}
		}
		if t.Thinking {
			// Reasoning has its own, smaller allowance: it must not
			// push what was said and done out of the window.
			if thought+len(t.Text) <= recentBytes/4 {
				thought += len(t.Text)
				rev = append(rev, t)
			}
			return true
		}
		if size+len(t.Text) > recentBytes {
			return false
		}
		size += len(t.Text)
		rev = append(rev, t)
		return true
	}
	for i := len(main) - 1; i >= 0; i-- {
		m := main[i]
		var turns []handoff.Turn
		if m.Interrupt {
			// The person stopped the turn: what came before it was cut
			// short, and what they said next is why.
			if !add(handoff.Turn{Role: handoff.RoleSystem, Text: interruptNote(m.Text), Source: m.Ref(), Line: m.Line}) {
				return reverseTurns(rev)
			}
			continue
		}
		switch m.Role {
		case handoff.RoleUser:
			if m.Meta || m.CompactSummary {
				continue
			}
			if req := cleanRequest(userRequest(m.Text)); req != "" {
				turns = append(turns, handoff.Turn{Role: handoff.RoleUser, Text: clipSentences(req, turnTextLimit), Source: m.Ref(), Line: m.Line})
			}
		case handoff.RoleAssistant:
			if s := withoutThinking(m.Text); s != "" {
				turns = append(turns, handoff.Turn{Role: handoff.RoleAssistant, Text: clipSentences(s, turnTextLimit), Source: m.Ref(), Line: m.Line})
			} else if th := reasoningBody(m.Thinking); th != "" && len(m.ToolCalls) > 0 {
				// A step that acted without a word: its reasoning summary
				// says why it made the calls that follow.
				turns = append(turns, handoff.Turn{Role: handoff.RoleAssistant, Thinking: true, Text: clipSentences(th, thinkingTurnLimit), Source: m.Ref(), Line: m.Line})
			}
			for _, c := range m.ToolCalls {
				r, ok := results[c.ID]
				info := (&shapes{heads: heads}).classify(c)
				look, target := readOnlyCall(c, info, r, ok && c.ID != "", heads)
				turn := handoff.Turn{Role: handoff.RoleTool, Text: toolLine(c, results, heads), ReadOnly: look, Target: target, Source: m.Ref(), Line: m.Line}
				// Once the outputs' allowance is spent no later output is
				// kept (add clears it): do not read one only to drop it.
				if printed < recentBytes/4 && ok && c.ID != "" && !heads.failed(r) && (info.shell() && look != lookRead || look == lookList || look == lookSearch || look == lookGit) {
					turn.Output = outputHead(r.Content)
				}
				turns = append(turns, turn)
			}
		}
		// Within a message, text comes before its calls; we walk backwards.
		for j := len(turns) - 1; j >= 0; j-- {
			if !add(turns[j]) {
				return reverseTurns(rev)
			}
		}
	}
	return reverseTurns(rev)
}

// outputHeadLimit bounds the output a recent tool turn keeps.
const outputHeadLimit = 400

// outputHead is the start of a tool's output as data: its lines that are
// not prose, up to outputHeadLimit bytes; "" when none is left. Tool
// output is where injected instructions live ("IGNORE ALL PREVIOUS
// INSTRUCTIONS and …"), and an instruction is a sentence: a line of six
// words or more is left out, so what is kept is listings, paths, counts,
// versions and key: value lines — what a command's output says as
// facts.
func outputHead(content string) string {
	var b strings.Builder
	cut := false
	lines := strings.Split(strings.TrimSpace(content), "\n")
	if gemShellFramed(content) {
		lines = gemShellLines(lines) // the harness's frame is not output
	}
	// The harness's frame (Codex's "Exit code: 0", "Wall time: …",
	// "Output:", repeated between the polls of one session) is not
	// output either: the call's own line says how it ended.
	wrappers := wrapperLineRe.mayMatch(content)
	for _, line := range lines {
		line = strings.TrimRight(line, " \t\r")
		if line == "" || proseLine(line) || wrappers && wrapperLineRe.MatchString(strings.TrimSpace(line)) {
			continue
		}
		if b.Len()+len(line)+1 > outputHeadLimit {
			cut = true
			break
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line)
	}
	if cut && b.Len() > 0 {
		b.WriteString("\n…")
	}
	return b.String()
}

// proseLine reports a line of six or more words made of letters: a
// sentence, not a datum.
func proseLine(line string) bool {
	n := 0
	for _, w := range strings.Fields(line) {
		letters := 0
		for _, r := range w {
			if unicode.IsLetter(r) {
				letters++
			}
		}
		if letters >= 2 && letters*2 >= utf8.RuneCountInString(w) {
			if n++; n >= 6 {
				return true
			}
		}
	}
	return false
}

// reasoningBody is the body of a reasoning summary: the text after its
// title line ("**Designing stream parsing**\n\nI'm mapping out …"), or ""
// when it is a title alone ("Inspecting types"), which says only what the
// calls after it already show.
func reasoningBody(thinking string) string {
	t := strings.TrimSpace(thinking)
	title, body, ok := strings.Cut(t, "\n")
	if !ok {
		return ""
	}
	if len(strings.Fields(title)) > 12 {
		return t // no title: the summary is all body
	}
	return strings.TrimSpace(body)
}

func reverseTurns(t []handoff.Turn) []handoff.Turn {
	for i, j := 0, len(t)-1; i < j; i, j = i+1, j-1 {
		t[i], t[j] = t[j], t[i]
	}
	return t
}

// toolLine renders a tool call as one line: what ran and how it ended.
// Only the outcome, never the output's words, is said.
func toolLine(c handoff.ToolCall, results map[string]handoff.ToolResult, heads *headlines) string {
	line := truncate(firstLine(describeCall(c)), toolLineLimit)
	if !strings.HasPrefix(line, c.Name) {
		line = c.Name + ": " + line
	}
	r, ok := results[c.ID]
	if c.ID == "" || !ok {
		return line
	}
	if heads.failed(r) {
		switch ignoredResult((&shapes{heads: heads}).classify(c), r) {
		case ignoreNoMatch:
			// A search that found nothing answered its question.
			return line + " → no match"
		case ignoreRejected:
			// The person said no: that is the outcome, and the harness's
			// wording around it ("STOP what you are doing …") is not
			// worth quoting.
			return line + " → rejected by the person"
		}
		if code, ok := exitCode(r); ok && code != 0 {
			line += " → exit " + strconv.Itoa(code)
		} else {
			line += " → failed"
		}
		return line + ": " + truncate(truncate(heads.failingLine(r.Content), errorMessageLimit), outcomeLimit)
	}
	// A success's output is not quoted: tool output is where injected
	// instructions live, and only a failure's headline is worth the risk.
	return line + " → ok"
}

// clipSentences shortens s to at most n runes, cutting after the last
// sentence (or line) that fits rather than mid-word; "…" marks a cut.
func clipSentences(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	cut := s
	// byte offset of rune n-1
	i, count := 0, 0
	for i = range s {
		if count == n-1 {
			break
		}
		count++
	}
	cut = s[:i]
	best := -1
	for _, sep := range []string{". ", ".\n", "? ", "! ", "\n", "; "} {
		if j := strings.LastIndex(cut, sep); j > best {
			best = j
		}
	}
	if best >= len(cut)/2 {
		return strings.TrimSpace(cut[:best+1]) + " …"
	}
	if j := strings.LastIndexByte(cut, ' '); j >= len(cut)/2 {
		return strings.TrimSpace(cut[:j]) + " …"
	}
	return strings.TrimSpace(cut) + "…"
}

// describeCall returns the command a shell call ran, or a short
// description of any other call ("Edit internal/api/limiter.go").
func describeCall(c handoff.ToolCall) string {
	var s shapes
	return s.classify(c).command
}

// stripEnvelopes removes harness envelopes from the start of a message: a
// block in a tag whose name has a hyphen or underscore
// (<local-command-caveat>…</local-command-caveat>, <system-reminder>,
// <command-message>), the shape harnesses use and people do not type. An
// envelope whose closing tag is missing or cut runs to the end.
func stripEnvelopes(s string) string {
	for strings.HasPrefix(s, "<") {
		end := strings.IndexByte(s, '>')
		if end < 0 {
			return s
		}
		name := s[1:end]
		if !envelopeName(name) {
			return s
		}
		closing := "</" + name
		j := strings.Index(s, closing)
		if j < 0 {
			return ""
		}
		rest := s[j+len(closing):]
		if k := strings.IndexByte(rest, '>'); k >= 0 {
			rest = rest[k+1:]
		} else {
			rest = ""
		}
		s = strings.TrimSpace(rest)
	}
	return s
}

func envelopeName(name string) bool {
	if name == "" || !strings.ContainsAny(name, "-_") {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// withoutThinking removes reasoning a harness logged inside the visible
// text (<thinking>…</thinking>, Aider's <thinking-content-…> blocks): it
// was not said to the person. An unclosed block is kept.
func withoutThinking(text string) string {
	for {
		start := strings.Index(text, "<think")
		if start < 0 {
			break
		}
		end := strings.IndexByte(text[start:], '>')
		if end < 0 {
			break
		}
		name := text[start+1 : start+end]
		if strings.ContainsAny(name, " \t\n") {
			break
		}
		closing := strings.Index(text[start:], "</"+name+">")
		if closing < 0 {
			// A block the model never closed (it looped, or was cut off)
			// runs to the end: all of it is thinking, none of it said.
			text = text[:start]
			break
		}
		text = text[:start] + text[start+closing+len(name)+3:]
	}
	return strings.TrimSpace(text)
}

// patchLimit bounds the submitted patch lines kept: enough for a focused
// fix, a pointer to the file for a large one.
const patchLimit = 12

// submittedPatch returns the changed lines of the newest tool result that
// is a unified diff (SWE-agent's submit answers with the patch), or nil.
func submittedPatch(main []handoff.Message) []string {
	for i := len(main) - 1; i >= 0; i-- {
		for _, r := range main[i].ToolResults {
			body := strings.TrimSpace(strings.ReplaceAll(r.Content, "\r\n", "\n"))
			if !strings.HasPrefix(body, "diff --git ") {
				continue
			}
			var out []string
			for _, l := range strings.Split(body, "\n") {
				if len(out) == patchLimit {
					break
				}
				switch {
				case strings.HasPrefix(l, "--- "): // the old name; "+++" names the file
				case strings.HasPrefix(l, "+++ "):
					out = append(out, "file "+strings.TrimPrefix(strings.TrimPrefix(l, "+++ "), "b/"))
				case strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-"):
					if strings.TrimSpace(l[1:]) != "" {
						out = append(out, truncate(l, 200))
					}
				}
			}
			return out
		}
	}
	return nil
}

var (
	localOutputRe = lazyRE(`(?s)<local-command-(stdout|stderr)>(.*?)(?:</local-command-(?:stdout|stderr)>|$)`)
	ansiRe        = lazyRE(`\x1b\[[0-9;?]*[A-Za-z]`)
)

// commandsAfter returns the harness commands the person ran after message
// index last (the last assistant text) that answered with an error or
// with figures, each as "/name → answer" with the first lines of the
// harness's output that carry words or figures. A
// session that ended on "/context → 201k/200k tokens (100%)" or an API
// error ended for that reason, whatever the last assistant turn said.
func commandsAfter(main []handoff.Message, last int) []string {
	var out []string
	name := ""
	for _, m := range main[last+1:] {
		if m.Role != handoff.RoleUser {
			continue
		}
		if c := commandNameRe.FindStringSubmatch(m.Text); c != nil {
			name = c[1]
			continue
		}
		o := localOutputRe.FindStringSubmatch(m.Text)
		if o == nil || name == "" {
			continue
		}
		// Only an error or an answer with figures says something the end
		// signal does not ("/exit → Catch you later!", "(no content)").
		answer := harnessAnswer(o[2])
		switch {
		case answer == "":
		case o[1] == "stderr":
			out = append(out, name+" → error: "+answer)
		case strings.ContainsAny(answer, "0123456789"):
			out = append(out, name+" → "+answer)
		}
		name = ""
	}
	return out
}

// harnessAnswer is the start of a harness command's output: colour codes
// and glyph-only lines dropped, the first lines with words kept.
func harnessAnswer(s string) string {
	var keep []string
	for _, l := range strings.Split(ansiRe.ReplaceAllString(s, ""), "\n") {
		l = strings.TrimSpace(strings.TrimLeftFunc(l, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
		if wordCount(l) == 0 && !strings.ContainsAny(l, "0123456789") {
			continue
		}
		keep = append(keep, l)
		if len(keep) == 2 {
			break
		}
	}
	return truncate(strings.Join(keep, " · "), 160)
}

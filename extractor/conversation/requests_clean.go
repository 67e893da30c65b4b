package conversation

import (
	"strings"
	"unicode"

	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

var (
	// slashCommandRe is a message that is only a harness command
	// ("/exit", "/clear", "/add file.go"), not a request. The commands
	// whose argument is a request (/ask, /code, /architect) keep it.
	slashCommandRe = prose.LazyRE(rulebook.Pattern("conversation.slash-command"))
	requestCommand = prose.LazyRE(rulebook.Pattern("conversation.request-command"))
	trivialWords   = rulebook.WordSet("conversation.trivial-words")
)

// CleanRequest strips harness syntax from a request: an Aider-style
// request command's name; a pure command is kept as typed (it may be an
// end signal) and filtered out of goals by isCommandOnly.
func CleanRequest(s string) string {
	s = IssueOnly(facts.StripEnvelopes(strings.TrimSpace(s)))
	if loc := requestCommand.FindStringIndex(s); loc != nil {
		s = strings.TrimSpace(s[loc[1]:])
	}
	if PlaceholderOnly(s) {
		return ""
	}
	return s
}

// sweIssueRe is SWE-agent's task template: a preamble, the issue after
// "ISSUE:", and the harness's standing instructions to the model after
// "INSTRUCTIONS:" ("YOU CAN ONLY ENTER ONE COMMAND AT A TIME …").
var sweIssueRe = prose.LazyRE(rulebook.Pattern("conversation.swe-issue"))

// IssueOnly is a task template's issue: the person's (the issue
// author's) words, without the harness's preamble and instructions,
// which read as orders to a successor. Other text comes back unchanged.
func IssueOnly(s string) string {
	if m := sweIssueRe.FindStringSubmatch(s); m != nil && strings.TrimSpace(m[1]) != "" {
		return strings.TrimSpace(m[1])
	}
	return s
}

// IsCommandOnly reports a message that is a harness command, not a
// request: /compact with the summariser's instructions, or a slash
// command whose arguments (if any) are fewer than three words. "/orchestrator create a TODO app with Next.js" carries its task
// in its arguments; "/add main.go" and "/clear" do not.
func IsCommandOnly(s string) bool {
	if compactInstructionsRe.MatchString(s) {
		return true
	}
	loc := slashCommandRe.FindStringIndex(s)
	if loc == nil || requestCommand.MatchString(s) {
		return InvokesCommand(s)
	}
	return prose.WordCount(s[loc[1]:]) < 3
}

// commandNameRe finds the slash command a harness records a person
// running (Claude Code: <command-name>/create-checkpoint</command-name>,
// with <command-args>).
var (
	commandNameRe = prose.LazyRE(rulebook.Pattern("conversation.command-name"))
	commandArgsRe = prose.LazyRE(rulebook.Pattern("conversation.command-args"))
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
	return m[1], cmd + " — the command's prompt: " + prose.ClipSentences(facts.SpaceRun.ReplaceAllString(plainLines(body), " "), commandPromptLimit)
}

// plainLines is text with each line's heading, list and bold markup
// removed (cleanLine) and a full stop closing a line that has none: a
// command's prompt read as sentences of prose.
func plainLines(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = prose.CleanLine(l); l == "" {
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
	PickRe       = prose.LazyRE(rulebook.Pattern("conversation.pick"))
	optionLineRe = prose.LazyRE(rulebook.Pattern("conversation.option-line"))
)

// ResolvePick resolves an option pick ("(a) and (c)", "option 2", "b",
// "It's b", "I'd go with 2")
// against the option list of the assistant text it answers, returning the
// picked options' text, or "".
func ResolvePick(req, asked string) string {
	m := PickRe.FindStringSubmatch(req)
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
			picked = append(picked, "("+strings.ToLower(k)+") "+prose.Truncate(strings.ReplaceAll(o, "**", ""), 200))
		}
	}
	return strings.Join(picked, "; ")
}

// ConfirmPromptRe is a harness's yes/no prompt echoed with the key the
// person pressed (Aider's "Add file to the chat? (Y)es/(N)o/… [Yes]: a"):
// a click, not a request in the person's words.
var ConfirmPromptRe = prose.LazyRE(rulebook.Pattern("conversation.confirm-prompt"))

// The patterns of this file's rules, compiled on first use behind
// their literal gates.
var (
	compactInstructionsRe = prose.LazyRE(rulebook.Pattern("conversation.compact-instructions"))
)

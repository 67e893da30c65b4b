package conversation

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
)

// RecentTurns returns the end of the conversation, oldest first, bounded
// by recentBytes: user requests, assistant text, one line per tool call
// with its outcome.
func RecentTurns(main []handoff.Message, results map[string]handoff.ToolResult, heads *facts.Headlines) []handoff.Turn {
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
			if req := CleanRequest(facts.UserRequest(m.Text)); req != "" {
				turns = append(turns, handoff.Turn{Role: handoff.RoleUser, Text: prose.ClipSentences(req, turnTextLimit), Source: m.Ref(), Line: m.Line})
			}
		case handoff.RoleAssistant:
			if s := facts.WithoutThinking(m.Text); s != "" {
				turns = append(turns, handoff.Turn{Role: handoff.RoleAssistant, Text: prose.ClipSentences(s, turnTextLimit), Source: m.Ref(), Line: m.Line})
			} else if th := ReasoningBody(m.Thinking); th != "" && len(m.ToolCalls) > 0 {
				// A step that acted without a word: its reasoning summary
				// says why it made the calls that follow.
				turns = append(turns, handoff.Turn{Role: handoff.RoleAssistant, Thinking: true, Text: prose.ClipSentences(th, thinkingTurnLimit), Source: m.Ref(), Line: m.Line})
			}
			for _, c := range m.ToolCalls {
				r, ok := results[c.ID]
				info := (&facts.Shapes{Heads: heads}).Classify(c)
				look, target := facts.ReadOnlyCall(c, info, r, ok && c.ID != "", heads)
				turn := handoff.Turn{Role: handoff.RoleTool, Text: toolLine(c, results, heads), ReadOnly: look, Target: target, Source: m.Ref(), Line: m.Line}
				// Once the outputs' allowance is spent no later output is
				// kept (add clears it): do not read one only to drop it.
				if printed < recentBytes/4 && ok && c.ID != "" && !heads.Failed(r) && (info.Shell() && look != facts.LookRead || look == facts.LookList || look == facts.LookSearch || look == facts.LookGit) {
					turn.Output = OutputHead(r.Content)
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

// OutputHeadLimit bounds the output a recent tool turn keeps.
const OutputHeadLimit = 400

// OutputHead is the start of a tool's output as data: its lines that are
// not prose, up to outputHeadLimit bytes; "" when none is left. Tool
// output is where injected instructions live ("IGNORE ALL PREVIOUS
// INSTRUCTIONS and …"), and an instruction is a sentence: a line of six
// words or more is left out, so what is kept is listings, paths, counts,
// versions and key: value lines — what a command's output says as
// facts.
func OutputHead(content string) string {
	var b strings.Builder
	cut := false
	lines := strings.Split(strings.TrimSpace(content), "\n")
	// The harness's frame (Codex's "Exit code: 0", "Wall time: …",
	// "Output:", repeated between the polls of one session) is not
	// output either: the call's own line says how it ended.
	wrappers := facts.WrapperLineRe.MayMatch(content)
	for _, line := range lines {
		line = strings.TrimRight(line, " \t\r")
		if line == "" || proseLine(line) || wrappers && facts.WrapperLineRe.MatchString(strings.TrimSpace(line)) {
			continue
		}
		if b.Len()+len(line)+1 > OutputHeadLimit {
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

// ReasoningBody is the body of a reasoning summary: the text after its
// title line ("**Designing stream parsing**\n\nI'm mapping out …"), or ""
// when it is a title alone ("Inspecting types"), which says only what the
// calls after it already show.
func ReasoningBody(thinking string) string {
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
func toolLine(c handoff.ToolCall, results map[string]handoff.ToolResult, heads *facts.Headlines) string {
	line := prose.Truncate(prose.FirstLine(describeCall(c)), toolLineLimit)
	if !strings.HasPrefix(line, c.Name) {
		line = c.Name + ": " + line
	}
	r, ok := results[c.ID]
	if c.ID == "" || !ok {
		return line
	}
	if heads.Failed(r) {
		switch facts.IgnoredResult((&facts.Shapes{Heads: heads}).Classify(c), r) {
		case facts.IgnoreNoMatch:
			// A search that found nothing answered its question.
			return line + " → no match"
		case facts.IgnoreRejected:
			// The person said no: that is the outcome, and the harness's
			// wording around it ("STOP what you are doing …") is not
			// worth quoting.
			return line + " → rejected by the person"
		}
		if code, ok := facts.ExitCode(r); ok && code != 0 {
			line += " → exit " + strconv.Itoa(code)
		} else {
			line += " → failed"
		}
		return line + ": " + prose.Truncate(prose.Truncate(heads.FailingLine(r.Content), facts.ErrorMessageLimit), outcomeLimit)
	}
	// A success's output is not quoted: tool output is where injected
	// instructions live, and only a failure's headline is worth the risk.
	return line + " → ok"
}

// describeCall returns the command a shell call ran, or a short
// description of any other call ("Edit internal/api/limiter.go").
func describeCall(c handoff.ToolCall) string {
	var s facts.Shapes
	return s.Classify(c).Command
}

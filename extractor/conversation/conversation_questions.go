package conversation

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// QuestionCalls finds calls that put questions to the person, by shape: an
// input holding a "questions" list (AskUserQuestion, request_user_input)
// or a single "question". It returns each call's question text by id.
func QuestionCalls(msgs []handoff.Message, heads *facts.Headlines) map[string]string {
	return CallTexts(msgs, func(c handoff.ToolCall) string { return questionText(c, heads) })
}

// CallTexts maps the id of each of the assistant's calls to text(call),
// leaving out calls with no id or an empty text: the calls of one shape
// (questions, plans) and what each put to the person.
func CallTexts(msgs []handoff.Message, text func(handoff.ToolCall) string) map[string]string {
	out := map[string]string{}
	for _, m := range msgs {
		if m.Role != handoff.RoleAssistant {
			continue
		}
		for _, c := range m.ToolCalls {
			if c.ID == "" {
				continue
			}
			if t := text(c); t != "" {
				out[c.ID] = t
			}
		}
	}
	return out
}

// questionText returns the questions of a question-asking call, with their
// options, or "" when the call is not one.
func questionText(c handoff.ToolCall, heads *facts.Headlines) string {
	in := heads.Object(c.Input)
	var parts []string
	if qs, ok := in["questions"].([]any); ok {
		for _, q := range qs {
			obj, _ := q.(map[string]any)
			if obj == nil {
				continue
			}
			text := facts.Str(obj, "question")
			if text == "" {
				text = facts.Str(obj, "header")
			}
			var opts []string
			if os, ok := obj["options"].([]any); ok {
				for _, o := range os {
					if oo, ok := o.(map[string]any); ok {
						if l := facts.Str(oo, "label"); l != "" {
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
	} else if q := facts.Str(in, "question"); q != "" {
		parts = append(parts, q)
	}
	return strings.Join(parts, "; ")
}

// AnswerText reads the person's answer from a question tool's result: the
// Codex JSON {"answers": {id: {"answers": [...]}}} or Claude Code's
// `User has answered your questions: "Q"="A"` text.
func AnswerText(content string) string {
	s := strings.TrimSpace(content)
	if strings.HasPrefix(s, "{") {
		var v struct {
			Answers map[string]struct {
				Answers []string `json:"answers"`
			} `json:"answers"`
		}
		if json.Unmarshal([]byte(s), &v) == nil && len(v.Answers) > 0 {
			var out []string
			for _, q := range slices.Sorted(maps.Keys(v.Answers)) { // map order would change the prompt run to run
				out = append(out, v.Answers[q].Answers...)
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
var answerPairRe = prose.LazyRE(rulebook.Pattern("conversation.answer-pair"))

package conversation

import (
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// A person can start a session by naming a skill or running a command
// and nothing else: ".agents/skills/speckit-implement", "$deploy",
// "/implement-plan". The words they typed say nothing of the work; the
// skill's file or the command's expanded prompt does, and when the agent
// goes on to change files for it, that invocation is what the session
// works on: the goal names it with the first line of its task, rather
// than a bug report the person sent halfway through.

var (
	// skillRefRe is a message that only names a skill: a path into a
	// skills folder (to the skill's folder or its SKILL.md), or a Codex
	// skill mention ("$name"), with at most a few words after it.
	skillRefRe = prose.LazyRE(rulebook.Pattern("conversation.skill-ref"))
	// frontNameRe and frontDescRe read a skill file's name and
	// description from its front matter, as a tool printed it.
	frontNameRe = prose.LazyRE(rulebook.Pattern("conversation.front-name"))
	frontDescRe = prose.LazyRE(rulebook.Pattern("conversation.front-desc"))
)

// SkillMention is the skill a request names, and the words after it;
// ok is false for a request that is more than a skill's name.
func SkillMention(text string) (name, args string, ok bool) {
	m := skillRefRe.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil || strings.Contains(m[0], "\n") || prose.WordCount(m[3]) >= goalMinFields {
		return "", "", false
	}
	name = m[1]
	if name == "" {
		name = m[2]
	}
	return name, strings.TrimSpace(m[3]), true
}

// withSkillTasks marks each request that only names a skill as a command
// (Request.Command, the skill's name) and adds the skill's task, its
// description as the agent read it from the skill's file, the way
// commandRequest adds a command's expanded prompt. A skill whose file
// the agent did not read in its next turn keeps the person's words.
func withSkillTasks(reqs []handoff.Request, main []handoff.Message) []handoff.Request {
	for i, r := range reqs {
		if r.Command != "" || r.Answers != "" {
			continue
		}
		name, _, ok := SkillMention(r.Text)
		if !ok {
			continue
		}
		reqs[i].Command = name
		if d := skillDescription(main, r.Source.Index, name); d != "" {
			reqs[i].Text = r.Text + " — the skill's task: " + prose.ClipSentences(d, commandPromptLimit)
		}
	}
	return reqs
}

// skillDescription is the description in the front matter of the skill
// file named name that a tool printed after the message at index from
// and before the person's next message; "" when none did.
func skillDescription(main []handoff.Message, from int, name string) string {
	for _, m := range main {
		if m.Index <= from {
			continue
		}
		if m.Role == handoff.RoleUser && !m.Meta && strings.TrimSpace(m.Text) != "" {
			break
		}
		for _, res := range m.ToolResults {
			n := frontNameRe.FindStringSubmatch(res.Content)
			if n == nil || !strings.EqualFold(strings.TrimSpace(n[1]), name) {
				continue
			}
			if d := frontDescRe.FindStringSubmatch(res.Content); d != nil {
				return strings.TrimSpace(d[1])
			}
		}
	}
	return ""
}

// commandWorkedOn reports whether the agent changed files after the
// command request at index from and before the person's next request:
// the command asked for work and the session did it. A command that
// only reads and reports ("recover the last checkpoint") is orientation
// before the work the person then asks for.
func commandWorkedOn(main []handoff.Message, from int, heads *facts.Headlines) bool {
	sh := &facts.Shapes{Heads: heads}
	for _, m := range main {
		if m.Index <= from {
			continue
		}
		if m.Role == handoff.RoleUser && !m.Meta && strings.TrimSpace(m.Text) != "" {
			return false
		}
		for _, call := range m.ToolCalls {
			if sh.Classify(call).Kind == facts.KindEdit {
				return true
			}
		}
	}
	return false
}

// commandGoalOf is the goal a session that opens with a command or skill
// gets: that request, when the agent worked on it (commandWorkedOn) and
// its task asks for work (goalFitness of the task's words); "" otherwise.
// first is the session's first request that says anything.
func commandGoalOf(first handoff.Request, main []handoff.Message, heads *facts.Headlines) string {
	if first.Command == "" {
		return ""
	}
	task := first.Text
	if _, after, ok := strings.Cut(task, " — "); ok {
		task = after[strings.Index(after, ":")+1:]
	}
	if GoalFitness(task) != GoalTask || !commandWorkedOn(main, first.Source.Index, heads) {
		return ""
	}
	return first.Text
}

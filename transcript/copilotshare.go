package transcript

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
)

// Copilot CLI's /share writes the session as markdown: "# 🤖 Copilot CLI
// Session", quoted "**Session ID:**" and "**Started:**" lines, then
// blocks separated by "---", each a "<sub>⏱️ 1m 2s</sub>" line and a
// heading: "### 👤 User", "### 💬 Copilot", "### ✅ `tool`" (a call that
// succeeded; "### ❌ `tool`" one that failed) or "### ℹ️ Info". A tool
// block holds its description in bold, a shell command as "$ command",
// its arguments in a <details> "Arguments" JSON block and its output in
// a code fence (a bash output ends "<exited with exit code N>"). Each
// tool block becomes an assistant call and its result; Info blocks are
// system Messages (Meta). It is read a turn at a time (ruleBlocks): a
// block whose first line is no such heading is the rest of the block
// before it, whose message held a "---" rule of its own.

var (
	copilotShareRe   = lazyRE(`(?m)^# 🤖 Copilot CLI Session\s*$|^### 👤 User\s*$[\s\S]*^### 💬 Copilot\s*$`)
	copilotSessionRe = lazyRE("(?m)^> \\*\\*Session ID:\\*\\* `([^`]+)`")
	copilotToolRe    = lazyRE("^### (✅|❌|⚠️|⏹️)\\s*`([^`]+)`")
)

// copilotShare reads a /share export a block at a time (ruleBlocks),
// numbering the tool blocks.
type copilotShare struct{ calls int }

func newCopilotShare() formatParser {
	c := &copilotShare{}
	return blockFormat("Copilot CLI /share markdown", c.block, copilotShareOpens)()
}

// copilotShareOpens reports a block that opens with one of /share's
// headings, "### " and an emoji: a message's own headings are words.
func copilotShareOpens(b mdBlock) bool {
	i := b.firstContent()
	if i < 0 {
		return false
	}
	head, ok := strings.CutPrefix(strings.TrimSpace(b.lines[i]), "### ")
	return ok && head != "" && head[0] >= utf8.RuneSelf
}

func (c *copilotShare) block(d *Decoder, b mdBlock, first bool) {
	d.t.Session.Agent = "copilot-cli"
	if first {
		if m := copilotSessionRe.FindStringSubmatch(strings.Join(b.lines, "\n")); m != nil {
			d.t.Session.ID = m[1]
		}
	}
	// The first block also holds the title and session lines.
	i := slices.IndexFunc(b.lines, func(l string) bool { return strings.HasPrefix(l, "### ") })
	if i < 0 {
		return
	}
	head := strings.TrimSpace(b.lines[i])
	line := b.line + i
	switch {
	case strings.HasPrefix(head, "### 👤 User"):
		if text := b.body(i); text != "" {
			d.add(handoff.Message{Line: line, Role: handoff.RoleUser, Text: text})
		}
	case strings.HasPrefix(head, "### 💬 Copilot"):
		if text := b.body(i); text != "" {
			d.add(handoff.Message{Line: line, Role: handoff.RoleAssistant, Text: text})
		}
	case copilotToolRe.MatchString(head):
		m := copilotToolRe.FindStringSubmatch(head)
		c.calls++
		id := fmt.Sprintf("copilot-share-%d", c.calls)
		input, output := copilotShareTool(b.lines[i+1:])
		d.add(handoff.Message{Line: line, Role: handoff.RoleAssistant,
			ToolCalls: []handoff.ToolCall{{ID: id, Name: m[2], Input: input}}})
		r := handoff.ToolResult{CallID: id, Name: m[2], IsError: m[1] == "❌"}
		if mm := copilotExitRe.FindStringSubmatch(output); mm != nil {
			if n, err := strconv.Atoi(mm[1]); err == nil {
				r.ExitCode = &n
			}
		}
		r.Content, r.OriginalBytes = d.clipOutput(output)
		d.add(handoff.Message{Line: line, Role: handoff.RoleTool, ToolResults: []handoff.ToolResult{r}})
	case strings.HasPrefix(head, "### "):
		if text := b.body(i); text != "" {
			d.add(handoff.Message{Line: line, Role: handoff.RoleSystem, Meta: true, Text: strings.TrimSpace(strings.TrimPrefix(head, "###")) + ": " + text})
		}
	}
}

// copilotShareTool reads a tool block's input (its Arguments JSON, else
// its "$ command", else its description) and its output (the last code
// fence outside the Arguments).
func copilotShareTool(lines []string) (json.RawMessage, string) {
	var args, desc, command, output string
	inArgs := false
	var fence []string
	fenceMark := ""
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case fenceMark != "":
			if strings.HasPrefix(t, fenceMark) && strings.Trim(t, "`~") == "" {
				if inArgs {
					args = strings.Join(fence, "\n")
				} else {
					output = strings.Join(fence, "\n")
				}
				fenceMark, fence = "", nil
				continue
			}
			fence = append(fence, l)
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			fenceMark = t[:len(t)-len(strings.TrimLeft(t, string(t[0])))]
		case t == "<summary>Arguments</summary>":
			inArgs = true
		case t == "</details>":
			inArgs = false
		case strings.HasPrefix(t, "$ ") && command == "":
			command = strings.TrimSpace(t[2:])
		case strings.HasPrefix(t, "**") && strings.HasSuffix(t, "**") && len(t) > 4 && desc == "":
			desc = strings.Trim(t, "*")
		}
	}
	var in json.RawMessage
	switch {
	case args != "" && json.Valid([]byte(args)):
		in = json.RawMessage(args)
	case command != "":
		in, _ = json.Marshal(map[string]string{"command": command, "description": desc})
	case desc != "":
		in, _ = json.Marshal(map[string]string{"description": desc})
	default:
		in = json.RawMessage(`{}`)
	}
	return in, output
}

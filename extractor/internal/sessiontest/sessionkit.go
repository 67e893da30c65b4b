package sessiontest

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
)

// Convo builds a transcript message by message, numbering and time
// stamping them, with call ids paired to results.
type Convo struct {
	t    testing.TB
	Msgs []handoff.Message
	N    int
}

// NewConvo starts an empty conversation for t.
func NewConvo(t testing.TB) *Convo { return &Convo{t: t} }

var T0 = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// Push appends m, numbered and time-stamped, and returns it for changes.
func (c *Convo) Push(m handoff.Message) *handoff.Message {
	m.Index = len(c.Msgs)
	m.ID = "m" + Itoa(m.Index)
	m.Timestamp = T0.Add(time.Duration(m.Index) * time.Minute)
	c.Msgs = append(c.Msgs, m)
	return &c.Msgs[len(c.Msgs)-1]
}

// User adds a message of the person's.
func (c *Convo) User(text string) *Convo {
	c.Push(handoff.Message{Role: handoff.RoleUser, Text: text})
	return c
}

// Meta adds harness text in the person's role (a command's expansion, a
// caveat).
func (c *Convo) Meta(text string) *Convo {
	c.Push(handoff.Message{Role: handoff.RoleUser, Text: text, Meta: true})
	return c
}

// Say adds a message of the assistant's.
func (c *Convo) Say(text string) *Convo {
	c.Push(handoff.Message{Role: handoff.RoleAssistant, Text: text})
	return c
}

// Call adds an assistant message with text and one tool call, and returns
// the call id.
func (c *Convo) Call(text, tool string, input any) string {
	c.N++
	id := "call_" + Itoa(c.N)
	raw, ok := input.(json.RawMessage)
	if !ok {
		b, err := json.Marshal(input)
		if err != nil {
			c.t.Fatal(err)
		}
		raw = b
	}
	c.Push(handoff.Message{Role: handoff.RoleAssistant, Text: text, ToolCalls: []handoff.ToolCall{{ID: id, Name: tool, Input: raw}}})
	return id
}

// Result adds a tool-result message for id; exit < 0 means the format
// reports no exit code.
func (c *Convo) Result(id, content string, isError bool, exit int) *Convo {
	r := handoff.ToolResult{CallID: id, Content: content, IsError: isError}
	if exit >= 0 {
		r.ExitCode = &exit
	}
	c.Push(handoff.Message{Role: handoff.RoleTool, ToolResults: []handoff.ToolResult{r}})
	return c
}

// Bash runs a shell command and records its output.
func (c *Convo) Bash(text, command, output string, exit int) *Convo {
	id := c.Call(text, "Bash", map[string]string{"command": command})
	return c.Result(id, output, exit != 0, exit)
}

// Transcript returns the conversation so far as a transcript.
func (c *Convo) Transcript() *handoff.Transcript {
	return &handoff.Transcript{Session: handoff.SessionInfo{Format: "test", CWD: "/home/dev/app"}, Messages: c.Msgs}
}

// Itoa is strconv.Itoa, short for test tables.
func Itoa(i int) string { return strconv.Itoa(i) }

// Todos is a TodoWrite input with the items as (content, status) pairs.
func Todos(items ...[2]string) map[string]any {
	var list []map[string]string
	for _, it := range items {
		list = append(list, map[string]string{"content": it[0], "status": it[1], "activeForm": it[0]})
	}
	return map[string]any{"todos": list}
}

// Sys adds a harness output message (Aider's "> " lines).
func (c *Convo) Sys(text string) *Convo {
	c.Push(handoff.Message{Role: handoff.RoleSystem, Text: text, Meta: true})
	return c
}

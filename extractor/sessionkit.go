package extractor

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
)

// convo builds a transcript message by message, numbering and time
// stamping them, with call ids paired to results.
type convo struct {
	t    testing.TB
	msgs []handoff.Message
	n    int
}

func newConvo(t testing.TB) *convo { return &convo{t: t} }

var t0 = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func (c *convo) push(m handoff.Message) *handoff.Message {
	m.Index = len(c.msgs)
	m.ID = "m" + itoa(m.Index)
	m.Timestamp = t0.Add(time.Duration(m.Index) * time.Minute)
	c.msgs = append(c.msgs, m)
	return &c.msgs[len(c.msgs)-1]
}

func (c *convo) user(text string) *convo {
	c.push(handoff.Message{Role: handoff.RoleUser, Text: text})
	return c
}

func (c *convo) meta(text string) *convo {
	c.push(handoff.Message{Role: handoff.RoleUser, Text: text, Meta: true})
	return c
}

func (c *convo) say(text string) *convo {
	c.push(handoff.Message{Role: handoff.RoleAssistant, Text: text})
	return c
}

// call adds an assistant message with text and one tool call, and returns
// the call id.
func (c *convo) call(text, tool string, input any) string {
	c.n++
	id := "call_" + itoa(c.n)
	raw, ok := input.(json.RawMessage)
	if !ok {
		b, err := json.Marshal(input)
		if err != nil {
			c.t.Fatal(err)
		}
		raw = b
	}
	c.push(handoff.Message{Role: handoff.RoleAssistant, Text: text, ToolCalls: []handoff.ToolCall{{ID: id, Name: tool, Input: raw}}})
	return id
}

// result adds a tool-result message for id; exit < 0 means the format
// reports no exit code.
func (c *convo) result(id, content string, isError bool, exit int) *convo {
	r := handoff.ToolResult{CallID: id, Content: content, IsError: isError}
	if exit >= 0 {
		r.ExitCode = &exit
	}
	c.push(handoff.Message{Role: handoff.RoleTool, ToolResults: []handoff.ToolResult{r}})
	return c
}

// bash runs a shell command and records its output.
func (c *convo) bash(text, command, output string, exit int) *convo {
	id := c.call(text, "Bash", map[string]string{"command": command})
	return c.result(id, output, exit != 0, exit)
}

func (c *convo) transcript() *handoff.Transcript {
	return &handoff.Transcript{Session: handoff.SessionInfo{Format: "test", CWD: "/home/dev/app"}, Messages: c.msgs}
}

func itoa(i int) string { return strconv.Itoa(i) }

func todos(items ...[2]string) map[string]any {
	var list []map[string]string
	for _, it := range items {
		list = append(list, map[string]string{"content": it[0], "status": it[1], "activeForm": it[0]})
	}
	return map[string]any{"todos": list}
}

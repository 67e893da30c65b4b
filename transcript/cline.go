package transcript

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/handoff-cli/handoff"
)

// Cline (and Roo Code) task history: ui_messages.json, a JSON array of
// {ts, type: "say"|"ask", say|ask: kind, text, images, partial}. (The
// sibling api_conversation_history.json is an Anthropic messages array
// and reads as openai-chat.)
//
// say "task" and "user_feedback" are user Messages, and so is a say
// "text" before the first API request (Cline says the task the person
// typed that way); say "text", "completion_result" and ask
// "followup"/"completion_result" are assistant Messages (a followup's
// JSON {question} gives its text); say "reasoning" is the next
// assistant Message's Thinking; "tool" (text is JSON {tool, path, …}) is
// a ToolCall named after the tool with that JSON as Input (a read-only
// tool's "content", its path or findings, renamed "output"); "command"
// is an "execute_command" ToolCall and the "command_output" messages
// after it are its result; "error", "api_req_failed" and
// "mistake_limit_reached" are system Messages (Meta), and an
// api_req_failed nothing answered ends the session with that failure as
// its EndSignal; "api_req_started" (JSON {tokensIn, tokensOut,
// cacheWrites, cacheReads}) is the Usage of the next assistant Message; a Roo Code
// contextCondense {summary} is a CompactSummary. Streaming fragments
// (partial: true) and bookkeeping kinds are skipped.

type clineMessage struct {
	TS              json.RawMessage `json:"ts"`
	Type            string          `json:"type"`
	Say             string          `json:"say"`
	Ask             string          `json:"ask"`
	Text            string          `json:"text"`
	Images          []string        `json:"images"`
	Partial         bool            `json:"partial"`
	Reasoning       string          `json:"reasoning"`
	ContextCondense *struct {
		Summary string `json:"summary"`
	} `json:"contextCondense"`
}

func decodeCline(d *Decoder, doc []byte) error {
	d.t.Session.Agent = "cline"
	var thinking string
	var usage *handoff.ProviderUsage
	callSeq := 0
	lastCmd := -1 // index of the tool Message collecting command output
	// requested: an API request was made; a "text" before the first is
	// the task the person typed (Cline says the task as "text").
	requested := false
	// failed: the latest API request failed and nothing answered since.
	failed := ""
	defer func() {
		if failed != "" {
			d.t.Session.EndSignal = "the last API request failed (" + headline(failed, 120) + "), so the last turn went unanswered"
		}
	}()
	return walkJSON(d, doc, "", nil, func(n int, raw json.RawMessage) error {
		var c clineMessage
		if err := json.Unmarshal(raw, &c); err != nil {
			return d.recordError(n, fmt.Errorf("malformed message: %w", jsonReason(err)))
		}
		if c.Type != "say" && c.Type != "ask" {
			return d.recordError(n, fmt.Errorf("message type %q is neither say nor ask", c.Type))
		}
		if c.Partial {
			return nil
		}
		ts := clineTime(c.TS)
		d.seeTime(ts)
		m := handoff.Message{Line: n, Timestamp: ts}
		kind := c.Say
		if c.Type == "ask" {
			kind = c.Ask
		}
		assistant := func(text string, calls ...handoff.ToolCall) {
			m.Role, m.Text, m.ToolCalls = handoff.RoleAssistant, text, calls
			m.Thinking, m.Usage = joinText(thinking, c.Reasoning), usage
			thinking, usage = "", nil
			d.add(m)
		}
		if c.ContextCondense != nil && strings.TrimSpace(c.ContextCondense.Summary) != "" {
			m.Role, m.Text, m.CompactSummary = handoff.RoleUser, c.ContextCondense.Summary, true
			d.add(m)
			return nil
		}
		switch kind {
		case "task", "user_feedback", "user_feedback_diff":
			text := c.Text
			for range c.Images {
				text = joinText(text, "[image]")
			}
			if strings.TrimSpace(text) == "" {
				return nil
			}
			m.Role, m.Text = handoff.RoleUser, text
			d.add(m)
		case "text", "completion_result":
			switch {
			case strings.TrimSpace(c.Text) == "":
			case kind == "text" && !requested && !clineHasUser(d):
				m.Role, m.Text = handoff.RoleUser, c.Text
				for range c.Images {
					m.Text = joinText(m.Text, "[image]")
				}
				d.add(m)
			default:
				assistant(c.Text)
			}
		case "followup", "plan_mode_respond":
			text := c.Text
			var q struct {
				Question string `json:"question"`
				Response string `json:"response"`
			}
			if json.Unmarshal([]byte(c.Text), &q) == nil {
				text = joinText(q.Question, q.Response)
			}
			if strings.TrimSpace(text) != "" {
				assistant(text)
			}
		case "reasoning":
			thinking = joinText(thinking, c.Text)
		case "tool":
			var tool struct {
				Tool string `json:"tool"`
			}
			if json.Unmarshal([]byte(c.Text), &tool) != nil || tool.Tool == "" {
				return d.recordError(n, fmt.Errorf("tool message without a JSON {tool}"))
			}
			callSeq++
			assistant("", handoff.ToolCall{ID: fmt.Sprintf("cline-%d", callSeq), Name: tool.Tool, Input: clineToolInput(tool.Tool, c.Text)})
		case "command":
			callSeq++
			in, _ := json.Marshal(map[string]string{"command": c.Text})
			id := fmt.Sprintf("cline-%d", callSeq)
			assistant("", handoff.ToolCall{ID: id, Name: "execute_command", Input: in})
			lastCmd = d.add(handoff.Message{Line: n, Timestamp: ts, Role: handoff.RoleTool,
				ToolResults: []handoff.ToolResult{{CallID: id, Name: "execute_command"}}})
		case "command_output":
			if lastCmd < 0 {
				return nil
			}
			r := &d.t.Messages[lastCmd].ToolResults[0]
			r.Content, r.OriginalBytes = d.clipOutput(joinText(r.Content, c.Text))
			r.ExitCode = codexExitCode(r.Content)
		case "error", "api_req_failed", "mistake_limit_reached", "diff_error":
			m.Role, m.Text, m.Meta = handoff.RoleSystem, "error: "+c.Text, true
			d.add(m)
		case "api_req_started", "api_req_retried":
			requested = true
			var info struct {
				TokensIn    int `json:"tokensIn"`
				TokensOut   int `json:"tokensOut"`
				CacheWrites int `json:"cacheWrites"`
				CacheReads  int `json:"cacheReads"`
			}
			if json.Unmarshal([]byte(c.Text), &info) == nil && info.TokensIn+info.CacheReads+info.CacheWrites > 0 {
				usage = &handoff.ProviderUsage{InputTokens: info.TokensIn, CacheCreationInputTokens: info.CacheWrites,
					CacheReadInputTokens: info.CacheReads, OutputTokens: info.TokensOut}
			}
		}
		if kind != "command_output" && kind != "api_req_started" && kind != "reasoning" && kind != "command" {
			lastCmd = -1
		}
		switch {
		case kind == "api_req_failed":
			failed = c.Text
		case m.Role == handoff.RoleUser || m.Role == handoff.RoleAssistant || kind == "text" || kind == "tool" || kind == "command":
			failed = ""
		}
		return nil
	})
}

// clineHasUser reports whether the person has said anything yet.
func clineHasUser(d *Decoder) bool {
	for _, m := range d.t.Messages {
		if m.Role == handoff.RoleUser && !m.Meta {
			return true
		}
	}
	return false
}

// clineEditTools are the Cline and Roo Code tools that change a file;
// the others (readFile, searchFiles, listFiles…, webFetch) carry their
// path or findings in "content", which is not new file content.
var clineEditTools = map[string]bool{
	"editedExistingFile": true, "newFileCreated": true, "fileDeleted": true, "appliedDiff": true,
	"insertContent": true, "searchAndReplace": true, "writeToFile": true,
}

// clineToolInput is a tool message's JSON as the call's input, with a
// read-only tool's "content" moved to "output" so it does not read as
// an edit.
func clineToolInput(tool, text string) json.RawMessage {
	if clineEditTools[tool] {
		return json.RawMessage(text)
	}
	return renameKeys(json.RawMessage(text), map[string]string{"content": "output"})
}

// clineTime reads a millisecond Unix timestamp.
func clineTime(raw json.RawMessage) time.Time {
	ms := intValue(raw)
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(int64(ms)).UTC()
}

// headline is the first line of s, cut to n runes.
func headline(s string, n int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	return s
}

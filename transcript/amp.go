package transcript

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/handoff-cli/handoff"
)

// Amp (Sourcegraph's agent, closed source) keeps each thread as
// ~/.local/share/amp/threads/T-<uuid>.json (older VS Code extension:
// globalStorage/sourcegraph.amp/threads3/). The layout is Amp's own,
// read here as open readers of it describe it (jonathan-kellerai/
// cross_agent_session_resumer src/providers/amp.rs, noamsto/houston
// docs/AMP_AGENT_SUPPORT.md): {v, id, created (Unix ms), title, env:
// {initial: {cwd?, trees: [{uri: "file:///…"}]}}, messages: [{role: user
// | assistant | info, messageId, content: [blocks], state: {type:
// complete | cancelled | error, stopReason}, usage: {model, inputTokens,
// outputTokens, cacheCreationInputTokens, cacheReadInputTokens}, meta:
// {sentAt}}]}. Blocks are Anthropic-like: text, thinking, tool_use {id,
// name, input}, and a tool_result {toolUseID, run: {status: done | error
// | cancelled | rejected-by-user, result, progress, error}} in the
// user's message. An info message's summary block {summary: {type:
// "message", summary}} is the summary Amp's compaction wrote. The thread
// is read a message at a time (jsonRecords).

type ampMessage struct {
	Role    string            `json:"role"`
	ID      json.RawMessage   `json:"messageId"`
	Content []json.RawMessage `json:"content"`
	State   *struct {
		Type  string          `json:"type"`
		Error json.RawMessage `json:"error"`
	} `json:"state"`
	Usage *struct {
		Model       string `json:"model"`
		Input       int    `json:"inputTokens"`
		Output      int    `json:"outputTokens"`
		CacheCreate int    `json:"cacheCreationInputTokens"`
		CacheRead   int    `json:"cacheReadInputTokens"`
	} `json:"usage"`
	Meta *struct {
		SentAt int64 `json:"sentAt"`
	} `json:"meta"`
}

type ampBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"toolUseID"`
	Run       *struct {
		Status   string          `json:"status"`
		Result   json.RawMessage `json:"result"`
		Progress json.RawMessage `json:"progress"`
		Error    json.RawMessage `json:"error"`
	} `json:"run"`
	Summary *struct {
		Type    string `json:"type"`
		Summary string `json:"summary"`
	} `json:"summary"`
}

type ampThread struct{ names map[string]string }

func newAmpParser() formatParser {
	a := &ampThread{names: map[string]string{}}
	return &streamParser{name: "Amp thread", key: "messages", member: a.member, element: a.element}
}

func (a *ampThread) member(d *Decoder, key string, raw []byte) error {
	d.t.Session.Agent = "amp"
	switch key {
	case "id":
		d.t.Session.ID = jsonText(raw)
	case "title":
		d.t.Session.Title = jsonText(raw)
	case "created":
		d.seeTime(msTime(int64(intValue(raw))))
	case "env":
		if dir := ampWorkspace(raw); dir != "" {
			d.t.Session.CWD = dir
		}
	}
	return nil
}

// ampWorkspace reads the thread's directory: env.initial.cwd, else its
// first workspace tree.
func ampWorkspace(raw []byte) string {
	var env struct {
		Initial struct {
			Cwd   string `json:"cwd"`
			Trees []struct {
				URI json.RawMessage `json:"uri"`
			} `json:"trees"`
		} `json:"initial"`
	}
	if decodeJSON(raw, &env) != nil {
		return ""
	}
	if env.Initial.Cwd != "" {
		return env.Initial.Cwd
	}
	for _, t := range env.Initial.Trees {
		if p := fileURIPath(jsonText(t.URI)); p != "" {
			return p
		}
		if p := vscURIPath(t.URI); p != "" {
			return p
		}
	}
	return ""
}

// fileURIPath is the path of a file:// URI, "" for anything else.
func fileURIPath(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return u.Path
}

func (a *ampThread) element(d *Decoder, n int, raw []byte) error {
	d.t.Session.Agent = "amp"
	var m ampMessage
	if err := decodeJSON(raw, &m); err != nil {
		return d.recordError(n, fmt.Errorf("malformed message: %w", jsonReason(err)))
	}
	var ts time.Time
	if m.Meta != nil {
		ts = msTime(m.Meta.SentAt)
	}
	d.seeTime(ts)
	id := strings.Trim(string(m.ID), `"`)
	msg := handoff.Message{ID: id, Line: n, Timestamp: ts}
	var results []handoff.ToolResult
	var notes []handoff.Message
	summary := ""
	for _, rb := range m.Content {
		var b ampBlock
		if decodeValid(rb, &b) != nil {
			continue
		}
		switch b.Type {
		case "text":
			msg.Text = joinText(msg.Text, b.Text)
		case "thinking":
			msg.Thinking = joinText(msg.Thinking, b.Thinking)
		case "tool_use":
			in := compactJSON(b.Input)
			name := firstNonEmpty(b.Name, "tool")
			a.names[b.ID] = name
			msg.ToolCalls = append(msg.ToolCalls, handoff.ToolCall{ID: b.ID, Name: name, Input: in})
		case "tool_result":
			r, note := a.result(d, b)
			results = append(results, r)
			if note != "" {
				notes = append(notes, handoff.Message{Line: n, Timestamp: ts, Role: handoff.RoleSystem, Meta: true, Interrupt: true, Text: note})
			}
		case "image":
			msg.Text = joinText(msg.Text, "[image]")
		case "summary":
			if b.Summary != nil && b.Summary.Summary != "" {
				summary = joinText(summary, b.Summary.Summary)
			}
		}
	}
	switch m.Role {
	case "user":
		if len(results) > 0 {
			d.add(handoff.Message{Line: n, Timestamp: ts, Role: handoff.RoleTool, ToolResults: results})
		}
		for _, note := range notes {
			if !stoppedSinceAssistant(d) {
				d.add(note)
			}
		}
		if strings.TrimSpace(msg.Text) != "" {
			msg.Role = handoff.RoleUser
			d.add(msg)
		}
	case "assistant":
		msg.Role = handoff.RoleAssistant
		if u := m.Usage; u != nil {
			if u.Model != "" {
				msg.Model, d.t.Session.Model = u.Model, u.Model
			}
			if u.Input+u.CacheRead+u.CacheCreate > 0 {
				msg.Usage = &handoff.ProviderUsage{InputTokens: u.Input, OutputTokens: u.Output, CacheCreationInputTokens: u.CacheCreate, CacheReadInputTokens: u.CacheRead}
			}
		}
		if msg.Text != "" || msg.Thinking != "" || len(msg.ToolCalls) > 0 {
			d.add(msg)
		}
		if m.State != nil {
			switch m.State.Type {
			case "cancelled":
				d.add(handoff.Message{Line: n, Timestamp: ts, Role: handoff.RoleSystem, Meta: true, Interrupt: true, Text: "[the person stopped the response]"})
			case "error":
				d.add(handoff.Message{Line: n, Timestamp: ts, Role: handoff.RoleSystem, Meta: true, Text: "error: " + firstNonEmpty(ampText(m.State.Error), "the request failed")})
			}
		}
	case "info":
		if summary != "" {
			d.add(handoff.Message{ID: id, Line: n, Timestamp: ts, Role: handoff.RoleUser, CompactSummary: true, Text: summary})
		} else if strings.TrimSpace(msg.Text) != "" {
			msg.Role, msg.Meta = handoff.RoleSystem, true
			d.add(msg)
		}
	default:
		return d.recordError(n, fmt.Errorf("message role %q is not user, assistant or info", m.Role))
	}
	return nil
}

// stoppedSinceAssistant reports whether the stop of the last assistant
// turn was already said (its state was cancelled).
func stoppedSinceAssistant(d *Decoder) bool {
	for i := len(d.t.Messages) - 1; i >= 0; i-- {
		m := d.t.Messages[i]
		if m.Interrupt {
			return true
		}
		if m.Role == handoff.RoleAssistant {
			return false
		}
	}
	return false
}

// result maps a tool_result block; the note says when the person
// stopped or refused the call.
func (a *ampThread) result(d *Decoder, b ampBlock) (handoff.ToolResult, string) {
	r := handoff.ToolResult{CallID: b.ToolUseID, Name: firstNonEmpty(a.names[b.ToolUseID], "tool")}
	if b.Run == nil {
		return r, ""
	}
	out := firstNonEmpty(ampText(b.Run.Result), ampText(b.Run.Progress))
	note := ""
	switch b.Run.Status {
	case "done":
	case "cancelled":
		r.IsError, note = true, "[the person stopped the response]"
		out = firstNonEmpty(out, "[cancelled]")
	case "rejected-by-user":
		r.IsError = true
		out = firstNonEmpty(out, "[the person refused this call]")
	case "error":
		r.IsError = true
		out = joinText(ampText(b.Run.Error), out)
	}
	var res struct {
		ExitCode *int `json:"exitCode"`
	}
	if decodeValid(b.Run.Result, &res) == nil && res.ExitCode != nil {
		r.ExitCode = res.ExitCode
	}
	r.Content, r.OriginalBytes = d.clipOutput(out)
	return r, note
}

// ampText renders a result, progress or error value (valid JSON, from a
// decoded message): a string, an object's output / message / content,
// lines of strings, or the JSON.
func ampText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	switch raw[0] {
	case '"':
		return jsonText(raw)
	case '[':
		var items []json.RawMessage
		_ = decodeValid(raw, &items)
		var out string
		for _, it := range items {
			out = joinText(out, ampText(it))
		}
		return out
	case '{':
		var obj map[string]json.RawMessage
		_ = decodeValid(raw, &obj)
		for _, k := range []string{"output", "message", "content", "text", "result"} {
			if s := ampText(obj[k]); s != "" {
				return s
			}
		}
	}
	return string(compactJSON(raw))
}

// compactJSON is a JSON value without insignificant space ({} for
// none), as the other readers' inputs are.
func compactJSON(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}")
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

var (
	ampIDRe     = lazyRE(`"id"\s*:\s*"T-[0-9a-fA-F-]{8,}"`)
	ampMarkerRe = lazyRE(`"toolUseID"\s*:|"agentMode"\s*:|"messageId"\s*:\s*\d|"env"\s*:\s*\{\s*"initial"`)
)

// ampDoc recognises an Amp thread.
func ampDoc(b []byte) bool {
	return b[0] == '{' && !vscRequestsRe.Match(b) && (ampIDRe.Match(b) || ampMarkerRe.Match(b)) && messagesKeyRe.Match(b)
}

// maxAmpScan bounds how many of the newest Amp threads are opened to
// read their directory.
const maxAmpScan = 200

// findAmp lists Amp's threads whose workspace is dir (the uri of a tree
// in env.initial, looked for in the head of the file).
func findAmp(_ context.Context, home, dir string) []SessionRef {
	all := filesIn(filepath.Join(home, ".local", "share", "amp", "threads", "T-*.json"))
	sort.Slice(all, func(i, j int) bool { return all[i].Updated.After(all[j].Updated) })
	want := []string{`"file://` + dir + `"`, `"cwd":"` + dir + `"`}
	var out []SessionRef
	for _, f := range all[:min(len(all), maxAmpScan)] {
		head := fileHead(f.Path, 256<<10)
		for _, w := range want {
			if bytes.Contains(head, []byte(w)) {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// fileHead reads up to n bytes from the start of a file.
func fileHead(path string, n int64) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, n))
	return b
}

package transcript

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
)

// Google Antigravity keeps the IDE's conversations in
// ~/.gemini/antigravity/conversations/<id>.pb, which are encrypted (their
// first bytes match no compression or protobuf framing; the IDE serves
// them only through its language server's GetCascadeTrajectory call), so
// handoff cannot read those. The Antigravity CLI writes a readable
// transcript beside each conversation's artifacts:
// ~/.gemini/antigravity-cli/brain/<id>/.system_generated/logs/
// transcript.jsonl (as read by jazzyalex/agent-sessions
// AgentSessions/Services/AntigravityTranscriptParser.swift and its
// fixture Resources/Fixtures/stage0/agents/antigravity/cli_small.jsonl),
// one step a line: {step_index, source: USER_EXPLICIT | MODEL | SYSTEM,
// type, status, created_at, content, thinking, tool_calls: [{name, args:
// {key: JSON-encoded value}}], truncated_fields}. Types: USER_INPUT (the
// request inside <USER_REQUEST>, a model change in
// <USER_SETTINGS_CHANGE>), PLANNER_RESPONSE (the model's answer,
// reasoning and calls), a step per tool run (RUN_COMMAND, VIEW_FILE,
// LIST_DIRECTORY, CODE_ACTION, SEARCH_WEB, …: results, answering the
// pending calls in order), CHECKPOINT (a compaction's resume summary),
// SYSTEM_MESSAGE and CONVERSATION_HISTORY (harness text). A status other
// than DONE on a tool step is a failed result; a field named in
// truncated_fields was clipped by the CLI.

type agStep struct {
	Index     int    `json:"step_index"`
	Source    string `json:"source"`
	Type      string `json:"type"`
	Status    string `json:"status"`
	CreatedAt string `json:"created_at"`
	Content   string `json:"content"`
	Thinking  string `json:"thinking"`
	ToolCalls []struct {
		Name string                     `json:"name"`
		Args map[string]json.RawMessage `json:"args"`
	} `json:"tool_calls"`
	Truncated []string `json:"truncated_fields"`
}

type agParser struct {
	// open lists the calls of the last planner response not yet
	// answered, in order.
	open []handoff.ToolCall
}

func newAntigravityParser() formatParser { return &agParser{} }

// finish names the session by its conversation folder
// (brain/<id>/.system_generated/logs/transcript.jsonl).
func (p *agParser) finish(d *Decoder) error {
	if d.t.Session.ID == "" {
		parts := strings.Split(filepath.ToSlash(d.t.Session.Source), "/")
		for i := len(parts) - 2; i >= 0; i-- {
			if parts[i] == "brain" {
				d.t.Session.ID = parts[i+1]
				break
			}
		}
	}
	return nil
}

// pending is empty: every step is committed as it is read.
func (p *agParser) pending() []handoff.Message { return nil }

func (p *agParser) record(d *Decoder, line []byte, n int) error {
	d.t.Session.Agent = "antigravity"
	var s agStep
	if err := decodeJSON(line, &s); err != nil {
		return fmt.Errorf("malformed step: %w", jsonReason(err))
	}
	ts := parseTime(s.CreatedAt)
	d.seeTime(ts)
	content := s.Content
	if agTruncated(s.Truncated, "content") && content != "" {
		content += "\n[clipped by Antigravity]"
	}
	switch s.Type {
	case "USER_INPUT":
		req, model := agUserRequest(s.Content)
		if model != "" {
			d.t.Session.Model = model
		}
		m := handoff.Message{ID: strconv.Itoa(s.Index), Line: n, Timestamp: ts, Role: handoff.RoleUser, Text: req}
		if req == "" {
			m.Text, m.Meta = strings.TrimSpace(s.Content), true
		}
		if strings.TrimSpace(m.Text) != "" {
			d.add(m)
		}
	case "PLANNER_RESPONSE":
		m := handoff.Message{ID: strconv.Itoa(s.Index), Line: n, Timestamp: ts, Role: handoff.RoleAssistant, Model: d.t.Session.Model,
			Text: content, Thinking: s.Thinking}
		p.open = p.open[:0]
		for i, c := range s.ToolCalls {
			call := handoff.ToolCall{ID: fmt.Sprintf("step%d-%d", s.Index, i), Name: firstNonEmpty(c.Name, "tool"), Input: agArgs(c.Args)}
			if cwd := agStringArg(c.Args["Cwd"]); cwd != "" && d.t.Session.CWD == "" {
				d.t.Session.CWD = cwd
			}
			m.ToolCalls = append(m.ToolCalls, call)
			p.open = append(p.open, call)
		}
		if m.Text != "" || m.Thinking != "" || len(m.ToolCalls) > 0 {
			d.add(m)
		}
	case "CHECKPOINT":
		if strings.TrimSpace(content) != "" {
			d.add(handoff.Message{ID: strconv.Itoa(s.Index), Line: n, Timestamp: ts, Role: handoff.RoleUser, CompactSummary: true, Text: content})
		}
	case "SYSTEM_MESSAGE", "CONVERSATION_HISTORY", "EPHEMERAL_MESSAGE":
		if strings.TrimSpace(content) != "" {
			d.add(handoff.Message{ID: strconv.Itoa(s.Index), Line: n, Timestamp: ts, Role: handoff.RoleSystem, Meta: true, Text: content})
		}
	default:
		if s.Source != "MODEL" {
			if strings.TrimSpace(content) != "" {
				d.add(handoff.Message{ID: strconv.Itoa(s.Index), Line: n, Timestamp: ts, Role: handoff.RoleSystem, Meta: true, Text: content})
			}
			return nil
		}
		p.result(d, s, content, n)
	}
	return nil
}

// result answers the next pending call with a tool step (or records the
// step as a call and result of its own when none is pending).
func (p *agParser) result(d *Decoder, s agStep, content string, n int) {
	ts := parseTime(s.CreatedAt)
	var call handoff.ToolCall
	if len(p.open) > 0 {
		call, p.open = p.open[0], p.open[1:]
	} else {
		call = handoff.ToolCall{ID: fmt.Sprintf("step%d", s.Index), Name: strings.ToLower(s.Type), Input: json.RawMessage("{}")}
		d.add(handoff.Message{ID: strconv.Itoa(s.Index), Line: n, Timestamp: ts, Role: handoff.RoleAssistant, Model: d.t.Session.Model, ToolCalls: []handoff.ToolCall{call}})
	}
	r := handoff.ToolResult{CallID: call.ID, Name: call.Name, IsError: s.Status != "" && s.Status != "DONE"}
	if m := agExitCode(content); m != nil {
		if code, err := strconv.Atoi(m[1]); err == nil {
			r.ExitCode = &code
		}
	}
	r.Content, r.OriginalBytes = d.clipOutput(content)
	d.add(handoff.Message{ID: strconv.Itoa(s.Index), Line: n, Timestamp: ts, Role: handoff.RoleTool, ToolResults: []handoff.ToolResult{r}})
}

// agExitCode is agExitRe.FindStringSubmatch(content), with the search
// started at the first "exit" (any case: its letters fold only to ASCII
// ones), where any match starts, instead of stepping the case-folding
// regexp over a whole build log that says no such thing.
func agExitCode(content string) []string {
	for i := 0; ; {
		k := strings.IndexAny(content[i:], "xX")
		if k < 0 {
			return nil
		}
		if j := i + k - 1; j >= 0 && j+4 <= len(content) && strings.EqualFold(content[j:j+4], "exit") {
			return agExitRe.FindStringSubmatch(content[j:])
		}
		i += k + 1
	}
}

var (
	agExitRe  = lazyRE(`(?i)exit(?:ed with)? code:? (-?\d+)`)
	agModelRe = lazyRE("Model Selection`?\\s+from\\s+.+?\\s+to\\s+([^\\n]+?)\\.?\\s*(?:\\n|$)")
)

// agUserRequest reads the person's request from a USER_INPUT step (the
// inside of <USER_REQUEST>, else the text before any metadata block),
// and the model the person switched to, if the step says so.
func agUserRequest(content string) (string, string) {
	model := ""
	if m := agModelRe.FindStringSubmatch(content); m != nil {
		model = strings.TrimSpace(m[1])
	}
	if i := strings.Index(content, "<USER_REQUEST>"); i >= 0 {
		rest := content[i+len("<USER_REQUEST>"):]
		if j := strings.Index(rest, "</USER_REQUEST>"); j >= 0 {
			return strings.TrimSpace(rest[:j]), model
		}
	}
	out := content
	for _, tag := range []string{"<ADDITIONAL_METADATA>", "<USER_SETTINGS_CHANGE>"} {
		if i := strings.Index(out, tag); i >= 0 {
			out = out[:i]
		}
	}
	return strings.TrimSpace(out), model
}

// agArgs decodes a call's arguments, each a JSON-encoded value, with the
// keys that name a command, a file or an edit's text (Cascade's
// CommandLine, TargetFile, AbsolutePath, CodeContent, TargetContent,
// ReplacementContent) given the names other agents use.
func agArgs(args map[string]json.RawMessage) json.RawMessage {
	out := make(map[string]json.RawMessage, len(args))
	for k, v := range args {
		var s string
		if decodeJSON(v, &s) == nil && json.Valid([]byte(s)) && strings.TrimSpace(s) != "" {
			v = json.RawMessage(s)
		}
		switch k {
		case "CommandLine":
			k = "command"
		case "TargetFile", "AbsolutePath":
			k = "file_path"
		case "CodeContent":
			k = "content"
		case "TargetContent":
			k = "old_string"
		case "ReplacementContent":
			k = "new_string"
		}
		out[k] = v
	}
	b, err := json.Marshal(out)
	if err != nil {
		return json.RawMessage("{}")
	}
	return b
}

func agTruncated(fields []string, name string) bool {
	for _, f := range fields {
		if f == name {
			return true
		}
	}
	return false
}

// antigravityLine recognises a transcript step.
func antigravityLine(l *jsonLine) bool {
	return l.has("step_index") && l.typ != "" && l.has("source") && l.has("status")
}

// agStringArg reads a string argument, JSON-encoded ("\"/w\"") or plain.
func agStringArg(raw json.RawMessage) string {
	var s string
	if decodeJSON(raw, &s) != nil {
		return ""
	}
	var inner string
	if decodeJSON([]byte(s), &inner) == nil {
		return inner
	}
	return s
}

// findAntigravity lists the Antigravity CLI transcripts that mention dir
// (a call's JSON-encoded Cwd or path, or a file:// URI under it) in
// their first 256 KiB; the transcript records no working directory of
// its own.
func findAntigravity(_ context.Context, home, dir string) []SessionRef {
	all := filesIn(filepath.Join(home, ".gemini", "antigravity-cli", "brain", "*", ".system_generated", "logs", "transcript.jsonl"))
	sort.Slice(all, func(i, j int) bool { return all[i].Updated.After(all[j].Updated) })
	marks := [][]byte{[]byte(`\"` + dir + `\"`), []byte(`\"` + dir + `/`), []byte("file://" + dir + "/")}
	var out []SessionRef
	for _, f := range all[:min(len(all), maxAmpScan)] {
		head := fileHead(f.Path, 256<<10)
		for _, m := range marks {
			if bytes.Contains(head, m) {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

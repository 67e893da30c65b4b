package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/handoff-cli/handoff"
)

// OpenCode (sst/opencode, now anomalyco/opencode) keeps a session as
// messages, each an info object and its parts
// (packages/opencode/src/session/message-v2.ts): `opencode export <id>`
// prints {info: <session>, messages: [{info, parts}]}; the storage
// directory holds the same info and parts as one JSON file each; 1.2+
// keeps them in opencode.db (tables session, message, part, with the
// JSON in a data column). All three are read through ocReader.message.
//
// A user message's text parts are the person's words (synthetic ones,
// the harness's file reads and reminders, are Meta); a compaction part
// asks for a summary, and the assistant message that answers it
// (summary: true) is a CompactSummary. An assistant message is one or
// more steps (step-start … step-finish, one model request each): each
// step becomes an assistant Message with its text, reasoning and tool
// calls, and the usage of its step-finish (input excludes the cache,
// as Anthropic reports it), followed by a tool Message with the results
// of the calls that finished (status completed, or error with
// IsError; bash's metadata.exit is the exit code). Tool inputs keep
// OpenCode's tool names (bash, edit, write, patch, todowrite, …) with
// their camelCase keys renamed to the names the rest of handoff reads
// (filePath → file_path, oldString → old_string, patchText → patch). An
// assistant error becomes a system Message; an aborted one
// (MessageAbortedError) is the person stopping the turn.

type ocSession struct {
	ID        string `json:"id"`
	ParentID  string `json:"parentID"`
	Title     string `json:"title"`
	Directory string `json:"directory"`
	Version   string `json:"version"`
	Time      struct {
		Created int64 `json:"created"`
		Updated int64 `json:"updated"`
	} `json:"time"`
}

type ocInfo struct {
	ID         string `json:"id"`
	Role       string `json:"role"`
	ModelID    string `json:"modelID"`
	ProviderID string `json:"providerID"`
	Time       struct {
		Created   int64 `json:"created"`
		Completed int64 `json:"completed"`
	} `json:"time"`
	Model *struct {
		ModelID string `json:"modelID"`
	} `json:"model"`
	Path *struct {
		Cwd string `json:"cwd"`
	} `json:"path"`
	Summary json.RawMessage `json:"summary"`
	Error   *struct {
		Name string `json:"name"`
		Data struct {
			Message string `json:"message"`
		} `json:"data"`
	} `json:"error"`
}

type ocTokens struct {
	Input  int `json:"input"`
	Output int `json:"output"`
	Cache  struct {
		Read  int `json:"read"`
		Write int `json:"write"`
	} `json:"cache"`
}

type ocPart struct {
	Type        string `json:"type"`
	Text        string `json:"text"`
	Synthetic   bool   `json:"synthetic"`
	Ignored     bool   `json:"ignored"`
	Tool        string `json:"tool"`
	CallID      string `json:"callID"`
	Filename    string `json:"filename"`
	Prompt      string `json:"prompt"`
	Description string `json:"description"`
	Agent       string `json:"agent"`
	Attempt     int    `json:"attempt"`
	State       *struct {
		Status   string          `json:"status"`
		Input    json.RawMessage `json:"input"`
		Output   string          `json:"output"`
		Error    string          `json:"error"`
		Metadata struct {
			Exit *int `json:"exit"`
		} `json:"metadata"`
	} `json:"state"`
	Tokens *ocTokens `json:"tokens"`
	Error  *struct {
		Data struct {
			Message string `json:"message"`
		} `json:"data"`
	} `json:"error"`
}

// ocMessage is one message with its parts, as the export holds it.
type ocMessage struct {
	Info  ocInfo            `json:"info"`
	Parts []json.RawMessage `json:"parts"`
}

// ocReader maps OpenCode messages onto handoff Messages.
type ocReader struct {
	// compacting is set after a compaction request: the next assistant
	// message is the summary even without its summary flag.
	compacting bool
}

// session records the session's own metadata.
func (r *ocReader) session(d *Decoder, s ocSession) {
	d.t.Session.Agent = "opencode"
	if s.ID != "" {
		d.t.Session.ID = s.ID
	}
	if s.Directory != "" {
		d.t.Session.CWD = s.Directory
	}
	d.t.Session.Version = s.Version
	d.t.Session.Title = s.Title
	d.seeTime(msTime(s.Time.Created))
}

// message maps one message and its parts; n numbers it for warnings.
// decode reads a part: the export message's decoder (jsonDecoder), or
// decodeJSON for a stored part.
func (r *ocReader) message(d *Decoder, info ocInfo, parts []json.RawMessage, n int, decode func([]byte, any) error) error {
	d.t.Session.Agent = "opencode"
	ts := msTime(info.Time.Created)
	d.seeTime(ts)
	d.seeTime(msTime(info.Time.Completed))
	var ps []ocPart
	for i, raw := range parts {
		var p ocPart
		if err := decode(raw, &p); err != nil {
			if err := d.recordError(n, fmt.Errorf("message %s part %d: %w", info.ID, i+1, jsonReason(err))); err != nil {
				return err
			}
			continue
		}
		ps = append(ps, p)
	}
	switch info.Role {
	case "user":
		r.user(d, info, ps, ts, n)
	case "assistant":
		r.assistant(d, info, ps, ts, n)
	default:
		return d.recordError(n, fmt.Errorf("message %s has role %q, neither user nor assistant", info.ID, info.Role))
	}
	return nil
}

func (r *ocReader) user(d *Decoder, info ocInfo, parts []ocPart, ts time.Time, n int) {
	said, injected := "", ""
	compaction := false
	for _, p := range parts {
		switch p.Type {
		case "text":
			switch {
			case p.Ignored:
			case p.Synthetic:
				injected = joinText(injected, p.Text)
			default:
				said = joinText(said, p.Text)
			}
		case "file":
			said = joinText(said, "[file: "+firstNonEmpty(p.Filename, "attachment")+"]")
		case "agent":
			said = joinText(said, "@"+p.Agent)
		case "subtask":
			said = joinText(said, fmt.Sprintf("[subtask for %s: %s]", firstNonEmpty(p.Agent, "agent"), firstNonEmpty(p.Description, p.Prompt)))
		case "compaction":
			compaction = true
		}
	}
	base := handoff.Message{ID: info.ID, Timestamp: ts, Line: n, Role: handoff.RoleUser}
	if info.Model != nil && d.t.Session.Model == "" {
		d.t.Session.Model = info.Model.ModelID
	}
	if strings.TrimSpace(said) != "" {
		m := base
		m.Text = said
		d.add(m)
	}
	if strings.TrimSpace(injected) != "" {
		m := base
		m.Text, m.Meta = injected, true
		d.add(m)
	}
	if compaction {
		r.compacting = true
		m := base
		m.Text, m.Meta = "[compaction requested: summarise the conversation so far]", true
		d.add(m)
	}
}

func (r *ocReader) assistant(d *Decoder, info ocInfo, parts []ocPart, ts time.Time, n int) {
	if info.Path != nil && info.Path.Cwd != "" && d.t.Session.CWD == "" {
		d.t.Session.CWD = info.Path.Cwd
	}
	if info.ModelID != "" {
		d.t.Session.Model = info.ModelID
	}
	summary := r.compacting || string(info.Summary) == "true"
	r.compacting = false
	step := handoff.Message{ID: info.ID, Timestamp: ts, Line: n, Role: handoff.RoleAssistant, Model: info.ModelID}
	var results []handoff.ToolResult
	steps := 0
	flush := func() {
		if step.Text == "" && step.Thinking == "" && len(step.ToolCalls) == 0 {
			if step.Usage != nil && len(d.t.Messages) > 0 {
				// A step that only finished: its usage is the last turn's.
				if last := &d.t.Messages[len(d.t.Messages)-1]; last.Role == handoff.RoleAssistant && last.Usage == nil {
					last.Usage = step.Usage
				}
			}
			step.Usage = nil
			return
		}
		m := step
		if steps++; steps > 1 {
			// One message, several requests: each step its own id, so
			// usage deduplicated by id keeps every step's.
			m.ID = fmt.Sprintf("%s/%d", info.ID, steps)
		}
		if summary && len(m.ToolCalls) == 0 && m.Text != "" {
			m.Role, m.CompactSummary = handoff.RoleUser, true
		}
		d.add(m)
		if len(results) > 0 {
			d.add(handoff.Message{Timestamp: ts, Line: n, Role: handoff.RoleTool, ToolResults: results})
		}
		step.Text, step.Thinking, step.ToolCalls, step.Usage, results = "", "", nil, nil, nil
	}
	for _, p := range parts {
		switch p.Type {
		case "step-start":
			flush()
		case "text":
			if !p.Ignored {
				step.Text = joinText(step.Text, p.Text)
			}
		case "reasoning":
			step.Thinking = joinText(step.Thinking, p.Text)
		case "tool":
			call, res, ok := d.ocTool(p)
			if !ok {
				continue
			}
			step.ToolCalls = append(step.ToolCalls, call)
			if res != nil {
				results = append(results, *res)
			}
		case "step-finish":
			if p.Tokens != nil {
				step.Usage = &handoff.ProviderUsage{InputTokens: p.Tokens.Input, OutputTokens: p.Tokens.Output,
					CacheReadInputTokens: p.Tokens.Cache.Read, CacheCreationInputTokens: p.Tokens.Cache.Write}
			}
			flush()
		case "retry":
			msg := ""
			if p.Error != nil {
				msg = p.Error.Data.Message
			}
			d.add(handoff.Message{Timestamp: ts, Line: n, Role: handoff.RoleSystem, Meta: true,
				Text: fmt.Sprintf("error: request failed, retry %d: %s", p.Attempt, msg)})
		}
	}
	flush()
	if e := info.Error; e != nil {
		m := handoff.Message{Timestamp: ts, Line: n, Role: handoff.RoleSystem, Meta: true,
			Text: "error: " + e.Name + ": " + e.Data.Message}
		if e.Name == "MessageAbortedError" {
			m.Text, m.Interrupt = "[the person stopped the response]", true
		}
		d.add(m)
	}
}

// ocKeys renames OpenCode's camelCase tool input keys to the names
// handoff's facts read.
var ocKeys = map[string]string{
	"filePath": "file_path", "oldString": "old_string", "newString": "new_string",
	"replaceAll": "replace_all", "patchText": "patch",
}

// ocTool maps a tool part to its call and, once it finished, its result.
func (d *Decoder) ocTool(p ocPart) (handoff.ToolCall, *handoff.ToolResult, bool) {
	if p.State == nil || p.Tool == "" {
		return handoff.ToolCall{}, nil, false
	}
	call := handoff.ToolCall{ID: p.CallID, Name: p.Tool, Input: renameKeys(p.State.Input, ocKeys)}
	res := &handoff.ToolResult{CallID: p.CallID, Name: p.Tool}
	switch p.State.Status {
	case "completed":
		res.Content, res.OriginalBytes = d.clipOutput(p.State.Output)
		res.ExitCode = p.State.Metadata.Exit
	case "error":
		res.Content, res.OriginalBytes = d.clipOutput(p.State.Error)
		res.IsError = true
		res.ExitCode = p.State.Metadata.Exit
	default: // pending or running: in flight
		res = nil
	}
	return call, res, true
}

// renameKeys renames the top-level keys of a JSON object, compacted
// (the same input reads the same from a pretty-printed export and from a
// database); other input is returned as it is.
func renameKeys(raw json.RawMessage, names map[string]string) json.RawMessage {
	var obj map[string]json.RawMessage
	if len(raw) == 0 || raw[0] != '{' || decodeJSON(raw, &obj) != nil {
		return raw
	}
	var compact bytes.Buffer
	if json.Compact(&compact, raw) == nil {
		raw = compact.Bytes()
	}
	changed := false
	for from, to := range names {
		if v, ok := obj[from]; ok {
			if _, taken := obj[to]; !taken {
				obj[to] = v
				delete(obj, from)
				changed = true
			}
		}
	}
	if !changed {
		return raw
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return raw
	}
	return out
}

// msTime reads a millisecond Unix timestamp.
func msTime(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

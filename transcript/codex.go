package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
)

// OpenAI Codex CLI rollout JSONL (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl).
//
// Every line is {"timestamp","type","payload"}. Representation choices:
//
//   - response_item is the record of what the model saw and said (OpenAI
//     Responses API items). message items become user/assistant/system
//     Messages (developer → system, Meta); user text that is only harness
//     injection (<environment_context>, <user_instructions>, AGENTS.md)
//     is Meta. function_call, custom_tool_call (apply_patch), local_shell_call,
//     web_search_call and tool_search_call are ToolCalls; a call directly
//     after an assistant message joins it, otherwise it starts a new
//     assistant Message. reasoning summaries become the Thinking of the
//     next assistant Message. Each *_output item is one RoleTool Message.
//   - event_msg user_message / agent_message / agent_reasoning repeat
//     response items and are NOT turned into messages. token_count sets
//     Usage on the latest assistant Message from last_token_usage (the
//     request's own prompt) and model_context_window — never from
//     total_token_usage, which is cumulative billing. exec_command_end and
//     patch_apply_end supply exit codes and failure flags by call_id.
//     error events become system Messages (Meta).
//   - compacted carries the history forward: its message, or when empty
//     the text of its replacement_history, becomes a user Message with
//     CompactSummary set.
//   - update_plan calls keep their arguments object ({"plan":[…]}) as
//     Input, which is what the extractor reads as the task list.
//   - User text goes through userWords: harness envelopes are Meta, a
//     custom prompt's expansion is cut down to the fenced input it was
//     given. compacted's replacement_history is rendered as "User: …" /
//     "Assistant: …" lines, harness text left out.
//   - Tool shapes (FORMATS.md lists them by version): exit codes come from
//     the output header ("Exit code: N", "Process exited with code N"),
//     metadata.exit_code, or exec_command_end; an output without a header
//     that says the tool could not run ("exec_command failed: SandboxDenied
//     …", "apply_patch verification failed: …") is IsError. A unified-exec
//     process still running when exec_command returned ("Process running
//     with session ID N") is continued by write_stdin; its final status,
//     from a later write_stdin output or from exec_command_end, is put on
//     the exec_command's result (the call that holds the command), and the
//     write_stdin result keeps its text without the exit code, so one run
//     counts once. An end event whose output never came becomes the result.
//     apply_patch run through a shell here-document becomes an apply_patch
//     call with the patch as Input. A code-mode "exec" script keeps its own
//     call and result and adds one call per nested tools.X(…) call (see
//     codexcode.go).
//   - A forked subagent's rollout (first session_meta with forked_from_id
//     or source.subagent, then the parent's) has the child's id; the
//     parent history replayed up to the spawn call's output is Sidechain,
//     and the child's first own request is SessionInfo.Subagent.
//   - SessionInfo.EndSignal is "task complete" or "turn aborted" when that
//     event is the last thing that happened (token counts aside).

type codexLine struct {
	Timestamp json.RawMessage `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

// codexRecord is codexLine with its payload decoded in the same pass, the
// common case of codexParser.record.
type codexRecord struct {
	Timestamp string        `json:"timestamp"`
	Type      string        `json:"type"`
	Payload   *codexPayload `json:"payload"`
}

type codexPayload struct {
	Type string `json:"type"`

	// session_meta
	ID           string          `json:"id"`
	ForkedFromID string          `json:"forked_from_id"`
	Source       json.RawMessage `json:"source"`
	CWD          string          `json:"cwd"`
	CLIVersion   string          `json:"cli_version"`
	Originator   string          `json:"originator"`
	Git          *codexGit       `json:"git"`

	// turn_context
	Model string `json:"model"`

	// response_item
	Role string `json:"role"`
	// Content and Output (a tool's whole output) slice the line: read
	// while it is current, they are not copied first. So do the
	// json.RawMessage fields when decodeCodexLine's walk reads the line.
	Content   rawJSON         `json:"content"`
	Summary   json.RawMessage `json:"summary"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	Action    json.RawMessage `json:"action"`
	CallID    string          `json:"call_id"`
	Output    rawJSON         `json:"output"`

	// event_msg
	Info               *codexTokenInfo `json:"info"`
	ModelContextWindow json.RawMessage `json:"model_context_window"`
	ExitCode           json.RawMessage `json:"exit_code"`
	Success            json.RawMessage `json:"success"`
	Message            json.RawMessage `json:"message"`
	Reason             json.RawMessage `json:"reason"`
	AggregatedOutput   string          `json:"aggregated_output"`

	// compacted
	ReplacementHistory []json.RawMessage `json:"replacement_history"`
}

type codexGit struct {
	Branch string `json:"branch"`
}

type codexTokenInfo struct {
	LastTokenUsage     *codexTokenUsage `json:"last_token_usage"`
	ModelContextWindow json.RawMessage  `json:"model_context_window"`
}

type codexTokenUsage struct {
	InputTokens       int `json:"input_tokens"`
	CachedInputTokens int `json:"cached_input_tokens"`
	OutputTokens      int `json:"output_tokens"`
}

// resultRef locates a ToolResult already emitted.
type resultRef struct{ msg, res int }

type codexParser struct {
	// turnOpen: a task_started with no task_complete or turn_aborted since.
	turnOpen   bool
	model      string
	thinking   string            // reasoning waiting for its assistant message
	toolNames  map[string]string // call_id → tool name
	results    map[string]resultRef
	exitCodes  map[string]int             // exit codes reported before their output
	endEvents  map[string]handoff.Message // exec_command_end without output yet, as the result to emit if none comes
	failed     map[string]bool            // failures reported before their output
	lastAssist int                        // index of the latest assistant Message, -1 if none

	// Unified exec: a process still running when exec_command returned
	// is continued by write_stdin calls naming its session id.
	sessions map[string]string   // session id → call_id of the exec_command that started it
	stdin    map[string]string   // write_stdin call_id → session id
	running  map[string]bool     // call_ids whose output said the process was still running
	nested   map[string][]string // code-mode exec call_id → its nested calls' ids

	// Subagent rollouts (see record).
	metas     int  // session_meta lines seen
	replay    bool // reading the parent's replayed history
	awaitTask bool // the child's own first request is still to come

	end string // the end signal of the latest event, "" once anything follows it

	payload codexPayload // decodeCodexLine's scratch, reused line after line
}

func newCodexParser() *codexParser {
	return &codexParser{toolNames: map[string]string{}, results: map[string]resultRef{},
		exitCodes: map[string]int{}, failed: map[string]bool{}, lastAssist: -1,
		sessions: map[string]string{}, stdin: map[string]string{}, running: map[string]bool{},
		nested: map[string][]string{}, endEvents: map[string]handoff.Message{}}
}

func (p *codexParser) pending() []handoff.Message { return nil }

func (p *codexParser) finish(d *Decoder) error {
	if d.t.Session.Model == "" {
		d.t.Session.Model = p.model
	}
	// A command whose end event came but whose output never did (the
	// session stopped first): its result is the event's.
	var late []handoff.Message
	for id, m := range p.endEvents {
		if _, done := p.results[id]; !done {
			late = append(late, m)
		}
	}
	slices.SortFunc(late, func(a, b handoff.Message) int { return a.Line - b.Line })
	for _, m := range late {
		d.add(m)
	}
	d.t.Session.EndSignal = p.end
	if p.end == "" && p.turnOpen {
		d.t.Session.EndSignal = EndTurnRunning
	}
	return nil
}

func (p *codexParser) record(d *Decoder, line []byte, lineNo int) error {
	if isBlank(line) {
		return nil
	}
	// Each line is decoded once: the envelope and its payload object in
	// one walk (decodeCodexLine). Anything else (no payload or a null
	// one, a payload that is not an object, no type, a timestamp that is
	// not a string, a field of the wrong type) takes the two-step path
	// below, which reads it as it always has and words its errors.
	var rec codexRecord
	if decodeCodexLine(line, &rec, &p.payload) == nil && rec.Payload != nil && rec.Type != "" {
		return p.envelope(d, rec.Type, rec.Timestamp, rec.Payload, lineNo)
	}
	var l codexLine
	if err := json.Unmarshal(line, &l); err != nil {
		return fmt.Errorf("malformed JSON: %w", jsonReason(err))
	}
	if len(l.Payload) == 0 {
		// Rollouts before the {timestamp,type,payload} envelope (Codex
		// CLI ≤ 0.2x): a first line {id, timestamp, instructions}, then
		// bare response items and {"record_type":"state"} lines.
		return p.legacy(d, line, lineNo, l.Type)
	}
	if l.Type == "" {
		return errors.New("line has no type")
	}
	var pl codexPayload
	if len(l.Payload) > 0 && l.Payload[0] == '{' {
		if err := json.Unmarshal(l.Payload, &pl); err != nil {
			return fmt.Errorf("malformed %s payload: %w", l.Type, jsonReason(err))
		}
	}
	return p.envelope(d, l.Type, stringValue(l.Timestamp), &pl, lineNo)
}

// envelope handles one {timestamp,type,payload} line, its payload decoded.
func (p *codexParser) envelope(d *Decoder, typ, timestamp string, pl *codexPayload, lineNo int) error {
	ts := parseTime(timestamp)
	d.seeTime(ts)
	base := handoff.Message{Timestamp: ts, Line: lineNo, Sidechain: p.replay}
	p.trackEnd(typ, pl)
	switch typ {
	case "session_meta":
		s := &d.t.Session
		p.metas++
		switch {
		case p.metas == 1:
			// A forked child names its parent; its own task is the
			// first request after the parent's replayed history.
			p.awaitTask = pl.ForkedFromID != "" || bytes.Contains(pl.Source, []byte(`"subagent"`))
		case p.awaitTask && pl.ID != "" && pl.ID != s.ID:
			// The parent's session_meta: its history is replayed
			// verbatim up to the spawn call; it is not the child's.
			p.replay = true
		}
		if s.ID == "" {
			s.ID = pl.ID
		}
		if s.CWD == "" {
			s.CWD = pl.CWD
		}
		if pl.CLIVersion != "" {
			s.Version = pl.CLIVersion
		}
		if pl.Git != nil && pl.Git.Branch != "" {
			s.GitBranch = pl.Git.Branch
		}
	case "turn_context":
		if pl.Model != "" {
			p.model = pl.Model
			d.t.Session.Model = pl.Model
		}
		if pl.CWD != "" && d.t.Session.CWD == "" {
			d.t.Session.CWD = pl.CWD
		}
	case "response_item":
		p.item(d, base, pl)
	case "event_msg":
		p.event(d, base, pl)
	case "compacted":
		text := stringValue(pl.Message)
		if strings.TrimSpace(text) == "" {
			for _, raw := range pl.ReplacementHistory {
				var it codexPayload
				if json.Unmarshal(raw, &it) != nil || it.Type != "message" {
					continue
				}
				t, _ := codexContent(it.Content)
				switch it.Role {
				case "user":
					if words, meta := userWords(t); !meta && strings.TrimSpace(words) != "" {
						text = joinText(text, "User: "+words)
					}
				case "assistant":
					if strings.TrimSpace(t) != "" {
						text = joinText(text, "Assistant: "+t)
					}
				}
			}
		}
		base.Role = handoff.RoleUser
		base.Text = text
		base.CompactSummary = true
		if strings.TrimSpace(text) == "" {
			base.Text = "[conversation compacted]"
		}
		d.add(base)
		p.thinking = ""
	}
	return nil
}

// legacy reads a line of the envelope-less rollout format.
func (p *codexParser) legacy(d *Decoder, line []byte, lineNo int, typ string) error {
	var pl codexPayload
	if err := json.Unmarshal(line, &pl); err != nil {
		return fmt.Errorf("malformed line: %w", jsonReason(err))
	}
	if typ == "" {
		var meta struct {
			ID        string `json:"id"`
			Timestamp string `json:"timestamp"`
		}
		_ = json.Unmarshal(line, &meta)
		if d.t.Session.ID == "" && meta.ID != "" {
			d.t.Session.ID = meta.ID
		}
		d.seeTime(parseTime(meta.Timestamp))
		return nil // session header or {"record_type":"state"}
	}
	p.item(d, handoff.Message{Line: lineNo}, &pl)
	return nil
}

// item handles one response_item.
func (p *codexParser) item(d *Decoder, base handoff.Message, pl *codexPayload) {
	switch pl.Type {
	case "message":
		text, _ := codexContent(pl.Content)
		switch pl.Role {
		case "assistant":
			base.Role = handoff.RoleAssistant
			base.Text = text
			p.addAssistant(d, base)
		case "user":
			if strings.TrimSpace(text) == "" {
				return
			}
			base.Role = handoff.RoleUser
			base.Text = text
			if words, meta := userWords(text); meta {
				base.Meta = true
			} else {
				base.Text = words
				if p.awaitTask && !p.replay {
					d.t.Session.Subagent = words
					p.awaitTask = false
				}
			}
			d.add(base)
		case "developer", "system":
			if strings.TrimSpace(text) == "" {
				return
			}
			base.Role = handoff.RoleSystem
			base.Text = text
			base.Meta = true
			d.add(base)
		}
	case "reasoning":
		p.thinking = joinText(p.thinking, codexSummary(pl.Summary))
		if t, _ := codexContent(pl.Content); t != "" {
			p.thinking = joinText(p.thinking, t)
		}
	case "function_call", "custom_tool_call", "local_shell_call", "web_search_call", "tool_search_call":
		name := pl.Name
		input := arguments(pl.Arguments)
		switch pl.Type {
		case "custom_tool_call":
			input = arguments(pl.Input)
		case "local_shell_call":
			name, input = "local_shell", arguments(pl.Action)
		case "web_search_call":
			name, input = "web_search", arguments(pl.Action)
		case "tool_search_call":
			name = "tool_search"
		}
		calls := []handoff.ToolCall{{ID: pl.CallID, Name: name, Input: input}}
		switch name {
		case "exec":
			if pl.Type == "custom_tool_call" {
				nested := codeModeCalls(pl.CallID, stringValue(pl.Input))
				for _, c := range nested {
					p.nested[pl.CallID] = append(p.nested[pl.CallID], c.ID)
				}
				calls = append(calls, nested...)
			}
		case "write_stdin":
			var a struct {
				SessionID json.RawMessage `json:"session_id"`
			}
			if json.Unmarshal(input, &a) == nil && len(a.SessionID) > 0 && pl.CallID != "" {
				p.stdin[pl.CallID] = strings.Trim(string(a.SessionID), `"`)
			}
		case "shell", "shell_command", "local_shell", "exec_command":
			if patch := shellPatch(input); patch != "" {
				// apply_patch run through the shell is an edit: give it
				// the shape of the apply_patch tool.
				calls[0].Name = "apply_patch"
				calls[0].Input, _ = json.Marshal(patch)
			}
		}
		for _, c := range calls {
			if c.ID != "" {
				p.toolNames[c.ID] = c.Name
			}
		}
		n := len(d.t.Messages)
		if p.lastAssist >= 0 && p.lastAssist == n-1 && p.thinking == "" {
			m := &d.t.Messages[n-1]
			m.ToolCalls = append(m.ToolCalls, calls...)
			return
		}
		base.Role = handoff.RoleAssistant
		base.ToolCalls = calls
		p.addAssistant(d, base)
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output", "tool_search_output":
		base.Role = handoff.RoleTool
		if ids := p.nested[pl.CallID]; len(ids) > 0 {
			base.ToolResults = p.codeModeResults(d, pl.CallID, ids, pl.Output)
			delete(p.nested, pl.CallID)
		} else {
			content := codexOutput(pl.Output)
			r := handoff.ToolResult{CallID: pl.CallID, Name: p.toolNames[pl.CallID]}
			p.outcome(&r, content)
			r.Content, r.OriginalBytes = d.clipOutput(content)
			base.ToolResults = []handoff.ToolResult{r}
		}
		i := d.add(base)
		for k, r := range base.ToolResults {
			if r.CallID != "" {
				p.results[r.CallID] = resultRef{msg: i, res: k}
			}
		}
		r := &d.t.Messages[i].ToolResults[0]
		if sid := p.stdin[r.CallID]; sid != "" {
			p.continued(d, r, sid)
			delete(p.stdin, r.CallID)
		}
		if p.replay && (strings.HasPrefix(r.Content, "You are the newly spawned agent") ||
			p.toolNames[r.CallID] == "spawn_agent" && strings.Contains(r.Content, "forked from your parent")) {
			// The spawn call's output ends the replayed parent history;
			// the child's own task follows.
			p.replay = false
		}
	}
}

// outcome sets a result's exit code and failure flag from its content and
// from what exec_command_end / patch_apply_end said before it arrived.
func (p *codexParser) outcome(r *handoff.ToolResult, content string) {
	r.ExitCode = codexExitCode(content)
	if n, ok := p.exitCodes[r.CallID]; ok && r.ExitCode == nil {
		r.ExitCode = &n
	}
	r.IsError = p.failed[r.CallID] || (r.ExitCode == nil && launchFailureRe.MatchString(content[:min(len(content), 200)]))
	delete(p.exitCodes, r.CallID)
	delete(p.failed, r.CallID)
	delete(p.endEvents, r.CallID)
	if sid := runningSession(content); sid != "" && r.CallID != "" && p.stdin[r.CallID] == "" {
		p.sessions[sid] = r.CallID
		p.running[r.CallID] = true
	}
}

// continued handles the output of a write_stdin call to a running
// process. The process's final status belongs to the exec_command that
// started it (whose input holds the command), so an exit code reported
// here moves there, with this output appended to that call's result; the
// write_stdin result keeps its text but no exit code, so one failed run
// counts once.
func (p *codexParser) continued(d *Decoder, r *handoff.ToolResult, sid string) {
	origin, ok := p.sessions[sid]
	if !ok || r.ExitCode == nil {
		return
	}
	ref, ok := p.results[origin]
	if !ok {
		return
	}
	o := &d.t.Messages[ref.msg].ToolResults[ref.res]
	grew := o.ExitCode == nil
	if grew {
		code := *r.ExitCode
		o.ExitCode = &code
		o.Content, o.OriginalBytes = d.clipOutput(joinText(o.Content, r.Content))
	}
	r.ExitCode = nil
	delete(p.running, origin)
	delete(p.sessions, sid) // the process is gone; its id may be reused
	if grew {
		// Last: aging copies the results of the messages it cuts, r's
		// among them when the recent window is small.
		d.regrew(ref)
	}
}

// codeModeResults splits a code-mode script's output array into the
// script's own result and one result per nested call.
func (p *codexParser) codeModeResults(d *Decoder, id string, ids []string, raw []byte) []handoff.ToolResult {
	var items []struct {
		Text string `json:"text"`
	}
	var texts []string
	if json.Unmarshal(trimJSON(raw), &items) == nil {
		for _, it := range items {
			texts = append(texts, it.Text)
		}
	} else {
		texts = []string{codexOutput(raw)}
	}
	header := ""
	if len(texts) > 0 {
		header, texts = texts[0], texts[1:]
	}
	parts, rest := splitCodeModeOutput(texts, len(ids))
	script := handoff.ToolResult{CallID: id, Name: "exec", IsError: strings.HasPrefix(header, "Script failed")}
	script.Content, script.OriginalBytes = d.clipOutput(joinText(header, rest))
	out := []handoff.ToolResult{script}
	for k, part := range parts {
		r := handoff.ToolResult{CallID: ids[k], Name: p.toolNames[ids[k]]}
		p.outcome(&r, part)
		// A call made in a loop emits several runs into one text: the
		// first failing run decides.
		for _, m := range codexExitRe.FindAllStringSubmatch(part, -1) {
			if n, err := strconv.Atoi(m[1]); err == nil && n != 0 {
				r.ExitCode = &n
				break
			}
		}
		r.Content, r.OriginalBytes = d.clipOutput(part)
		out = append(out, r)
	}
	return out
}

// launchFailureRe matches a tool output that reports the tool could not
// run at all, which carries no exit code: "exec_command failed:
// SandboxDenied {…}", "exec_command failed for `…`: CreateProcess {…}",
// "apply_patch verification failed: …".
var launchFailureRe = lazyRE(`^[\w.-]+(?: [\w.-]+)? failed(?: for ` + "`[^`]*`" + `)?: `)

// runningRe finds the header of a unified-exec output whose process is
// still running.
var runningRe = lazyRE(`(?m)^Process running with session ID (\d+)`)

func runningSession(content string) string {
	if !strings.Contains(content[:min(len(content), 256)], "Process running") {
		return ""
	}
	if m := runningRe.FindStringSubmatch(content[:min(len(content), 256)]); m != nil {
		return m[1]
	}
	return ""
}

// shellPatch returns the patch when a shell call runs apply_patch with a
// here-document (["bash","-lc","apply_patch <<'PATCH'\n*** Begin Patch…"]
// or the same as one command string), else "".
func shellPatch(input json.RawMessage) string {
	if !bytes.Contains(input, []byte("apply_patch")) || !bytes.Contains(input, []byte("*** Begin Patch")) {
		return ""
	}
	var a struct {
		Command json.RawMessage `json:"command"`
		Cmd     string          `json:"cmd"`
	}
	if json.Unmarshal(input, &a) != nil {
		return ""
	}
	script := a.Cmd
	if s := stringValue(a.Command); s != "" {
		script = s
	} else {
		var argv []string
		if json.Unmarshal(a.Command, &argv) == nil && len(argv) > 0 {
			script = argv[len(argv)-1]
		}
	}
	script = strings.TrimSpace(script)
	if !strings.HasPrefix(script, "apply_patch") {
		return ""
	}
	start := strings.Index(script, "*** Begin Patch")
	end := strings.LastIndex(script, "*** End Patch")
	if start < 0 || end < start {
		return ""
	}
	return script[start : end+len("*** End Patch")]
}

// trackEnd keeps the end signal of the latest thing that happened:
// task_complete and turn_aborted set it, anything else that happens
// after clears it (token counts, turn context and the interrupt marker
// Codex writes beside turn_aborted do not count as happening).
func (p *codexParser) trackEnd(typ string, pl *codexPayload) {
	switch typ {
	case "session_meta", "turn_context", "world_state":
		return
	case "event_msg":
		switch pl.Type {
		case "token_count":
			return
		case "task_complete":
			p.end, p.turnOpen = EndTaskComplete, false
			return
		case "turn_aborted":
			p.end, p.turnOpen = EndTurnAborted, false
			return
		case "task_started":
			p.turnOpen = true
		}
	case "response_item":
		if pl.Type == "message" && pl.Role == "user" && bytes.Contains(pl.Content, []byte("<turn_aborted>")) {
			return
		}
	}
	p.end = ""
}

// addAssistant adds an assistant message carrying the pending reasoning.
func (p *codexParser) addAssistant(d *Decoder, m handoff.Message) {
	m.Thinking = p.thinking
	p.thinking = ""
	m.Model = p.model
	p.lastAssist = d.add(m)
}

// event handles one event_msg.
func (p *codexParser) event(d *Decoder, base handoff.Message, pl *codexPayload) {
	switch pl.Type {
	case "token_count":
		if pl.Info == nil || pl.Info.LastTokenUsage == nil {
			return
		}
		u := pl.Info.LastTokenUsage
		window := intValue(pl.Info.ModelContextWindow)
		if window > 0 {
			d.t.Session.ContextWindow = window
		}
		if p.lastAssist < 0 || u.InputTokens == 0 {
			return
		}
		cached := min(u.CachedInputTokens, u.InputTokens)
		d.t.Messages[p.lastAssist].Usage = &handoff.ProviderUsage{
			InputTokens:          u.InputTokens - cached,
			CacheReadInputTokens: cached,
			OutputTokens:         u.OutputTokens,
			ContextWindow:        window,
		}
	case "task_started":
		if w := intValue(pl.ModelContextWindow); w > 0 {
			d.t.Session.ContextWindow = w
		}
	case "exec_command_end":
		if raw := trimJSON(pl.ExitCode); len(raw) > 0 && string(raw) != "null" {
			n := intValue(raw)
			if ref, ok := p.results[pl.CallID]; ok {
				r := &d.t.Messages[ref.msg].ToolResults[ref.res]
				if r.ExitCode == nil {
					r.ExitCode = &n
					if p.running[pl.CallID] && pl.AggregatedOutput != "" {
						// The output said "still running"; this is the
						// whole run's output and its final status.
						r.Content, r.OriginalBytes = d.clipOutput(fmt.Sprintf("Process exited with code %d\nOutput:\n%s", n, pl.AggregatedOutput))
						d.regrew(ref)
					}
				}
				delete(p.running, pl.CallID)
			} else if pl.CallID != "" {
				p.exitCodes[pl.CallID] = n
				if name, ok := p.toolNames[pl.CallID]; ok {
					r := handoff.ToolResult{CallID: pl.CallID, Name: name, ExitCode: &n}
					r.Content, r.OriginalBytes = d.clipOutput(pl.AggregatedOutput)
					base.Role, base.Sidechain = handoff.RoleTool, p.replay
					base.ToolResults = []handoff.ToolResult{r}
					p.endEvents[pl.CallID] = base
				}
			}
		}
	case "patch_apply_end":
		if raw := trimJSON(pl.Success); len(raw) > 0 && string(raw) == "false" {
			if ref, ok := p.results[pl.CallID]; ok {
				d.t.Messages[ref.msg].ToolResults[ref.res].IsError = true
			} else if pl.CallID != "" {
				p.failed[pl.CallID] = true
			}
		}
	case "error":
		if text := stringValue(pl.Message); text != "" {
			base.Role = handoff.RoleSystem
			base.Text = "error: " + text
			base.Meta = true
			d.add(base)
		}
	case "turn_aborted":
		// Newer rollouts also write a <turn_aborted> user message just
		// before; Decoder.add keeps one of the two.
		base.Role, base.Meta, base.Interrupt = handoff.RoleSystem, true, true
		base.Text = "turn aborted"
		if r := stringValue(pl.Reason); r != "" {
			base.Text += ": " + r
		}
		d.add(base)
	}
}

// codexContent flattens a content array ({type:input_text|output_text|…}).
func codexContent(raw []byte) (string, error) {
	raw = trimJSON(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if raw[0] == '"' {
		s, _ := jsonString(raw) // validated with the line: unquoted in one pass
		return s, nil
	}
	parts, err := codexParts(raw, true)
	if err != nil {
		return "", err
	}
	var text string
	for _, p := range parts {
		switch p.Type {
		case "input_image", "image":
			text = joinText(text, "[image]")
		default:
			text = joinText(text, p.Text)
		}
	}
	return text, nil
}

// codexSummary joins a reasoning item's summary texts.
func codexSummary(raw json.RawMessage) string {
	parts, err := codexParts(raw, false)
	if err != nil {
		return ""
	}
	var s string
	for _, p := range parts {
		s = joinText(s, p.Text)
	}
	return s
}

// codexOutput reads a tool output: a string (possibly the JSON text
// {"output":…,"metadata":{"exit_code":…}} older versions wrote), a content
// item, or an array of content items.
func codexOutput(raw []byte) string {
	raw = trimJSON(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	switch raw[0] {
	case '"':
		s, _ := jsonString(raw) // validated with the line: unquoted in one pass
		if strings.HasPrefix(s, `{"output"`) {
			var old struct {
				Output   string `json:"output"`
				Metadata struct {
					ExitCode *int `json:"exit_code"`
				} `json:"metadata"`
			}
			if json.Unmarshal([]byte(s), &old) == nil && old.Metadata.ExitCode != nil {
				return fmt.Sprintf("Exit code: %d\n%s", *old.Metadata.ExitCode, old.Output)
			}
		}
		return s
	case '[':
		t, _ := codexContent(raw)
		return t
	case '{':
		var one struct {
			Text    string          `json:"text"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(raw, &one) == nil {
			if one.Text != "" {
				return one.Text
			}
			if t, _ := codexContent(one.Content); t != "" {
				return t
			}
		}
	}
	return string(raw)
}

// codexExitRe finds the exit status Codex writes in a shell output
// ("Exit code: 1" first, or "Process exited with code 1" on its own line).
var codexExitRe = lazyRE(`(?m)^(?:Exit code:? |Process exited with code )(-?\d+)\s*$`)

func codexExitCode(s string) *int {
	s = s[:min(len(s), 512)]
	if i := strings.Index(s, "\nOutput:"); i >= 0 {
		s = s[:i] // only the header: the output itself may quote another run's status
	}
	m := codexExitRe.FindStringSubmatch(s)
	if m == nil {
		return nil
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return nil
	}
	return &n
}

// intValue reads a JSON number leniently; anything else is 0.
func intValue(raw json.RawMessage) int {
	var f float64
	if json.Unmarshal(raw, &f) != nil {
		return 0
	}
	return int(f)
}

package facts

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// CallKind is what a tool call does, judged by the shape of its input.
type CallKind int

const (
	KindOther CallKind = iota
	KindShell
	KindEdit
	KindPlan
)

// CallInfo is a tool call as the facts see it: its kind, the shell
// command it ran (unwrapped) or a short description, and the files it
// modified. Results point back to it.
type CallInfo struct {
	Name    string
	Kind    CallKind
	Command string   // the shell command, or "Tool target" for other calls
	Paths   []string // files an edit modifies
	said    string   // the assistant's last text before the call
	// session is the process a write_stdin call continues.
	session string
	// running is set while an exec_command process is still running.
	running bool
	// wrapper marks a Codex code-mode script (exec) whose nested tool
	// calls the parser lifted out as calls of their own: those carry the
	// commands, edits and outcomes, and the script's own "Script
	// failed" only repeats a nested call's failure.
	wrapper bool
	// answered is set once a result was paired with the call.
	answered bool
	// step is the index of the message that issued the call: calls of
	// one step were issued together, before any of their results.
	step int
	// memo holds what the facts derive from Command, shared by every
	// call of one Build that ran the same command (see commandMemo).
	memo *commandMemo
}

// codeScriptRe finds a nested tool call in a Codex code-mode script,
// as the transcript parser does to lift it out.
var codeScriptRe = prose.LazyRE(rulebook.Pattern("facts.code-script"))

// Shell reports a call that ran a shell command.
func (c *CallInfo) Shell() bool { return c != nil && c.Kind == KindShell }

// Input keys that name a file, and keys whose presence next to a path
// means the call writes that file.
var (
	pathKeys    = []string{"file_path", "path", "filename", "target_file", "notebook_path", "file"}
	contentKeys = []string{"content", "patch", "old_string", "new_string", "old_str", "new_str", "edits", "diff", "file_text", "code_edit", "new_source", "search", "replace", "insert_line"}
)

// editNameHint lists tool names that modify the file their path names even
// when the input holds nothing else (a console paste, a trimmed record).
func editNameHint(name string) bool {
	switch strings.ToLower(name) {
	case "edit", "multiedit", "write", "notebookedit", "write_file", "writefile", "replace", "edit_file",
		"write_to_file", "replace_in_file", "create_file", "str_replace", "insert", "update", "create", "apply_patch", "apply_diff":
		return true
	}
	return false
}

// shellNameHint lists tool names that run shell commands, for inputs that
// carry only a summary line (console pastes).
func shellNameHint(name string) bool {
	switch strings.ToLower(name) {
	case "bash", "shell", "local_shell", "exec_command", "shell_command", "run_command", "run_shell_command", "execute_bash",
		"execute_command", "run_terminal_cmd", "terminal", "container.exec", "bashoutput", "command":
		return true
	}
	return false
}

// Shapes classifies calls. It keeps the one piece of state a format needs
// across calls: SWE-agent's open file, which its edit commands target.
// heads, when set, decodes each input once per Build.
type Shapes struct {
	open  string
	Heads *Headlines
}

// Classify reads a call by the shape of its input; the name is a hint for
// inputs that carry too little to judge (console summaries). Within a
// Build each call is read once (see Headlines.classified): every reader
// gets its own copy of the result, which it may annotate.
func (s *Shapes) Classify(c handoff.ToolCall) *CallInfo {
	if s.Heads == nil || c.ID == "" {
		return s.classifyInput(c)
	}
	key := classifyKey{id: c.ID, name: c.Name, open: s.open}
	if k, ok := s.Heads.classified[key]; ok && bytes.Equal(k.input, c.Input) {
		s.open = k.open
		info := k.info
		return &info
	}
	info := s.classifyInput(c)
	info.memo = s.Heads.commandMemo(info.Command)
	s.Heads.classified[key] = classifiedCall{input: c.Input, info: *info, open: s.open}
	return info
}

// classifyInput is Classify without the per-Build cache.
func (s *Shapes) classifyInput(c handoff.ToolCall) *CallInfo {
	if free, ok := freeTextInput(c.Input); ok {
		return freeTextCall(c.Name, free)
	}
	info := &CallInfo{Name: c.Name}
	in := s.Heads.Object(c.Input)
	lname := strings.ToLower(c.Name)

	if _, ok := planItems(c.Name, in); ok {
		info.Kind, info.Command = KindPlan, c.Name
		return info
	}
	// An editor tool: {command: create|str_replace|insert|view, path}.
	if ec, p := Str(in, "command"), firstPath(in); p != "" && isEditorCommand(ec) {
		info.Command = c.Name + " " + ec + " " + p
		if ec != "view" {
			info.Kind, info.Paths = KindEdit, []string{p}
		}
		s.open = p
		return info
	}
	if sid := idString(in["session_id"]); sid != "" && (in["chars"] != nil || lname == "write_stdin") {
		info.session, info.Command = sid, c.Name
		return info
	}
	if cmd := ShellCommand(in); cmd != "" {
		info.Kind, info.Command = KindShell, cmd
		info.Paths = s.shellEdits(cmd)
		return info
	}
	if p := firstPath(in); p != "" {
		s.pathCall(info, in, p)
		return info
	}
	if p := patchText(c.Input); p != "" {
		if files := patchFiles(p); len(files) > 0 {
			info.Kind, info.Paths, info.Command = KindEdit, files, c.Name+" "+strings.Join(files, " ")
			return info
		}
	}
	// SWE-agent function calls that edit the open file: edit {search,
	// replace}, insert {text}.
	if s.open != "" && (lname == "edit" || lname == "insert") && (hasAny(in, contentKeys) || in["text"] != nil) {
		info.Kind, info.Paths, info.Command = KindEdit, []string{s.open}, c.Name+" "+s.open
		return info
	}
	// Console pastes carry one summary line: a command or a path.
	if sum := Str(in, "summary"); sum != "" {
		summaryCall(info, sum)
		return info
	}
	for _, k := range []string{"url", "pattern", "query", "description"} {
		if v := Str(in, k); v != "" {
			info.Command = c.Name + " " + prose.FirstLine(v)
			return info
		}
	}
	info.Command = c.Name
	return info
}

// freeTextInput is a call's input when it is a JSON string (Codex
// apply_patch and exec take free text). Only a JSON string or null
// unmarshals into a string: an object input skips the attempt, which
// would scan it whole only to fail.
func freeTextInput(input []byte) (string, bool) {
	var free string
	lead := bytes.TrimLeft(input, " \t\r\n")
	if len(lead) > 0 && (lead[0] == '"' || lead[0] == 'n') && json.Unmarshal(input, &free) == nil {
		return free, true
	}
	return "", false
}

// freeTextCall reads a call whose input is free text: a code-mode script
// wrapping other calls, a patch (an edit), or anything else.
func freeTextCall(name, free string) *CallInfo {
	info := &CallInfo{Name: name}
	if codeScriptRe.MatchString(free) {
		info.wrapper, info.Command = true, name
		return info
	}
	// Free-text input (Codex apply_patch, exec): a patch is an edit.
	if files := patchFiles(free); len(files) > 0 {
		info.Kind, info.Paths, info.Command = KindEdit, files, name+" "+strings.Join(files, " ")
		return info
	}
	info.Command = name
	return info
}

// pathCall reads a call on path p: an edit when its name or content says
// so; a create or open also makes p the open file of SWE-agent's
// edit/insert.
func (s *Shapes) pathCall(info *CallInfo, in map[string]any, p string) {
	lname := strings.ToLower(info.Name)
	info.Command = info.Name + " " + prose.FirstLine(p)
	if editNameHint(info.Name) || hasAny(in, contentKeys) {
		info.Kind, info.Paths = KindEdit, []string{p}
		if lname == "create" {
			s.open = p
		}
	} else if lname == "open" {
		s.open = p
	}
}

// summaryCall reads a console paste's one summary line: a command or a
// path.
func summaryCall(info *CallInfo, sum string) {
	switch {
	case shellNameHint(info.Name):
		info.Kind, info.Command = KindShell, sum
	case editNameHint(info.Name):
		p := consolePath(sum)
		info.Kind, info.Paths, info.Command = KindEdit, []string{p}, info.Name+" "+p
	default:
		info.Command = info.Name + " " + prose.FirstLine(sum)
	}
}

func isEditorCommand(c string) bool {
	switch c {
	case "create", "str_replace", "insert", "undo_edit", "write", "view", "append":
		return true
	}
	return false
}

func firstPath(in map[string]any) string {
	for _, k := range pathKeys {
		if p := Str(in, k); p != "" {
			return p
		}
	}
	return ""
}

func hasAny(in map[string]any, keys []string) bool {
	for _, k := range keys {
		if _, ok := in[k]; ok {
			return true
		}
	}
	return false
}

// consolePath reads the file of a console edit line: "path",
// "Writing to path", or Gemini's "path: old => new".
func consolePath(sum string) string {
	sum = strings.TrimPrefix(strings.TrimSpace(sum), "Writing to ")
	if i := strings.Index(sum, ": "); i > 0 && !strings.Contains(sum[:i], " ") {
		sum = sum[:i]
	}
	return strings.TrimSpace(sum)
}

var (
	heredocWriteRe = prose.LazyRE(rulebook.Pattern("facts.heredoc-write"))
	sweEditRe      = prose.LazyRE(rulebook.Pattern("facts.swe-edit"))
)

// shellEdits lists the files a shell command writes by shape: an
// apply_patch or diff text (also inside a heredoc), a `cat > f <<EOF`
// heredoc, and SWE-agent's create / edit / str_replace_editor commands.
func (s *Shapes) shellEdits(cmd string) []string {
	trim := strings.TrimSpace(cmd)
	if strings.Contains(cmd, "*** Begin Patch") || strings.HasPrefix(trim, "apply_patch") || strings.HasPrefix(trim, "git apply") {
		return patchFiles(cmd)
	}
	fields := strings.Fields(trim)
	if len(fields) > 0 {
		switch fields[0] {
		case "open":
			if len(fields) > 1 {
				s.open = strings.Trim(fields[1], `"'`)
			}
			return nil
		case "create":
			if len(fields) > 1 {
				s.open = strings.Trim(fields[1], `"'`)
				return []string{s.open}
			}
		case "str_replace_editor":
			if len(fields) > 2 && isEditorCommand(fields[1]) {
				s.open = fields[2]
				if fields[1] != "view" {
					return []string{fields[2]}
				}
				return nil
			}
		}
		if sweEditRe.MatchString(trim) || fields[0] == "insert" && s.open != "" {
			if s.open != "" {
				return []string{s.open}
			}
		}
	}
	if strings.Contains(cmd, "<<") {
		var out []string
		for _, m := range heredocWriteRe.FindAllStringSubmatch(cmd, -1) {
			for _, g := range m[1:] {
				if g != "" && g != "/dev/null" {
					out = append(out, g)
				}
			}
		}
		return out
	}
	return nil
}

// planItems returns the items of a plan call: a todos[] or plan[] list of
// objects (TodoWrite, update_plan, write_todos).
func planItems(name string, in map[string]any) ([]any, bool) {
	for _, k := range []string{"todos", "plan"} {
		if items, ok := in[k].([]any); ok {
			if len(items) == 0 {
				return items, isPlanName(name)
			}
			if _, obj := items[0].(map[string]any); obj {
				return items, true
			}
		}
	}
	return nil, false
}

func isPlanName(name string) bool {
	switch strings.ToLower(name) {
	case "todowrite", "write_todos", "todo_write", "update_plan":
		return true
	}
	return false
}

// ShellCommand reads the command of a shell call: a string ("command",
// "cmd") or an argv array, unwrapping `bash -lc "<script>"`.
func ShellCommand(in map[string]any) string {
	for _, k := range []string{"command", "cmd"} {
		switch v := in[k].(type) {
		case string:
			if isEditorCommand(v) && firstPath(in) != "" {
				return ""
			}
			return unwrapShell(v)
		case []any:
			var argv []string
			for _, a := range v {
				if s, ok := a.(string); ok {
					argv = append(argv, s)
				}
			}
			if len(argv) == 3 && isShellBinary(argv[0]) && strings.HasPrefix(argv[1], "-") && strings.Contains(argv[1], "c") {
				return argv[2]
			}
			return strings.Join(argv, " ")
		}
	}
	return ""
}

func isShellBinary(s string) bool {
	switch path.Base(s) {
	case "bash", "sh", "zsh", "dash", "fish":
		return true
	}
	return false
}

var shellWrapRe = prose.LazyRE(rulebook.Pattern("facts.shell-wrap"))

// unwrapShell turns `bash -lc "<script>"` into the script.
func unwrapShell(cmd string) string {
	if m := shellWrapRe.FindStringSubmatch(strings.TrimSpace(cmd)); m != nil {
		if m[1] != "" {
			return strings.ReplaceAll(m[1], `\"`, `"`)
		}
		return m[2]
	}
	return cmd
}

// patchText returns the patch of an apply_patch call, whose input is the
// patch as a JSON string or an object holding it.
func patchText(raw json.RawMessage) string {
	var s string
	if t := bytes.TrimLeft(raw, " \t\r\n"); len(t) > 0 && t[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	if !mayHaveKey(raw, `"input"`, `"patch"`, `"diff"`) {
		return ""
	}
	in := DecodeObject(raw)
	for _, k := range []string{"input", "patch", "diff"} {
		if p, ok := in[k].(string); ok {
			return p
		}
	}
	return ""
}

var patchHeaderRe = prose.LazyRE(rulebook.Pattern("facts.patch-header"))

// patchFiles lists the files a patch (Codex apply_patch or unified diff)
// changes.
func patchFiles(patch string) []string {
	if !strings.Contains(patch, "*** ") && !strings.Contains(patch, "+++ ") {
		return nil
	}
	var out []string
	for _, m := range patchHeaderRe.FindAllStringSubmatch(patch, -1) {
		for _, g := range m[1:] {
			if g != "" {
				if i := strings.IndexByte(g, '\t'); i >= 0 { // diff timestamps
					g = g[:i]
				}
				if g != "/dev/null" {
					out = append(out, g)
				}
			}
		}
	}
	return out
}

// pairing finds the call a result answers: by call id, else (formats
// without ids: console pastes, SpecStory) the oldest unanswered call of
// the same name. write_stdin calls resolve to the exec_command whose
// process they continue.
//
// Calls that share an id (Gemini numbers its calls by time, and two in
// one turn can get the same one) queue under it in order: each result
// takes the oldest unanswered call of its id, and the last call of an
// id stays for any further result (a process's later output).
type pairing struct {
	byID     map[string][]*CallInfo
	sessions map[string]*CallInfo
	queue    []*CallInfo
	// continuations are the ids of write_stdin calls.
	continuations map[string]bool
}

func newPairing() *pairing {
	return &pairing{byID: map[string][]*CallInfo{}, sessions: map[string]*CallInfo{}, continuations: map[string]bool{}}
}

// queueLook bounds the search of the id-less queue for a name match.
const queueLook = 8

// Add remembers the call c under its id until its result arrives.
func (p *pairing) Add(id string, c *CallInfo) {
	if c.session != "" {
		if id != "" {
			p.continuations[id] = true
		}
		if orig := p.sessions[c.session]; orig != nil {
			c = orig
		}
	}
	if id == "" {
		p.queue = append(p.queue, c)
		return
	}
	p.byID[id] = append(p.byID[id], c)
}

// Call returns the call r answers, nil when none is known.
func (p *pairing) Call(r handoff.ToolResult) *CallInfo {
	if r.CallID != "" {
		q := p.byID[r.CallID]
		if len(q) == 0 {
			return nil
		}
		if len(q) > 1 {
			p.byID[r.CallID] = q[1:]
		}
		return q[0]
	}
	for i := 0; i < len(p.queue) && i < queueLook; i++ {
		if r.Name == "" || strings.EqualFold(p.queue[i].Name, r.Name) {
			c := p.queue[i]
			p.queue = append(p.queue[:i], p.queue[i+1:]...)
			return c
		}
	}
	if len(p.queue) > 4*queueLook { // results the format never gave: forget the oldest
		p.queue = p.queue[len(p.queue)-queueLook:]
	}
	return nil
}

// settle pairs a result with its call and says whether the result is an
// outcome to judge: not a write_stdin continuation whose outcome the
// parser already put on its exec_command, not a process still running.
// A SpecStory shell call, whose command heads its result, becomes the
// shell call it is.
func (p *pairing) settle(r handoff.ToolResult) (*CallInfo, bool) {
	call := p.Call(r)
	if call != nil {
		call.answered = true
	}
	if p.continuation(r) && (call == nil || !call.running) {
		return call, false
	}
	if p.track(call, r) {
		return call, false
	}
	if call != nil && call.Kind == KindOther && call.Command == call.Name && shellNameHint(call.Name) {
		if cmd := quotedCommand(r.Content); cmd != "" {
			call.Kind, call.Command = KindShell, cmd
		}
	}
	return call, true
}

var sessionRe = prose.LazyRE(rulebook.Pattern("facts.session"))

// continuation reports a result of a write_stdin call. The parser puts a
// process's final status and output on the exec_command that started it,
// so a continuation is judged only when that exec_command is still
// running in the facts' view (a transcript the parser did not merge).
func (p *pairing) continuation(r handoff.ToolResult) bool {
	return r.CallID != "" && p.continuations[r.CallID]
}

// track notes an exec_command whose process is still running, so that
// write_stdin results count for it. A result that carries its exit code
// has finished, whatever its first chunk said.
func (p *pairing) track(c *CallInfo, r handoff.ToolResult) bool {
	m := sessionRe.FindStringSubmatch(prose.HeadOf(r.Content, 400))
	if m == nil || r.ExitCode != nil {
		if c != nil {
			c.running = false
		}
		return false
	}
	if c != nil {
		c.running = true
		p.sessions[m[1]] = c
	}
	return true
}

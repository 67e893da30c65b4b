package extractor

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
)

// Facts are the parts of a snapshot that can be computed from the
// transcript itself, with no judgement: what the agent's plan says, which
// files its tools changed, which tool runs failed and whether a later run
// of the same command succeeded, and how the last test run went.
type Facts struct {
	// Goal is the first real request the person made.
	Goal string
	// Tasks is the agent's latest plan (TodoWrite, update_plan).
	Tasks         []handoff.Task
	CurrentTaskID string
	NextTaskID    string
	FilesModified []handoff.FileChange
	// Errors are the failed tool runs, repeats folded, each with a
	// resolution computed from later runs.
	Errors    []handoff.ErrorRecord
	TestState *handoff.TestState
	// ToolCalls counts every tool call, subagents' included.
	ToolCalls int
	// LastUserRequest is the latest real request the person made.
	LastUserRequest string
}

// Limits on text copied into facts, in runes.
const (
	goalLimit         = 600
	errorMessageLimit = 300
)

// ComputeFacts derives the facts from a transcript's messages. Goal, plan,
// errors and tests come from the main thread; files modified include the
// subagents' edits, since those changed the tree too.
func ComputeFacts(msgs []handoff.Message) Facts {
	f, _ := computeFacts(msgs)
	return f
}

// computeFacts is ComputeFacts that also returns, for each error, the
// assistant text said just before the failing call, for the heuristic
// extractor's error context.
func computeFacts(msgs []handoff.Message) (Facts, []string) {
	var f Facts
	p := newPairing()
	files := newFileSet()
	errs := newErrorLog()
	var summaryGoal, said string
	for _, m := range msgs {
		f.ToolCalls += len(m.ToolCalls)
		if m.Role == handoff.RoleAssistant && !m.Sidechain && strings.TrimSpace(m.Text) != "" {
			said = m.Text
		}
		for _, c := range m.ToolCalls {
			p.add(c, said)
			files.addCall(c)
		}
		if m.Sidechain {
			continue
		}
		if m.Role == handoff.RoleUser && !m.Meta {
			if m.CompactSummary {
				if summaryGoal == "" {
					summaryGoal = primaryRequest(m.Text)
				}
			} else if req := userRequest(m.Text); req != "" {
				if f.Goal == "" {
					f.Goal = truncate(req, goalLimit)
				}
				f.LastUserRequest = truncate(req, goalLimit)
			}
		}
		for _, c := range m.ToolCalls {
			if tasks, ok := planTasks(c); ok {
				f.Tasks = tasks
			}
		}
		for _, r := range m.ToolResults {
			call := p.call(r.CallID)
			errs.observe(m, r, call)
			if call != nil && isShell(call.Name) && isTestCommand(call.command) {
				f.TestState = testState(call.command, r, m)
			}
		}
	}
	if f.Goal == "" {
		f.Goal = truncate(summaryGoal, goalLimit)
	}
	f.CurrentTaskID, f.NextTaskID = currentAndNext(f.Tasks)
	f.FilesModified = files.list()
	f.Errors = errs.records()
	return f, errs.contexts
}

// pairedCall is a tool call as results refer back to it.
type pairedCall struct {
	Name    string
	command string // the shell command or a short description
	said    string // the assistant's last text before the call
}

// pairing finds the call a result answers, by call id.
type pairing struct{ byID map[string]*pairedCall }

func newPairing() *pairing { return &pairing{byID: map[string]*pairedCall{}} }

func (p *pairing) add(c handoff.ToolCall, said string) {
	if c.ID == "" {
		return
	}
	p.byID[c.ID] = &pairedCall{Name: c.Name, command: describeCall(c), said: said}
}

func (p *pairing) call(id string) *pairedCall {
	if id == "" {
		return nil
	}
	return p.byID[id]
}

// isShell reports tools that run a shell command.
func isShell(name string) bool {
	switch strings.ToLower(name) {
	case "bash", "shell", "local_shell", "exec_command", "run_shell_command", "execute_bash",
		"execute_command", "run_terminal_cmd", "terminal", "container.exec", "bashoutput":
		return true
	}
	return false
}

// describeCall returns the command a shell call ran, or a short
// description of any other call ("Edit internal/api/limiter.go").
func describeCall(c handoff.ToolCall) string {
	in := decodeObject(c.Input)
	if isShell(c.Name) {
		return shellCommand(in)
	}
	for _, k := range []string{"file_path", "notebook_path", "path", "url", "pattern", "query", "description"} {
		if s, ok := in[k].(string); ok && s != "" {
			return c.Name + " " + firstLine(s)
		}
	}
	return c.Name
}

// shellCommand reads the command of a shell call: a string ("command",
// "cmd") or an argv array, unwrapping `bash -lc "<script>"`.
func shellCommand(in map[string]any) string {
	for _, k := range []string{"command", "cmd"} {
		switch v := in[k].(type) {
		case string:
			return v
		case []any:
			var argv []string
			for _, a := range v {
				if s, ok := a.(string); ok {
					argv = append(argv, s)
				}
			}
			if len(argv) == 3 && (argv[0] == "bash" || argv[0] == "sh" || argv[0] == "zsh" || strings.HasSuffix(argv[0], "/bash")) && strings.HasPrefix(argv[1], "-") && strings.Contains(argv[1], "c") {
				return argv[2]
			}
			return strings.Join(argv, " ")
		}
	}
	return ""
}

func decodeObject(raw json.RawMessage) map[string]any {
	var in map[string]any
	if len(raw) > 0 && raw[0] == '{' {
		_ = json.Unmarshal(raw, &in) // not an object: treated as having no fields
	}
	if in == nil {
		in = map[string]any{}
	}
	return in
}

var (
	spaceRun    = regexp.MustCompile(`\s+`)
	leadingCd   = regexp.MustCompile(`^cd\s+(?:"[^"]*"|'[^']*'|\S+)\s*(?:&&|;)\s*`)
	trailingCut = regexp.MustCompile(`\s*(?:2>&1\s*)?(?:\|\s*(?:head|tail)(?:\s+-n)?(?:\s+-?\d+)?\s*)?$`)
)

// normalizeCommand makes two runs of the same command compare equal:
// white space collapsed, a leading `cd X &&` and a trailing `2>&1 | tail`
// removed.
func normalizeCommand(cmd string) string {
	c := strings.TrimSpace(spaceRun.ReplaceAllString(cmd, " "))
	for {
		next := leadingCd.ReplaceAllString(c, "")
		if next == c {
			break
		}
		c = next
	}
	return strings.TrimSpace(trailingCut.ReplaceAllString(c, ""))
}

// errorLog folds failures and resolves them against later successes.
type errorLog struct {
	list     []handoff.ErrorRecord
	keys     []string
	contexts []string
}

func newErrorLog() *errorLog { return &errorLog{} }

func errorKey(tool, command string) string {
	return strings.ToLower(tool) + "\x00" + normalizeCommand(command)
}

func (l *errorLog) observe(m handoff.Message, r handoff.ToolResult, call *pairedCall) {
	tool, command, said := r.Name, "", ""
	if call != nil {
		command, said = call.command, call.said
		if tool == "" {
			tool = call.Name
		}
	}
	key := errorKey(tool, command)
	if !r.Failed() {
		if command == "" {
			return
		}
		for i := range l.list {
			if l.keys[i] == key && l.list[i].Resolution == handoff.ResolutionUnresolved {
				ref := m.Ref()
				l.list[i].Resolution = handoff.ResolutionFixed
				l.list[i].ResolvedBy = &ref
			}
		}
		return
	}
	msg := errorMessage(r.Content)
	if command == "" {
		key += "\x00" + msg // without a command, only the same message is a repeat
	}
	for i := len(l.list) - 1; i >= 0; i-- {
		if l.keys[i] == key && l.list[i].Resolution == handoff.ResolutionUnresolved {
			l.list[i].Occurrences++
			return
		}
	}
	shell := call != nil && isShell(call.Name)
	l.list = append(l.list, handoff.ErrorRecord{
		ID:          "e" + strconv.Itoa(len(l.list)+1),
		Type:        classifyError(shell, command, r.Content),
		Message:     msg,
		Command:     command,
		Tool:        tool,
		Resolution:  handoff.ResolutionUnresolved,
		Source:      m.Ref(),
		Occurrences: 1,
	})
	l.keys = append(l.keys, key)
	l.contexts = append(l.contexts, said)
}

func (l *errorLog) records() []handoff.ErrorRecord { return l.list }

var (
	buildErrorRe = regexp.MustCompile(`(?i)(undefined: |cannot use |syntax error|error\[E\d+\]|error TS\d+|compilation (?:failed|terminated)|build failed|cannot find package|could not compile|does not compile|undefined reference to|no required module provides|expected ['"]?[;)}\]]|imported and not used|declared and not used|\.go:\d+:\d+: )`)
	buildCmdRe   = regexp.MustCompile(`(?i)(^|\s|&&|;)(go (build|vet|install)|cargo (build|check)|make(\s|$)|tsc(\s|$)|npm run build|yarn build|pnpm build|cmake --build|gcc |g\+\+ |clang |javac |mvn (compile|package)|gradlew? build)`)
	testFailRe   = regexp.MustCompile(`(?m)(^--- FAIL: |^FAILED |^FAIL: | FAILED$|✕ |^Tests:.*\bfailed\b|AssertionError|^=+ .*\bfailed\b)`)
	errorLineRe  = regexp.MustCompile(`(?i)(error|fail|fatal|panic|exception|traceback|denied|not found|no such file|cannot|can't|unable to|invalid|refused|timed? ?out|undefined|unexpected|missing|rejected)`)
	noiseLineRe  = regexp.MustCompile(`(?i)^(exit code:? -?\d+|wall time:.*|output:|process exited with code -?\d+|command exited with.*|\[?stderr\]?:?|\[?stdout\]?:?)$`)
	toolErrTagRe = regexp.MustCompile(`</?tool_use_error>`)
)

// classifyError names the class of a failure from the command and output.
func classifyError(shell bool, command, content string) string {
	switch {
	case shell && isTestCommand(command):
		return "test_failure"
	case testFailRe.MatchString(content):
		return "test_failure"
	case buildErrorRe.MatchString(content) || (shell && buildCmdRe.MatchString(normalizeCommand(command))):
		return "build_error"
	case shell:
		return "command_failed"
	}
	return "tool_error"
}

// errorMessage picks the first meaningful line of a failure, and the line
// after it when that adds detail, within errorMessageLimit.
func errorMessage(content string) string {
	content = toolErrTagRe.ReplaceAllString(content, "")
	var lines []string
	for _, l := range strings.Split(content, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || noiseLineRe.MatchString(l) {
			continue
		}
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		return "(no output)"
	}
	pick := 0
	for i, l := range lines {
		if errorLineRe.MatchString(l) {
			pick = i
			break
		}
	}
	msg := lines[pick]
	if pick+1 < len(lines) && len([]rune(msg)) < 120 && len(lines[pick+1]) >= 12 && errorLineRe.MatchString(lines[pick+1]) {
		msg += " / " + lines[pick+1]
	}
	return truncate(msg, errorMessageLimit)
}

// testCommandRe recognises test runners.
var testCommandRe = regexp.MustCompile(`(?i)(^|[\s;&|(/])(go test|gotestsum|pytest|py\.test|python3? -m (pytest|unittest)|(npm|pnpm|yarn|bun) (run )?test|npx (jest|vitest)|jest|vitest|cargo (test|nextest)|ctest|make (test|check)|mvn( \S+)* (test|verify)|\./mvnw( \S+)* test|(\./)?gradlew?( \S+)* test|rspec|phpunit|tox|nox|dotnet test|mix test|deno test|swift test|\./tests?/\S*|\./run_tests\S*|bats |go run gotest)(\s|$|;|&|\|)`)

func isTestCommand(cmd string) bool {
	return testCommandRe.MatchString(normalizeCommand(cmd))
}

var (
	goFailRe      = regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`)
	pytestFailRe  = regexp.MustCompile(`(?m)^FAILED ([^\s(]\S*?)(?:\s+-\s.*)?$`)
	pytestFail2Re = regexp.MustCompile(`(?m)^(\S+::\S+) FAILED`)
	jestFailRe    = regexp.MustCompile(`(?m)^\s*[✕×] (.+?)(?: \(\d+(?:\.\d+)? ?m?s\))?\s*$`)
	cargoFailRe   = regexp.MustCompile(`(?m)^test (\S+) \.\.\. FAILED`)
	genericFailRe = regexp.MustCompile(`(?m)^FAIL: (\S+)`)
	summaryRe     = regexp.MustCompile(`(?i)(^(ok|fail)\s+\S+\s+[\d.]+s|^(ok|fail|pass)$|^=+ .*\b(passed|failed|errors?|no tests ran)\b.*=+$|^tests?:\s+\d|^test result:|^\d+ (passed|failed|failing|passing|tests?)\b|\b\d+ (passed|failed|failing|passing)\b|^ran \d+ tests? in|^(failed|ok) \(|^tests run: \d+)`)
	failSummaryRe = regexp.MustCompile(`(?i)(^fail\b|\bfailed\b|\b[1-9]\d* (failing|errors?)\b|^test result: failed)`)
	zeroFailRe    = regexp.MustCompile(`(?i)\b0 (failed|failing|errors?)\b`)
)

// testState reads the outcome of a test run from its result.
func testState(command string, r handoff.ToolResult, m handoff.Message) *handoff.TestState {
	ts := &handoff.TestState{Command: strings.TrimSpace(command), Source: m.Ref()}
	out := r.Content
	seen := map[string]bool{}
	for _, re := range []*regexp.Regexp{goFailRe, pytestFailRe, pytestFail2Re, jestFailRe, cargoFailRe, genericFailRe} {
		for _, sm := range re.FindAllStringSubmatch(out, -1) {
			name := strings.TrimSpace(sm[1])
			if name != "" && !seen[name] {
				seen[name] = true
				ts.FailingTests = append(ts.FailingTests, name)
			}
		}
	}
	lines := strings.Split(out, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l != "" && summaryRe.MatchString(l) {
			ts.Summary = truncate(l, 200)
			break
		}
	}
	summaryFails := ts.Summary != "" && failSummaryRe.MatchString(ts.Summary) && !zeroFailRe.MatchString(ts.Summary)
	switch {
	case r.Failed() || len(ts.FailingTests) > 0 || summaryFails:
		ts.Status = handoff.TestsFailing
	case (r.ExitCode != nil && *r.ExitCode == 0) || ts.Summary != "":
		ts.Status = handoff.TestsPassing
	default:
		ts.Status = handoff.TestsUnknown
	}
	return ts
}

// planTasks reads a plan from a TodoWrite (todos[]) or update_plan
// (plan[]) call.
func planTasks(c handoff.ToolCall) ([]handoff.Task, bool) {
	var field string
	switch strings.ToLower(c.Name) {
	case "todowrite", "write_todos", "todo_write":
		field = "todos"
	case "update_plan":
		field = "plan"
	default:
		return nil, false
	}
	items, ok := decodeObject(c.Input)[field].([]any)
	if !ok {
		return nil, false
	}
	tasks := make([]handoff.Task, 0, len(items))
	for i, it := range items {
		obj, ok := it.(map[string]any)
		if !ok {
			continue
		}
		t := handoff.Task{ID: strconv.Itoa(i + 1), Status: normalizeStatus(str(obj, "status"))}
		if id := idString(obj["id"]); id != "" {
			t.ID = id
		}
		for _, k := range []string{"content", "step", "description", "title", "task"} {
			if s := str(obj, k); s != "" {
				t.Content = s
				break
			}
		}
		t.Priority = str(obj, "priority")
		tasks = append(tasks, t)
	}
	return tasks, true
}

func normalizeStatus(s string) handoff.TaskStatus {
	switch strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), "-", "_")) {
	case "in_progress", "inprogress", "active", "doing", "running":
		return handoff.TaskInProgress
	case "completed", "complete", "done", "finished":
		return handoff.TaskCompleted
	}
	return handoff.TaskPending
}

func idString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return ""
}

func str(obj map[string]any, k string) string {
	s, _ := obj[k].(string)
	return strings.TrimSpace(s)
}

func currentAndNext(tasks []handoff.Task) (current, next string) {
	for _, t := range tasks {
		if current == "" && t.Status == handoff.TaskInProgress {
			current = t.ID
		}
		if next == "" && t.Status == handoff.TaskPending {
			next = t.ID
		}
	}
	return current, next
}

// fileSet records modified files in order of first modification.
type fileSet struct {
	order []string
	byPat map[string]*handoff.FileChange
}

func newFileSet() *fileSet { return &fileSet{byPat: map[string]*handoff.FileChange{}} }

func (s *fileSet) touch(path, op string) {
	path = strings.TrimSpace(path)
	if path == "" || path == "/dev/null" {
		return
	}
	fc, ok := s.byPat[path]
	if !ok {
		fc = &handoff.FileChange{Path: path}
		s.byPat[path] = fc
		s.order = append(s.order, path)
	}
	fc.Edits++
	for _, o := range fc.Operations {
		if o == op {
			return
		}
	}
	fc.Operations = append(fc.Operations, op)
}

func (s *fileSet) list() []handoff.FileChange {
	out := make([]handoff.FileChange, 0, len(s.order))
	for _, p := range s.order {
		out = append(out, *s.byPat[p])
	}
	return out
}

// addCall records the files a modifying tool call touched. Reads and
// views are not modifications.
func (s *fileSet) addCall(c handoff.ToolCall) {
	name := c.Name
	switch strings.ToLower(name) {
	case "edit", "multiedit", "write", "notebookedit", "write_file", "replace", "edit_file",
		"write_to_file", "replace_in_file", "create_file", "str_replace", "insert":
		in := decodeObject(c.Input)
		for _, k := range []string{"file_path", "notebook_path", "path", "target_file"} {
			if p := str(in, k); p != "" {
				s.touch(p, name)
				return
			}
		}
	case "str_replace_editor", "str_replace_based_edit_tool", "text_editor", "edit_tool":
		in := decodeObject(c.Input)
		switch str(in, "command") {
		case "create", "str_replace", "insert", "undo_edit", "write":
			s.touch(str(in, "path"), name)
		}
	case "apply_patch":
		for _, p := range patchFiles(patchText(c.Input)) {
			s.touch(p, name)
		}
	default:
		if isShell(name) {
			cmd := shellCommand(decodeObject(c.Input))
			if strings.Contains(cmd, "*** Begin Patch") || strings.HasPrefix(strings.TrimSpace(cmd), "apply_patch") {
				for _, p := range patchFiles(cmd) {
					s.touch(p, "apply_patch")
				}
			}
		}
	}
}

// patchText returns the patch of an apply_patch call, whose input is the
// patch as a JSON string or an object holding it.
func patchText(raw json.RawMessage) string {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s
	}
	in := decodeObject(raw)
	for _, k := range []string{"input", "patch", "diff"} {
		if p, ok := in[k].(string); ok {
			return p
		}
	}
	return shellCommand(in)
}

var patchHeaderRe = regexp.MustCompile(`(?m)^(?:\*\*\* (?:Update|Add|Delete) File: (.+?)|\*\*\* Move to: (.+?)|\+\+\+ (?:b/)?(.+?))\s*$`)

// patchFiles lists the files a patch (Codex apply_patch or unified diff)
// changes.
func patchFiles(patch string) []string {
	var out []string
	for _, m := range patchHeaderRe.FindAllStringSubmatch(patch, -1) {
		for _, g := range m[1:] {
			if g != "" {
				if i := strings.IndexByte(g, '\t'); i >= 0 { // diff timestamps
					g = g[:i]
				}
				out = append(out, g)
			}
		}
	}
	return out
}

var (
	wrapperBlockRe = regexp.MustCompile(`(?s)<(command-name|command-message|local-command-stdout|local-command-stderr|system-reminder|environment_context|user_instructions|user-prompt-submit-hook)>.*?</(command-name|command-message|local-command-stdout|local-command-stderr|system-reminder|environment_context|user_instructions|user-prompt-submit-hook)>`)
	argsTagRe      = regexp.MustCompile(`</?command-args>`)
)

// userRequest returns what a person actually asked in a user message, or
// "" when the message is harness text: command wrappers, reminders,
// local-command caveats, interrupt markers.
func userRequest(text string) string {
	t := wrapperBlockRe.ReplaceAllString(text, "")
	t = strings.TrimSpace(argsTagRe.ReplaceAllString(t, ""))
	switch {
	case t == "",
		strings.HasPrefix(t, "Caveat: The messages below were generated by the user while running local commands"),
		strings.HasPrefix(t, "[Request interrupted by user"),
		strings.HasPrefix(t, "# AGENTS.md instructions"),
		strings.HasPrefix(t, "This session is being continued from a previous conversation"):
		return ""
	}
	return t
}

var primaryRequestRe = regexp.MustCompile(`(?is)primary request(?: and intent)?\**:?\**\s*(.+?)(?:\n\s*(?:\d+\.|#+)\s|\z)`)

// primaryRequest returns the "Primary Request" section of a compaction
// summary.
func primaryRequest(summary string) string {
	m := primaryRequestRe.FindStringSubmatch(summary)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(spaceRun.ReplaceAllString(m[1], " "))
}

// truncate cuts s to at most n runes, marking the cut with "…".
func truncate(s string, n int) string {
	s = strings.TrimSpace(s)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return truncate(s, 120)
}

// describeTask renders a task for a next-step sentence.
func describeTask(t handoff.Task) string {
	return fmt.Sprintf("%s (task %s)", truncate(t.Content, 200), t.ID)
}

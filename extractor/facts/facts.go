package facts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
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
	// Errors are the failed tool runs, newest first (by latest
	// occurrence), repeats folded into Occurrences, each with a
	// resolution judged from later evidence: the same program on the same
	// target succeeding, a broader green run of the same suite, a success
	// after an edit of the file the error names, or the assistant saying
	// it is fixed or worked around. Context is what the assistant said it
	// was about to do; ResolutionNotes the first sentences it said after.
	Errors    []handoff.ErrorRecord
	TestState *handoff.TestState
	// Checks are the builds, linters and dry runs, newest result each.
	Checks []handoff.CheckState
	// ToolCalls counts every tool call, subagents' included.
	ToolCalls int
	// LastUserRequest is the latest real request the person made.
	LastUserRequest string
	// Commits are the commits the session made, from git's own output
	// ("[branch 1a2b3c4] message") and Aider's "Commit 1a2b3c4 message".
	Commits []handoff.Commit
	// Branch is the branch the session's own git output last named (a
	// commit summary, "Switched to branch"), "" when none did.
	Branch string
	// Ignored counts failed tool results that are not errors for a
	// successor and so are not in Errors, by kind: "no_match" (a search
	// that found nothing), "probe" (which, test -f, ls of a missing path,
	// --version, git diff --exit-code), "rejected" (the person declined
	// or interrupted the call), "harness" ("File has not been read yet").
	Ignored map[string]int
}

// Limits on text copied into facts, in runes.
const (
	goalLimit         = 600
	ErrorMessageLimit = 300
	errorNotesLimit   = 300
	errorContextLimit = 200
)

// Compute derives the facts from a transcript's messages. Goal, plan,
// errors and tests come from the main thread; files modified include the
// subagents' edits, since those changed the tree too.
func Compute(msgs []handoff.Message) Facts {
	f, _ := computeFacts(msgs)
	return f
}

// computeFacts is Compute that also returns, for each error (in the
// order of Facts.Errors), the assistant text said just before the failing
// call, for the heuristic extractor's error context.
//
// It is one pass over the messages: tools are judged by the shape of
// their input, results are paired with their calls as they arrive, and
// every error is resolved by evidence that comes after it.
func computeFacts(msgs []handoff.Message) (Facts, []string) {
	return ComputeWith(msgs, nil)
}

// ComputeWith is computeFacts sharing heads with the rest of a Build.
func ComputeWith(msgs []handoff.Message, heads *Headlines) (Facts, []string) {
	fp := newFactsPass(heads)
	// A forked rollout (Codex) opens with its parent's history replayed
	// as sidechain traffic before its own first message: those edits are
	// the parent's work, and a fork told "do not edit web files" would
	// seem to have. A file that is all sidechain (a sub-agent's own log)
	// is that agent's work.
	replay := slices.ContainsFunc(msgs, func(m handoff.Message) bool { return !m.Sidechain })
	for _, m := range msgs {
		replay = replay && m.Sidechain
		fp.message(m, replay)
	}
	return fp.finish()
}

// factsPass is computeFactsWith's state over its one pass.
type factsPass struct {
	f           Facts
	heads       *Headlines
	p           *pairing
	sh          *Shapes
	files       *fileSet
	errs        *errorLog
	subs        *subagents
	checks      *checkLog
	commits     CommitLog
	summaryGoal string
	said        string // the main thread's latest assistant text
	planTool    bool   // a plan tool gave the tasks: checkboxes no longer do
	editsAtTest int    // files.codeEdits when the last test ran
}

func newFactsPass(heads *Headlines) *factsPass {
	errs := newErrorLog()
	errs.heads = heads
	return &factsPass{
		heads: heads, p: newPairing(), sh: &Shapes{Heads: heads}, files: NewFileSet(),
		errs: errs, subs: newSubagents(heads), checks: newCheckLog(),
	}
}

// message reads one message; replay marks the parent's history a forked
// rollout opens with.
func (fp *factsPass) message(m handoff.Message, replay bool) {
	fp.f.ToolCalls += len(m.ToolCalls)
	hasText := strings.TrimSpace(m.Text) != ""
	if m.Role == handoff.RoleAssistant && !m.Sidechain && hasText {
		fp.said = m.Text
		fp.errs.said(m, m.Text)
		fp.files.addAssistantText(m.Text)
	}
	if (m.Role == handoff.RoleSystem || m.Meta) && hasText {
		fp.files.addHarnessText(m.Text)
		fp.commits.observeHarness(m, m.Text)
	}
	fp.calls(m, replay)
	if m.Sidechain {
		fp.subs.observe(m)
		return
	}
	fp.subs.mainThread()
	for _, c := range m.ToolCalls {
		fp.subs.Call(c)
	}
	if m.Role == handoff.RoleUser && !m.Meta {
		fp.userMessage(m)
	}
	if !fp.planTool && m.Role == handoff.RoleAssistant && hasText {
		if tasks := checkboxTasks(m.Text); tasks != nil {
			fp.f.Tasks = tasks
		}
	}
	for _, r := range m.ToolResults {
		fp.Result(m, r)
	}
}

// calls classifies a message's tool calls and keeps them for their
// results.
func (fp *factsPass) calls(m handoff.Message, replay bool) {
	for _, c := range m.ToolCalls {
		info := fp.sh.Classify(c)
		info.said = fp.said
		info.step = m.Index
		fp.p.Add(c.ID, info)
		if !replay {
			fp.files.AddCall(info)
		}
		if info.Kind == KindPlan && !m.Sidechain {
			if tasks, ok := PlanTasks(c, fp.heads); ok {
				fp.f.Tasks, fp.planTool = tasks, true
			}
		}
	}
}

// userMessage reads the person's message: the goal, the latest request,
// or a compaction summary's goal kept for when no request names one.
func (fp *factsPass) userMessage(m handoff.Message) {
	if m.CompactSummary {
		if fp.summaryGoal == "" {
			fp.summaryGoal = PrimaryRequest(m.Text)
		}
		return
	}
	if req := UserRequest(m.Text); req != "" {
		fp.errs.userPasted(m, m.Text)
		if fp.f.Goal == "" {
			fp.f.Goal = prose.Truncate(req, goalLimit)
		}
		fp.f.LastUserRequest = prose.Truncate(req, goalLimit)
	}
}

// Result reads one tool result against its call: files, commits, errors,
// sub-agents, tests and checks.
func (fp *factsPass) Result(m handoff.Message, r handoff.ToolResult) {
	if !fp.planTool {
		if tasks := checkboxTasks(r.Content); tasks != nil {
			fp.f.Tasks = tasks
		}
	}
	call, ok := fp.p.settle(r)
	if !ok {
		return
	}
	fail := fp.heads.Failed(r)
	if !fail {
		fp.files.addResult(call, r.Content)
		if call.Shell() {
			before := len(fp.commits.List)
			fp.commits.ObserveShell(m, r.Content)
			if len(fp.commits.List) > before {
				fp.errs.committed(m)
			}
		}
	}
	fp.errs.observe(m, r, call, fail)
	if !fail {
		fp.subs.success(m, call)
	}
	if call.Shell() && call.testCommand() {
		fp.f.TestState = TestState(call.Command, r, fail, m)
		fp.editsAtTest = fp.files.codeEdits
		if fp.f.TestState.Status == handoff.TestsPassing {
			fp.errs.tested(m)
		}
	} else if call.Shell() {
		fp.checks.observe(call, r, fail, m, fp.files.codeEdits)
	}
}

// finish puts the facts together once every message is read, with each
// error's context.
func (fp *factsPass) finish() (Facts, []string) {
	f := fp.f
	if f.Goal == "" {
		f.Goal = prose.Truncate(fp.summaryGoal, goalLimit)
	}
	if f.TestState != nil {
		f.TestState.EditsAfter = fp.files.codeEdits - fp.editsAtTest
	}
	f.Checks = fp.checks.states(fp.files.codeEdits)
	f.CurrentTaskID, f.NextTaskID = CurrentAndNext(f.Tasks)
	f.FilesModified = fp.files.List()
	var contexts []string
	f.Errors, contexts = fp.errs.records()
	subErrs, subContexts := fp.subs.records()
	f.Errors, contexts = append(f.Errors, subErrs...), append(contexts, subContexts...)
	f.Ignored = fp.errs.ignored
	f.Commits = fp.commits.List
	f.Branch = fp.commits.branch
	return f, contexts
}

var (
	quotedCommandRe = prose.LazyRE(rulebook.Pattern("facts.quoted-command"))
	// specStoryShellRe is SpecStory's shell result: an optional
	// description line, the command in backticks, then the output in a
	// fence.
	specStoryShellRe = prose.LazyRE(rulebook.Pattern("facts.specstory-shell"))
)

// quotedCommand reads the command SpecStory writes at the head of a shell
// result ("`go test ./...`"), after the call's description when it has
// one.
func quotedCommand(content string) string {
	if cmd, _, ok := specStoryShell(content); ok {
		return cmd
	}
	if m := quotedCommandRe.FindStringSubmatch(strings.TrimSpace(prose.HeadOf(content, 600))); m != nil {
		return m[1]
	}
	return ""
}

// specStoryShell splits a SpecStory shell result into its command and the
// output inside the fence.
func specStoryShell(content string) (cmd, out string, ok bool) {
	m := specStoryShellRe.FindStringSubmatch(strings.TrimSpace(content))
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

var checkboxRe = prose.LazyRE(rulebook.Pattern("facts.checkbox"))

// checkboxTasks reads a terminal-paste todo list (☐ pending, ☒ done, ◼ in
// progress), for sessions without a plan tool; nil when text holds none.
func checkboxTasks(text string) []handoff.Task {
	if !strings.ContainsAny(text, "☐☒◼") {
		return nil
	}
	var tasks []handoff.Task
	for _, m := range checkboxRe.FindAllStringSubmatch(text, 64) {
		st := handoff.TaskPending
		switch m[1] {
		case "☒", "✓", "✔", "[x]", "[X]":
			st = handoff.TaskCompleted
		case "◼", "■", "[~]":
			st = handoff.TaskInProgress
		}
		tasks = append(tasks, handoff.Task{ID: strconv.Itoa(len(tasks) + 1), Content: prose.Truncate(m[2], 300), Status: st})
	}
	return tasks
}

// DecodeObject decodes a tool input holding a JSON object; an empty map
// when it holds none.
func DecodeObject(raw json.RawMessage) map[string]any {
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
	SpaceRun    = prose.LazyRE(rulebook.Pattern("text.space-run"))
	LeadingCd   = prose.LazyRE(rulebook.Pattern("facts.leading-cd"))
	TrailingCut = prose.LazyRE(rulebook.Pattern("facts.trailing-cut"))
)

// NormalizeCommand makes two runs of the same command compare equal:
// white space collapsed, a leading `cd X &&` and a trailing `2>&1 | tail`
// removed.
//
// Every successful call's command is normalized (errorKey), so the
// regexps are skipped where they cannot change the text: spaceRun when
// the only white space is single spaces, trailingCut when the text ends
// in none of the bytes a non-empty match of it can end in.
func NormalizeCommand(cmd string) string {
	c := cmd
	if strings.ContainsAny(c, "\t\n\f\r") || strings.Contains(c, "  ") {
		c = SpaceRun.ReplaceAllString(c, " ")
	}
	c = strings.TrimSpace(c)
	for {
		next := LeadingCd.ReplaceAllString(c, "")
		if next == c {
			break
		}
		c = next
	}
	if c == "" || !strings.ContainsRune(" \t\n\f\r0123456789dln", rune(c[len(c)-1])) {
		return strings.TrimSpace(c) // trailingCut matches only empty here
	}
	return strings.TrimSpace(TrailingCut.ReplaceAllString(c, ""))
}

// PlanTasks reads a plan from a call shaped like TodoWrite (todos[]) or
// update_plan (plan[]).
func PlanTasks(c handoff.ToolCall, heads *Headlines) ([]handoff.Task, bool) {
	if !mayHaveKey(c.Input, `"todos"`, `"plan"`) {
		return nil, false
	}
	items, ok := planItems(c.Name, heads.Object(c.Input))
	if !ok {
		return nil, false
	}
	tasks := make([]handoff.Task, 0, len(items))
	for i, it := range items {
		obj, ok := it.(map[string]any)
		if !ok {
			continue
		}
		t := handoff.Task{ID: strconv.Itoa(i + 1), Status: normalizeStatus(Str(obj, "status"))}
		if id := idString(obj["id"]); id != "" {
			t.ID = id
		}
		for _, k := range []string{"content", "step", "description", "title", "task"} {
			if s := Str(obj, k); s != "" {
				t.Content = s
				break
			}
		}
		t.Priority = Str(obj, "priority")
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

// mayHaveKey reports whether the JSON object raw may hold one of the
// quoted keys: false only when it is no object, or none of them is
// written out and no \u escape could spell one. Most calls are neither a
// plan nor a patch, and decoding each input to learn that was a tenth of
// a large compile's allocation.
func mayHaveKey(raw json.RawMessage, quotedKeys ...string) bool {
	if len(raw) == 0 || raw[0] != '{' {
		return false
	}
	if bytes.Contains(raw, []byte(`\u`)) {
		return true
	}
	for _, k := range quotedKeys {
		if bytes.Contains(raw, []byte(k)) {
			return true
		}
	}
	return false
}

// Str returns obj[k] when it is a string, else "".
func Str(obj map[string]any, k string) string {
	s, _ := obj[k].(string)
	return strings.TrimSpace(s)
}

// CurrentAndNext returns the ids of the first task in progress and of the
// first pending one.
func CurrentAndNext(tasks []handoff.Task) (current, next string) {
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

var (
	wrapperBlockRe = prose.LazyRE(rulebook.Pattern("facts.wrapper-block"))
	argsTagRe      = prose.LazyRE(rulebook.Pattern("facts.args-tag"))
)

// UserRequest returns what a person actually asked in a user message, or
// "" when the message is harness text: command wrappers, reminders,
// local-command caveats, interrupt markers.
func UserRequest(text string) string {
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

var primaryRequestRe = prose.LazyRE(rulebook.Pattern("facts.primary-request"))

// PrimaryRequest returns the "Primary Request" section of a compaction
// summary, one line per line of the section: the summaries write it as a
// list of the session's requests, which reads as a list only with its
// line breaks.
func PrimaryRequest(summary string) string {
	m := primaryRequestRe.FindStringSubmatch(summary)
	if m == nil {
		return ""
	}
	var lines []string
	for _, line := range strings.Split(m[1], "\n") {
		if line = strings.TrimSpace(SpaceRun.ReplaceAllString(line, " ")); line != "" {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}

// DescribeTask renders a task for a next-step sentence.
func DescribeTask(t handoff.Task) string {
	return fmt.Sprintf("%s (task %s)", QuoteData(prose.Truncate(t.Content, 200)), t.ID)
}

// QuoteData sets transcript text apart inside a sentence of handoff's own:
// in curly quotes, on one line, with curly quotes inside made straight so
// the text cannot close the quote.
func QuoteData(s string) string {
	s = strings.NewReplacer("“", `"`, "”", `"`, "\r", " ", "\n", " ").Replace(s)
	return "“" + strings.TrimSpace(s) + "”"
}

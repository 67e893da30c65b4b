package handoff

import (
	"path"
	"regexp"
	"strings"
	"time"
)

// SnapshotSchemaVersion is the version of the Snapshot JSON layout written
// by this build. Stored snapshots keep the version they were written with,
// so a reader can migrate older ones in memory.
const SnapshotSchemaVersion = 1

// Trigger says why a snapshot was taken.
type Trigger string

// The snapshot triggers of the session-continuity model, plus TriggerManual
// and TriggerExtract.
const (
	TriggerPause        Trigger = "pause"
	TriggerTaskComplete Trigger = "task_complete"
	TriggerExhaustion   Trigger = "exhaustion"
	TriggerTimeout      Trigger = "timeout"
	TriggerCrash        Trigger = "crash"
	// TriggerManual is a snapshot taken on demand (`handoff compile`) that
	// does not pause the workflow. DESIGN.md's list has no such value, and
	// recording an on-demand compile as a pause would mark workflows paused
	// that are still running.
	TriggerManual Trigger = "manual"
	// TriggerExtract is a snapshot recorded by batch extraction over a
	// past session (`handoff extract`): history, not a live checkpoint, so
	// it neither pauses nor resumes anything.
	TriggerExtract Trigger = "extract"
)

// Valid reports whether t is one of the known triggers.
func (t Trigger) Valid() bool {
	switch t {
	case TriggerPause, TriggerTaskComplete, TriggerExhaustion, TriggerTimeout, TriggerCrash, TriggerManual, TriggerExtract:
		return true
	}
	return false
}

// Snapshot is everything a fresh session needs to continue a piece of work:
// the goal, the plan and where it stands, the decisions taken and why, the
// errors still open, and the state of the tree and the tests.
//
// It is stored as JSON and is immutable once stored. Secrets never enter it:
// the pipeline redacts the transcript before a snapshot is built.
type Snapshot struct {
	SchemaVersion int    `json:"schema_version"`
	ID            string `json:"id"`
	WorkflowID    string `json:"workflow_id"`
	SessionNumber int    `json:"session_number"`
	// SessionID is the agent's own id of the session the snapshot was
	// taken from, when the transcript has one.
	SessionID   string    `json:"session_id,omitempty"`
	CreatedAt   time.Time `json:"created_at"`
	Trigger     Trigger   `json:"trigger"`
	PauseReason string    `json:"pause_reason,omitempty"`

	// Goal is the overall request: what the person asked for, from the
	// first real request (or a compaction summary's primary request).
	Goal string `json:"goal,omitempty"`
	// LatestRequest is the newest real request the person made; it is the
	// goal of the work in hand when it differs from Goal.
	LatestRequest string `json:"latest_request,omitempty"`
	// Requests are the person's own messages (never tool results, skill or
	// persona expansions, system reminders or slash-command bodies),
	// deduplicated and clipped, oldest first.
	Requests []Request `json:"requests,omitempty"`
	// Constraints are the person's standing instructions and preferences
	// ("don't …", "never …", "keep …", "use X not Y", "ask before …").
	Constraints []Constraint `json:"constraints,omitempty"`
	// Language is the language the person writes in ("French"), when it
	// is not English: the successor should answer in it.
	Language string `json:"language,omitempty"`
	// EndState says where the session stopped: the successor's first read.
	EndState *EndState `json:"end_state,omitempty"`
	// Commits are the commits the session made, from git's own output.
	Commits []Commit `json:"commits,omitempty"`
	// FileNotes are the decisions, status and next steps the agent wrote
	// into notes files (STATUS.md, DECISIONS.md, ADRs, TODO.md, …), the
	// latest writing per file.
	FileNotes []FileNote `json:"file_notes,omitempty"`
	// Carried is what the agent's latest compaction summary carried
	// forward, section by section, when the transcript has one.
	Carried *Carried `json:"carried,omitempty"`
	// Recent is the end of the conversation (user and assistant text, one
	// line per tool call), oldest first, so that a prompt is never poorer
	// than the transcript's own tail.
	Recent []Turn `json:"recent,omitempty"`
	// Tasks is the agent's own latest plan (TodoWrite, update_plan).
	// PlanDoc is the newest plan document the agent presented for approval
	// and that was not turned down (Claude Code's ExitPlanMode plan): the
	// phases and files the todo list only names.
	PlanDoc       *PlanDoc `json:"plan_doc,omitempty"`
	Tasks         []Task   `json:"tasks,omitempty"`
	CurrentTaskID string   `json:"current_task_id,omitempty"`
	NextTaskID    string   `json:"next_task_id,omitempty"`
	// NextStep is the single most useful thing to do first on resuming.
	NextStep string `json:"next_step,omitempty"`

	GitState  *GitState     `json:"git_state,omitempty"`
	GitSeen   *GitSeen      `json:"git_seen,omitempty"` // what the session's own git commands showed
	Decisions []Decision    `json:"decisions,omitempty"`
	Errors    []ErrorRecord `json:"errors,omitempty"`
	TestState *TestState    `json:"test_state,omitempty"`
	Usage     Usage         `json:"usage"`
	// Checks are the builds, type checks, linters and dry runs the session
	// ran (make, cargo build, tsc, go vet, pdflatex, bash -n, goreleaser
	// --snapshot, …), one per program and target, the newest result each:
	// TestState holds only test runners, and a successor must know
	// whether the project still builds.
	Checks []CheckState `json:"checks,omitempty"`
	// FilesModified lists each modified file once, in order of its last
	// modification (the newest last).
	FilesModified []FileChange `json:"files_modified,omitempty"`

	// Source describes the transcript the snapshot was built from.
	Source SourceInfo `json:"source"`
}

// CurrentDecisions returns the decisions not superseded by a later one.
func (s *Snapshot) CurrentDecisions() []Decision {
	var out []Decision
	for _, d := range s.Decisions {
		if d.SupersededBy == "" {
			out = append(out, d)
		}
	}
	return out
}

// UnresolvedErrors returns the errors whose resolution is unresolved or
// deferred: what the next session still has to deal with.
func (s *Snapshot) UnresolvedErrors() []ErrorRecord {
	var out []ErrorRecord
	for _, e := range s.Errors {
		if e.Resolution == ResolutionUnresolved || e.Resolution == ResolutionDeferred {
			out = append(out, e)
		}
	}
	return out
}

// SourceInfo says where a snapshot's transcript came from.
type SourceInfo struct {
	Path     string `json:"path,omitempty"`
	Format   string `json:"format,omitempty"`
	Agent    string `json:"agent,omitempty"`
	Model    string `json:"model,omitempty"`
	CWD      string `json:"cwd,omitempty"`
	Messages int    `json:"messages"`
	// Warnings is how many records the parser skipped.
	Warnings int `json:"warnings,omitempty"`
	// GitBranch is the branch the transcript itself records, if any.
	GitBranch string `json:"git_branch,omitempty"`
	// EndedAt is the time of the session's last message, when known: the
	// time the snapshot describes, as opposed to CreatedAt.
	EndedAt time.Time `json:"ended_at,omitzero"`
	// Title, Worktree, WorktreeBranch and PullRequests are the
	// transcript's own (see SessionInfo).
	Title          string   `json:"title,omitempty"`
	Worktree       string   `json:"worktree,omitempty"`
	WorktreeBranch string   `json:"worktree_branch,omitempty"`
	PullRequests   []string `json:"pull_requests,omitempty"`
}

// Request is one message the person wrote.
type Request struct {
	Text   string     `json:"text"`
	Source MessageRef `json:"source"`
	// Line is the transcript line the message came from, when known.
	Line      int       `json:"line,omitempty"`
	Timestamp time.Time `json:"timestamp,omitzero"`
	// Answers names the question or option list this message answered
	// (an option pick such as "(a) and (c)" resolved against the list).
	Answers string `json:"answers,omitempty"`
	// Command is the custom slash command the person ran ("/create-checkpoint")
	// when Text is that command's expanded prompt: a reusable procedure,
	// so it can be the latest request but is the goal only when nothing
	// else is.
	Command string `json:"command,omitempty"`
	// RunsCommand marks a message that only runs a harness command
	// ("/clear", "/model opus", "Execute /hi"): kept in the record, but
	// it asks for what the command does, which the turns after it show.
	RunsCommand bool `json:"runs_command,omitempty"`
}

// Constraint is a standing instruction or preference of the person's.
type Constraint struct {
	Text   string     `json:"text"`
	Source MessageRef `json:"source"`
}

// EndState is where a session stopped.
type EndState struct {
	// LastAssistant is the final assistant turn's text, clipped at
	// sentence boundaries: the deliverable, a question, "next I'll …".
	LastAssistant string     `json:"last_assistant,omitempty"`
	LastSource    MessageRef `json:"last_source"`
	// Question is a question the assistant put to the user and that is
	// still unanswered.
	Question string `json:"question,omitempty"`
	// StatedNext is the assistant's own stated next step in its last turns.
	StatedNext string `json:"stated_next,omitempty"`
	// CurrentWork is what the session was in the middle of, as an LLM
	// extractor judged it from a message it cites (empty offline).
	CurrentWork string `json:"current_work,omitempty"`
	// Unanswered are the person's messages after the last completed
	// assistant turn, oldest first.
	Unanswered []string `json:"unanswered,omitempty"`
	// InFlight are tool calls left without a result, one line each.
	InFlight []string `json:"in_flight,omitempty"`
	// Signal is the format's own end signal, if any ("submitted",
	// "finished", "awaiting user input", "user exited", "turn aborted").
	Signal string `json:"signal,omitempty"`
	// Patch is the changed lines ("-old", "+new") of the diff the run
	// submitted, when it ended by submitting one: the deliverable itself.
	Patch []string `json:"patch,omitempty"`
	// KeyLines are the lines of the assistant's last long reports (other
	// than its very last message and Report) that carry state or facts:
	// what builds or fails, what is next, the files and figures. Reports
	// a few turns back hold results the last message does not repeat.
	KeyLines []KeyLine `json:"key_lines,omitempty"`
	// Findings are key lines of the reports before those, newest first:
	// what the session established earlier (a verdict, a change made, a
	// figure) and no later report overturned.
	Findings []KeyLine `json:"findings,omitempty"`
	// ReportedFiles are, for a transcript that records no tool calls, the
	// files the assistant's reports say were changed, the newest last:
	// the only record of what was edited.
	ReportedFiles []string `json:"reported_files,omitempty"`
	// ReportedChecks are, for such a transcript, the newest lines of the
	// assistant's messages that state a test or build result, newest
	// first: the only record of what ran.
	ReportedChecks []string `json:"reported_checks,omitempty"`
	// Report is the key lines of the assistant's last long report when its
	// very last message is a short close ("Done!"): the report says where
	// things stand, the close does not.
	Report       string     `json:"report,omitempty"`
	ReportSource MessageRef `json:"report_source,omitzero"`
	// Reasoning is what the agent was in the middle of when the session
	// ended inside a tool loop with nothing said: its newest reasoning
	// (Codex reasoning summaries, Claude thinking), then the headlines of
	// the steps after it.
	Reasoning       string     `json:"reasoning,omitempty"`
	ReasoningSource MessageRef `json:"reasoning_source,omitzero"`
	// Commands are the harness commands the person ran after the last
	// assistant turn, each with the start of the harness's answer
	// ("/context → 201k/200k tokens (100%)"): how the session really ended.
	Commands []string `json:"commands,omitempty"`
	// Intent is the sentence of the assistant's last words that announced
	// an action ("Let me update the runner:").
	Intent string `json:"intent,omitempty"`
	// Trailing describes the calls made after the assistant's last words,
	// oldest first: work in flight when the session stopped.
	Trailing []string `json:"trailing,omitempty"`
	// Verify is the command to run once the in-flight work is done, and
	// VerifyWhy what makes it the one (a script just written and never
	// run, the check that last failed, with the symbols it failed on).
	Verify    string `json:"verify,omitempty"`
	VerifyWhy string `json:"verify_why,omitempty"`
	// Note is the agent's own handoff note, the newest one it wrote (asked
	// for at the checkpoint); nil when it wrote none.
	Note *AgentNote `json:"note,omitempty"`
}

// KeyLine is one line of an assistant report, scored by how much state it
// carries (a verdict, a next step, a path or figure), with the message it
// comes from.
type KeyLine struct {
	Text   string     `json:"text"`
	Score  int        `json:"score"`
	Source MessageRef `json:"source"`
}

// Carried is an agent's own compaction summary, cut into its sections
// ("Pending Tasks", "Current Work", "Optional Next Step", or a Gemini
// state snapshot's <current_plan> …).
type Carried struct {
	Source MessageRef `json:"source"`
	// AtEnd reports that nothing the assistant said follows the summary:
	// its current-work and next-step sections describe where the session
	// stopped.
	AtEnd    bool             `json:"at_end,omitempty"`
	Sections []CarriedSection `json:"sections"`
}

// CarriedSection is one section of a compaction summary.
type CarriedSection struct {
	Title string `json:"title"`
	Text  string `json:"text"`
	// Kind classifies the section for ranking: current_work, next_step,
	// pending, problems, user_messages, request, or other.
	Kind string `json:"kind"`
}

// FileNote is what the agent last wrote into a notes file, cut down to
// the sections a successor needs (decisions, status, next steps, open
// issues).
type FileNote struct {
	Path   string     `json:"path"`
	Text   string     `json:"text"`
	Source MessageRef `json:"source"`
}

// historyPathRe names a file that keeps history rather than the current
// state: under an archive/old/history folder, or named so.
var historyPathRe = regexp.MustCompile(`(?i)(^|/)(archive[sd]?|old|history|attic|legacy|deprecated)/|(^|[-_./])(previous|prev|old|archived?|history|historical|legacy|backup|bak)([-_.]|$)`)

// History reports whether the note's file keeps history ("previous
// notes", an archive): what it holds was true once, and the status file
// beside it says what is true now. The extractor sorts such notes after
// the current ones and the compiler ranks them last.
func (n FileNote) History() bool {
	return historyPathRe.MatchString(strings.TrimSuffix(n.Path, path.Ext(n.Path)))
}

// Commit is a commit the session made.
type Commit struct {
	Hash    string     `json:"hash,omitempty"`
	Message string     `json:"message"`
	Branch  string     `json:"branch,omitempty"`
	Source  MessageRef `json:"source"`
}

// Turn is one entry of the recent conversation.
type Turn struct {
	// Role is who spoke; RoleSystem is the person stopping the turn before
	// it, with Text the harness's record of that.
	Role Role `json:"role"`
	// Text is the message text, clipped; for a tool call, one line naming
	// the tool and its command or target, with its outcome when known.
	Text string `json:"text"`
	// ReadOnly says what a tool call that succeeded only looked at: "read",
	// "search", "list", "git" (status, log, diff, show), "plan" (a plan
	// update), "web"; "" for every other turn. A run of them is worth a
	// line, not a line each.
	ReadOnly string `json:"read_only,omitempty"`
	// Target is the path a read-only call looked at, when it names one.
	Target string `json:"target,omitempty"`
	// Thinking marks an assistant turn whose text is its reasoning (a
	// Codex reasoning summary, a Gemini thought): the step said nothing
	// aloud, and its reasoning is the only account of it.
	Thinking bool `json:"thinking,omitempty"`
	// Output is the head of what a tool call that succeeded printed — a
	// command's, a listing's or a search's, never a file read's or a web
	// page's — without its prose lines (an instruction is a sentence),
	// clipped: the raw tail of a transcript shows it, and a short
	// session's prompt has room for it.
	Output string     `json:"output,omitempty"`
	Source MessageRef `json:"source"`
	Line   int        `json:"line,omitempty"`
}

// MessageRef points back to the transcript message a record came from, so
// every extracted claim can be checked against its source.
type MessageRef struct {
	Index int    `json:"index"`
	ID    string `json:"id,omitempty"`
}

// TaskStatus is the state of one plan item.
type TaskStatus string

// Plan item states, as Claude Code's TodoWrite and Codex's update_plan use them.
const (
	TaskPending    TaskStatus = "pending"
	TaskInProgress TaskStatus = "in_progress"
	TaskCompleted  TaskStatus = "completed"
)

// Task is one item of the agent's plan.
type Task struct {
	ID      string     `json:"id"`
	Content string     `json:"content"`
	Status  TaskStatus `json:"status"`
	// Priority as the agent gave it (high, medium, low), if any.
	Priority string `json:"priority,omitempty"`
	// Later names a call after the plan's last update that worked on this
	// task (its words match the task's), when the agent did not mark it
	// done: the plan lags the calls, and the next step follows the calls.
	Later string `json:"later,omitempty"`
}

// DecisionType classifies a decision.
type DecisionType string

// The decision types of the snapshot schema.
const (
	DecisionApproach      DecisionType = "approach"
	DecisionLibrary       DecisionType = "library"
	DecisionArchitecture  DecisionType = "architecture"
	DecisionWorkaround    DecisionType = "workaround"
	DecisionSkip          DecisionType = "skip"
	DecisionClarification DecisionType = "clarification"
)

// RevertedPrefix opens the description of a decision recording a change
// that was tried and then undone, so a successor does not try it again;
// the extractor writes it and the compiler shows it as the line's kind.
const RevertedPrefix = "Tried and reverted: "

// UnconfirmedPrefix opens the description of a hedged claim the session
// never checked ("`X = 3` appears to be the value"): a successor needs
// the guess, but not as a settled choice; the compiler shows it as the
// line's kind.
const UnconfirmedPrefix = "Unconfirmed: "

// The person's pick of an offered option is recorded as a decision in
// our words around the session's: ChosePrefix + “answer” + AskedInfix +
// “question”, or PickedPrefix + “the options picked”. The extractor
// writes them; the compiler shows our words outside the quotes.
const (
	ChosePrefix  = "The person chose "
	PickedPrefix = "The person picked "
	AskedInfix   = " when asked "
)

// ApprovedRationale opens the rationale of a proposal the person
// approved: the approval is what makes the proposal a decision, so the
// compiler says so even where the budget leaves the rationale out.
const ApprovedRationale = "the person approved it: "

// DecisionTypes lists every valid DecisionType, for validation and schemas.
func DecisionTypes() []DecisionType {
	return []DecisionType{DecisionApproach, DecisionLibrary, DecisionArchitecture, DecisionWorkaround, DecisionSkip, DecisionClarification}
}

// Valid reports whether t is a known decision type.
func (t DecisionType) Valid() bool {
	for _, v := range DecisionTypes() {
		if t == v {
			return true
		}
	}
	return false
}

// Decision is a choice made during the session, with why, and what else
// was considered: the part of a session that built-in compaction loses first.
type Decision struct {
	ID           string       `json:"id"`
	Timestamp    time.Time    `json:"timestamp,omitzero"`
	TaskID       string       `json:"task_id,omitempty"`
	Type         DecisionType `json:"decision_type"`
	Description  string       `json:"description"`
	Rationale    string       `json:"rationale,omitempty"`
	Alternatives []string     `json:"alternatives_considered,omitempty"`
	Source       MessageRef   `json:"source"`
	// SupersededBy is the ID of a later decision that reversed this one.
	SupersededBy string `json:"superseded_by,omitempty"`
}

// Resolution says what became of an error.
type Resolution string

// The error resolutions of the snapshot schema.
const (
	ResolutionFixed      Resolution = "fixed"
	ResolutionWorkaround Resolution = "workaround"
	ResolutionDeferred   Resolution = "deferred"
	ResolutionUnresolved Resolution = "unresolved"
)

// Resolutions lists every valid Resolution.
func Resolutions() []Resolution {
	return []Resolution{ResolutionFixed, ResolutionWorkaround, ResolutionDeferred, ResolutionUnresolved}
}

// Valid reports whether r is a known resolution.
func (r Resolution) Valid() bool {
	for _, v := range Resolutions() {
		if r == v {
			return true
		}
	}
	return false
}

// ErrorRecord is an error met during the session and what became of it.
type ErrorRecord struct {
	ID string `json:"id"`
	// Type is a short class: tool_error, command_failed, test_failure,
	// build_error, or what the extractor judged it to be.
	Type    string `json:"error_type"`
	Message string `json:"error_message"`
	// Context is what was being attempted when it happened.
	Context string `json:"context,omitempty"`
	// Command is the shell command or tool invocation that failed.
	Command         string     `json:"command,omitempty"`
	Tool            string     `json:"tool,omitempty"`
	Resolution      Resolution `json:"resolution"`
	ResolutionNotes string     `json:"resolution_notes,omitempty"`
	Source          MessageRef `json:"source"`
	// ResolvedBy points to the message whose success resolved the error.
	ResolvedBy *MessageRef `json:"resolved_by,omitempty"`
	// Occurrences counts repeats of the same failure folded into this record.
	Occurrences int `json:"occurrences,omitempty"`
}

// TestStatus summarises the last test run.
type TestStatus string

// Test run outcomes.
const (
	TestsPassing TestStatus = "passing"
	TestsFailing TestStatus = "failing"
	TestsUnknown TestStatus = "unknown"
)

// TestState is the outcome of the last test command the agent ran.
type TestState struct {
	Command      string     `json:"command"`
	Status       TestStatus `json:"status"`
	FailingTests []string   `json:"failing_tests,omitempty"`
	// Summary is the runner's own closing line ("3 passed, 1 failed").
	Summary string     `json:"summary,omitempty"`
	Source  MessageRef `json:"source"`
	// EditsAfter counts the modifications of code files (not prose:
	// Markdown, text) made after this run: its verdict says nothing about them, and a successor should
	// know the latest changes are untested.
	EditsAfter int `json:"edits_after,omitempty"`
}

// CheckState is the newest outcome of one build, type check, lint or dry
// run (anything that verifies the project without running its tests). It
// is kept apart from TestState because a green build says nothing about
// the tests and a red one is its own next step ("fix the build").
type CheckState struct {
	Command string `json:"command"`
	// Kind names what the check verifies ("build", "type check", "lint",
	// "dry run", "syntax check"), for the prompt's wording.
	Kind   string     `json:"kind"`
	Status TestStatus `json:"status"`
	// Summary is the output line that says how it went: the first error
	// of a failing run, the closing line of a passing one.
	Summary string     `json:"summary,omitempty"`
	Source  MessageRef `json:"source"`
	// Line is the transcript line of the result, when known.
	Line int `json:"line,omitempty"`
	// Failures counts the runs in a row, up to this one, that failed: a
	// check failing three times is a wall the session hit, not a slip.
	Failures int `json:"failures,omitempty"`
	// PassedBefore says an earlier run of the same check passed: a
	// failure after it is a regression of the session's own making.
	PassedBefore bool `json:"passed_before,omitempty"`
	// EditsAfter counts code-file modifications after this run, which its
	// verdict does not cover.
	EditsAfter int `json:"edits_after,omitempty"`
}

// GitState is the repository state at snapshot time, read from git itself.
type GitState struct {
	// Available is false when there is no git or no repository; Note says why.
	Available   bool     `json:"available"`
	Note        string   `json:"note,omitempty"`
	Branch      string   `json:"branch,omitempty"`
	Commit      string   `json:"commit,omitempty"`
	StartCommit string   `json:"start_commit,omitempty"`
	Dirty       bool     `json:"dirty,omitempty"`
	Modified    []string `json:"modified,omitempty"`
	Staged      []string `json:"staged,omitempty"`
	Untracked   []string `json:"untracked,omitempty"`
	Diffstat    string   `json:"diffstat,omitempty"`
}

// FileChange is a file the agent modified, from its edit/write/patch calls.
type FileChange struct {
	Path string `json:"path"`
	// Operations lists the tools used on it in order of first use
	// (Edit, Write, apply_patch, …).
	Operations []string `json:"operations,omitempty"`
	// Edits counts the modifying tool calls on this file.
	Edits int `json:"edits"`
}

// UsageSource says where a token figure came from.
type UsageSource string

// Where token figures come from.
const (
	// UsageProvider means the model provider's own reported numbers.
	UsageProvider UsageSource = "provider"
	// UsageEstimate means counted with the local tokenizer.
	UsageEstimate UsageSource = "estimate"
)

// Usage is how full the session's context is and what the session cost.
type Usage struct {
	TokensUsed              int         `json:"tokens_used"`
	ContextWindow           int         `json:"context_window"`
	TokensRemainingEstimate int         `json:"tokens_remaining_estimate"`
	ContextUtilization      float64     `json:"context_utilization"`
	Source                  UsageSource `json:"usage_source"`
	Model                   string      `json:"model,omitempty"`
	LLMCalls                int         `json:"llm_calls"`
	ToolCalls               int         `json:"tool_calls"`
	CostUSD                 float64     `json:"cost_usd,omitempty"`
	SessionDurationSeconds  float64     `json:"session_duration_seconds,omitempty"`
	// Extraction is what handoff itself spent asking an LLM, if it did.
	Extraction *ExtractionUsage `json:"extraction,omitempty"`
}

// ExtractionUsage accounts for handoff's own LLM calls.
type ExtractionUsage struct {
	Extractor        string `json:"extractor"`
	Model            string `json:"model,omitempty"`
	Calls            int    `json:"calls"`
	CacheHits        int    `json:"cache_hits,omitempty"`
	PromptTokens     int    `json:"prompt_tokens"`
	CompletionTokens int    `json:"completion_tokens"`
}

// AgentNote is the handoff note an agent writes for its successor when its
// context fills: its own words on where the work stands, in a fixed shape
// (NoteHeading, then one "- Field: text" line per field). The extractor
// checks it against what the transcript shows.
type AgentNote struct {
	Done     string     `json:"done,omitempty"`
	InFlight string     `json:"in_flight,omitempty"`
	Next     string     `json:"next,omitempty"`
	Open     string     `json:"open,omitempty"`
	Remember string     `json:"remember,omitempty"`
	Source   MessageRef `json:"source"`
	// Superseded says turns after the note changed the state it describes
	// (the person spoke, or the agent made further changes): it is history,
	// not the current state.
	Superseded bool `json:"superseded,omitempty"`
	// Disputes lists where the note and the transcript disagree (a file it
	// calls edited that no call touched, tests it calls green that failed).
	Disputes []string `json:"disputes,omitempty"`
}

// NoteHeading opens an agent's handoff note. The checkpoint hook asks for
// exactly NoteTemplate's shape.
const NoteHeading = "## Handoff note"

// NoteField is one line of a handoff note: its label and text.
type NoteField struct{ Label, Text string }

// Fields returns the note's lines in NoteTemplate's order, empty ones
// included, for every place that prints a note.
func (n AgentNote) Fields() []NoteField {
	return []NoteField{{"Done", n.Done}, {"In flight", n.InFlight}, {"Next", n.Next}, {"Open problems", n.Open}, {"Remember", n.Remember}}
}

// NoteTemplate is the shape of a handoff note, for the hook's request and
// `handoff note --template`.
func NoteTemplate() string {
	return NoteHeading + `
- Done: what is finished and verified (files, commands that passed)
- In flight: what was being changed when you stopped, and its state
- Next: the exact first action for your successor (command with flags, file and symbol)
- Open problems: errors still failing, with the failing names
- Remember: constraints, decisions and preferences not to lose`
}

// PlanDoc is a plan document's outline: its headings and list items, in
// order, with the message that presented it.
type PlanDoc struct {
	Title   string     `json:"title,omitempty"`
	Outline []string   `json:"outline"`
	Source  MessageRef `json:"source"`
}

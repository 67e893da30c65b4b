package compiler

// View is what a resume template renders: a snapshot cut down to the
// items that fit the budget, with every string that came from the
// transcript already clipped, escaped and double-quoted (a Go string
// literal on one line). A template can therefore place any field anywhere
// without letting transcript text start a heading, close a block or read
// as an instruction. Fields holding such data say "quoted" below.
//
// The "More" fields are ready-made lines such as
// "… and 3 more (handoff show s1 --errors)", empty when nothing was cut.
type View struct {
	Header    HeaderView
	Goal      string // quoted; "" when none was recorded
	Plan      PlanView
	Decisions DecisionsView
	Errors    ErrorsView
	Files     FilesView
	Git       *GitView   // nil when no git state was recorded
	Tests     *TestsView // nil when no test run was recorded
	// NextStep is the snapshot's recorded next step, quoted.
	NextStep string
	// ShowDetail is the command that prints full records ("handoff show
	// <snapshot-id>"), or "" when the snapshot was not saved.
	ShowDetail string
	// Omitted lists what this rendering leaves out ("3 decisions, 2 done
	// tasks"), or "" when nothing was: for templates that do not print a
	// "… and K more" line per section.
	Omitted string
}

// HeaderView says which session this is and how full its context was.
type HeaderView struct {
	SnapshotID  string // safe identifier, or quoted
	Workflow    string // quoted
	Session     int
	When        string // "2025-03-01 14:05 UTC" or "an unknown time"
	Trigger     string // safe label
	PauseReason string // quoted
	// ContextUsage is "152,300 of 200,000 tokens (76.2%)" or "unknown".
	ContextUsage string
	// UsageSource is "provider-reported" or "estimated".
	UsageSource string
	Model       string // quoted
}

// PlanView is the agent's plan, split by status.
type PlanView struct {
	Total      int
	DoneCount  int
	Done       []TaskView
	DoneMore   string
	InProgress []TaskView
	// InProgressMore counts in-progress tasks cut for the budget.
	InProgressMore string
	Pending        []TaskView
	PendingMore    string
}

// TaskView is one plan item.
type TaskView struct {
	ID   string // safe identifier, or quoted
	Text string // quoted
	// Marker is "current task", "next task" or "".
	Marker   string
	Priority string // safe label
}

// DecisionsView lists the decisions still in force.
type DecisionsView struct {
	Current []DecisionView
	More    string
	// Superseded is a sentence saying how many earlier decisions were
	// reversed and are not shown, or "".
	Superseded string
}

// DecisionView is one decision in force.
type DecisionView struct {
	Type         string   // safe label
	Text         string   // quoted
	Rationale    string   // quoted; "" when none or cut for the budget
	Alternatives []string // quoted; nil when none or cut for the budget
	TaskID       string   // safe identifier, or quoted
}

// ErrorsView lists unresolved errors in full and resolved ones briefly.
type ErrorsView struct {
	Unresolved     []ErrorView
	UnresolvedMore string
	Resolved       []ErrorView
	ResolvedMore   string
}

// ErrorView is one error record.
type ErrorView struct {
	Type        string // safe label
	Resolution  string // safe label
	Message     string // quoted
	Command     string // quoted
	Context     string // quoted
	Notes       string // quoted
	Occurrences int
}

// FilesView lists the files the agent modified.
type FilesView struct {
	List []FileView
	More string
}

// FileView is one modified file.
type FileView struct {
	Path       string // quoted
	Operations string // safe labels joined by ", "
	Edits      int
}

// GitView is the repository state at snapshot time.
type GitView struct {
	Available   bool
	Note        string // quoted
	Branch      string // quoted
	Commit      string // safe identifier
	StartCommit string // safe identifier
	Dirty       bool
	Files       []GitFileView
	More        string
}

// GitFileView is one changed path in the working tree.
type GitFileView struct {
	State string // "modified", "staged" or "untracked"
	Path  string // quoted
}

// TestsView is the last test run.
type TestsView struct {
	Command     string // quoted
	Status      string // safe label
	Summary     string // quoted
	Failing     []string
	FailingMore string
}

package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/compiler"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/store"
)

// Limits on what one call may ask for. A tool result lands in the model's
// context, so the defaults are small and the maxima keep one call from
// flooding it.
const (
	maxBudget    = 32000
	defaultLimit = 50
	maxLimit     = 500
)

// register adds every tool. Each is read-only and idempotent, and closed
// world (it reads only the local database), which the annotations tell the
// client so it need not ask before calling.
func (s *Server) register() {
	ro := func(title string) *mcp.ToolAnnotations {
		no := false
		return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no}
	}
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "resume_prompt", Annotations: ro("Resume prompt"),
		Description: "The resume prompt compiled from a workflow's latest snapshot (or a named one), fitted to a token budget: where the previous session stopped, the next step, goal, plan, decisions, open errors, files, tests, git. Ask with a larger budget to see what a smaller prompt left out. Does not resume or change the workflow."},
		s.resumePrompt)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "list_workflows", Annotations: ro("List workflows"),
		Description: "The stored workflows (a piece of work across sessions), most recently active first: id, status, directory, session count, pause reason."},
		s.listWorkflows)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "list_snapshots", Annotations: ro("List snapshots"),
		Description: "A workflow's snapshots, newest first: id, session number, trigger, time, goal, context use, decisions in force and open errors. all_workflows lists every workflow's."},
		s.listSnapshots)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "decisions", Annotations: ro("Decisions"),
		Description: "A workflow's decisions with rationale and alternatives considered, from its latest snapshot (in force now) or its whole history, filtered by text, type, and whether reversed decisions are included."},
		s.decisions)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "errors", Annotations: ro("Errors"),
		Description: "A workflow's errors (message, command, context, resolution), from its latest snapshot or its history; unresolved_only keeps those still open (unresolved or deferred)."},
		s.errors)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "git_changes", Annotations: ro("Git changes"),
		Description: "The git state recorded in a snapshot (branch, commit, the workflow's start commit, modified, staged and untracked files, diffstat), the commits the session made, and the files it edited."},
		s.gitChanges)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "search_decisions", Annotations: ro("Search decisions"),
		Description: "Search the decisions of every stored workflow for text (in description, rationale and alternatives; ASCII case ignored), to find how a question was settled before, in this project or another."},
		s.searchDecisions)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "search", Annotations: ro("Search history"),
		Description: "Full-text search across every stored snapshot's decisions, errors, the person's requests, files modified and next steps: which sessions of which workflows mention all the words, best first, with a snippet. Answers 'what did we decide about X, and where?'."},
		s.search)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "handoff_note", Annotations: ro("Hand over a note"),
		Description: "Hand the next session your own note before the context fills or the session ends: what is done, what is in flight, the next step, open problems and what to remember. The transcript keeps this call, so the next snapshot reads the note, puts it first in the resume prompt as your words, and says where the transcript disagrees with it. Shape (at least Done or Next):\n" + handoff.NoteTemplate()},
		s.handoffNote)
}

// NoteInput is handoff_note's argument.
type NoteInput struct {
	Note string `json:"note" jsonschema:"the note: '- Done: …', '- In flight: …', '- Next: …', '- Open problems: …', '- Remember: …' lines, under '## Handoff note'"`
}

// NoteOutput is handoff_note's structured result: the note as the next
// snapshot will read it.
type NoteOutput struct {
	Note string `json:"note"`
}

// handoffNote checks the note's shape and echoes it; it stores nothing,
// since the call in the transcript is what carries the note over.
func (s *Server) handoffNote(_ context.Context, _ *mcp.CallToolRequest, in NoteInput) (*mcp.CallToolResult, NoteOutput, error) {
	note, err := session.CheckNote(in.Note)
	if err != nil {
		return nil, NoteOutput{}, failed(err)
	}
	return text("Noted; the next snapshot reads it from this call:\n\n" + note), NoteOutput{Note: note}, nil
}

// FullTextInput are the search tool's arguments.
type FullTextInput struct {
	Query    string `json:"query" jsonschema:"the words to find (all must occur; letters and digits, case ignored)"`
	Workflow string `json:"workflow,omitempty" jsonschema:"only this workflow (id or unique prefix)"`
	Limit    int    `json:"limit,omitempty" jsonschema:"at most this many sessions (default 20, at most 200)"`
}

// FullTextOutput is the search tool's structured result.
type FullTextOutput struct {
	Query string            `json:"query"`
	Hits  []store.SearchHit `json:"hits"`
}

func (s *Server) search(ctx context.Context, _ *mcp.CallToolRequest, in FullTextInput) (*mcp.CallToolResult, FullTextOutput, error) {
	db, err := s.db(ctx)
	if err != nil {
		return nil, FullTextOutput{}, failed(err)
	}
	q := store.SearchQuery{Text: in.Query, Limit: in.Limit}
	if in.Workflow != "" {
		wf, err := session.Resolve(ctx, db, session.Ref{Workflow: in.Workflow})
		if err != nil {
			return nil, FullTextOutput{}, failed(err)
		}
		q.WorkflowID = wf.ID
	}
	hits, err := db.Search(ctx, q)
	if err != nil {
		return nil, FullTextOutput{}, failed(err)
	}
	out := FullTextOutput{Query: in.Query, Hits: orEmpty(hits)}
	return text(renderSearch(out)), out, nil
}

// checkLimit validates a limit argument and applies the default.
func checkLimit(n int) (int, error) {
	switch {
	case n < 0 || n > maxLimit:
		return 0, handoff.Errorf(handoff.EINVALID, "limit must be between 0 and %d, got %d", maxLimit, n)
	case n == 0:
		return defaultLimit, nil
	}
	return n, nil
}

// resolve finds the workflow a call is about.
func (s *Server) resolve(ctx context.Context, workflow, dir string) (Store, *handoff.Workflow, error) {
	db, err := s.db(ctx)
	if err != nil {
		return nil, nil, err
	}
	wf, err := session.Resolve(ctx, db, s.ref(workflow, dir))
	if err != nil {
		return nil, nil, err
	}
	return db, wf, nil
}

// snapshot finds the snapshot a call is about: the named one (which must
// belong to the named workflow, if any), else the workflow's latest.
func (s *Server) snapshot(ctx context.Context, workflow, dir, snapshot string) (*handoff.Snapshot, error) {
	db, err := s.db(ctx)
	if err != nil {
		return nil, err
	}
	return session.SnapshotFor(ctx, db, snapshot, s.ref(workflow, dir))
}

// PromptInput are resume_prompt's arguments.
type PromptInput struct {
	Workflow string `json:"workflow,omitempty" jsonschema:"workflow id, or a unique prefix of one (handoff status lists them); default: the workflow of dir"`
	Dir      string `json:"dir,omitempty" jsonschema:"a project directory: its recorded workflow, or the nearest one above it; default: the directory handoff mcp runs in"`
	Snapshot string `json:"snapshot,omitempty" jsonschema:"snapshot id or unique prefix (list_snapshots gives them); default: the workflow's latest snapshot"`
	Budget   int    `json:"budget,omitempty" jsonschema:"the prompt's token budget (default 2000, at most 32000)"`
}

// PromptOutput is resume_prompt's structured result.
type PromptOutput struct {
	WorkflowID    string             `json:"workflow_id"`
	SnapshotID    string             `json:"snapshot_id"`
	SessionNumber int                `json:"session_number"`
	Trigger       handoff.Trigger    `json:"trigger"`
	CreatedAt     time.Time          `json:"created_at"`
	Budget        int                `json:"budget"`
	Tokens        int                `json:"tokens"`
	Dropped       []compiler.Dropped `json:"dropped,omitempty"`
	Truncated     bool               `json:"truncated,omitempty"`
	Prompt        string             `json:"prompt"`
}

func (s *Server) resumePrompt(ctx context.Context, _ *mcp.CallToolRequest, in PromptInput) (*mcp.CallToolResult, PromptOutput, error) {
	if in.Budget < 0 || in.Budget > maxBudget {
		return nil, PromptOutput{}, failed(handoff.Errorf(handoff.EINVALID, "budget must be between 0 and %d tokens, got %d", maxBudget, in.Budget))
	}
	snap, err := s.snapshot(ctx, in.Workflow, in.Dir, in.Snapshot)
	if err != nil {
		return nil, PromptOutput{}, failed(err)
	}
	res, err := compiler.Compile(snap, compiler.Options{Budget: in.Budget, Counter: s.opts.Counter})
	if err != nil {
		return nil, PromptOutput{}, failed(fmt.Errorf("compile resume prompt: %w", err))
	}
	out := PromptOutput{WorkflowID: snap.WorkflowID, SnapshotID: snap.ID, SessionNumber: snap.SessionNumber,
		Trigger: snap.Trigger, CreatedAt: snap.CreatedAt, Budget: res.Budget, Tokens: res.Tokens,
		Dropped: res.Dropped, Truncated: res.Truncated, Prompt: res.Prompt}
	// The text is the prompt itself: it is what the model reads, and it
	// already sets the transcript's text apart as data.
	return text(res.Prompt), out, nil
}

// WorkflowsInput are list_workflows' arguments.
type WorkflowsInput struct {
	Status string `json:"status,omitempty" jsonschema:"only workflows with this status: pending, in_progress, paused, blocked, completed, failed, cancelled"`
	Limit  int    `json:"limit,omitempty" jsonschema:"at most this many records (default 50, at most 500)"`
}

// WorkflowsOutput is list_workflows' structured result.
type WorkflowsOutput struct {
	Workflows []handoff.Workflow `json:"workflows"`
}

func (s *Server) listWorkflows(ctx context.Context, _ *mcp.CallToolRequest, in WorkflowsInput) (*mcp.CallToolResult, WorkflowsOutput, error) {
	limit, err := checkLimit(in.Limit)
	if err != nil {
		return nil, WorkflowsOutput{}, failed(err)
	}
	status := handoff.WorkflowStatus(strings.ToLower(strings.TrimSpace(in.Status)))
	if status != "" && !status.Valid() {
		return nil, WorkflowsOutput{}, failed(handoff.Errorf(handoff.EINVALID, "unknown status %q: want pending, in_progress, paused, blocked, completed, failed or cancelled", in.Status))
	}
	db, err := s.db(ctx)
	if err != nil {
		return nil, WorkflowsOutput{}, failed(err)
	}
	all, err := db.Workflows(ctx)
	if err != nil {
		return nil, WorkflowsOutput{}, failed(fmt.Errorf("list workflows: %w", err))
	}
	out := WorkflowsOutput{Workflows: []handoff.Workflow{}}
	for _, w := range all {
		if status == "" || w.Status == status {
			out.Workflows = append(out.Workflows, w)
		}
		if len(out.Workflows) == limit {
			break
		}
	}
	return text(renderWorkflows(out.Workflows)), out, nil
}

// SnapshotsInput are list_snapshots' arguments.
type SnapshotsInput struct {
	Workflow     string `json:"workflow,omitempty" jsonschema:"workflow id, or a unique prefix of one; default: the workflow of dir"`
	Dir          string `json:"dir,omitempty" jsonschema:"a project directory: its recorded workflow, or the nearest one above it; default: the directory handoff mcp runs in"`
	AllWorkflows bool   `json:"all_workflows,omitempty" jsonschema:"list the snapshots of every workflow, ignoring workflow and dir"`
	Limit        int    `json:"limit,omitempty" jsonschema:"at most this many records (default 50, at most 500)"`
}

// SnapshotsOutput is list_snapshots' structured result.
type SnapshotsOutput struct {
	// WorkflowID is the workflow listed; empty with all_workflows.
	WorkflowID string                  `json:"workflow_id,omitempty"`
	Snapshots  []store.SnapshotSummary `json:"snapshots"`
	// Skipped says which stored rows could not be read.
	Skipped []string `json:"skipped,omitempty"`
}

func (s *Server) listSnapshots(ctx context.Context, _ *mcp.CallToolRequest, in SnapshotsInput) (*mcp.CallToolResult, SnapshotsOutput, error) {
	limit, err := checkLimit(in.Limit)
	if err != nil {
		return nil, SnapshotsOutput{}, failed(err)
	}
	f := store.ListFilter{Limit: limit}
	db, err := s.db(ctx)
	if err != nil {
		return nil, SnapshotsOutput{}, failed(err)
	}
	if !in.AllWorkflows {
		_, wf, err := s.resolve(ctx, in.Workflow, in.Dir)
		if err != nil {
			return nil, SnapshotsOutput{}, failed(err)
		}
		f.WorkflowID = wf.ID
	}
	list, damaged, err := db.ListSnapshots(ctx, f)
	if err != nil {
		return nil, SnapshotsOutput{}, failed(fmt.Errorf("list snapshots: %w", err))
	}
	out := SnapshotsOutput{WorkflowID: f.WorkflowID, Snapshots: orEmpty(list), Skipped: messages(damaged)}
	return text(renderSnapshots(out)), out, nil
}

// DecisionsInput are the decisions tool's arguments.
type DecisionsInput struct {
	Workflow   string `json:"workflow,omitempty" jsonschema:"workflow id, or a unique prefix of one; default: the workflow of dir"`
	Dir        string `json:"dir,omitempty" jsonschema:"a project directory: its recorded workflow, or the nearest one above it; default: the directory handoff mcp runs in"`
	Grep       string `json:"grep,omitempty" jsonschema:"only decisions containing this text in description, rationale or alternatives (ASCII case ignored)"`
	Type       string `json:"type,omitempty" jsonschema:"only this decision type: approach, library, architecture, workaround, skip, clarification"`
	Superseded bool   `json:"superseded,omitempty" jsonschema:"include decisions a later one reversed"`
	History    bool   `json:"history,omitempty" jsonschema:"read every snapshot of the workflow (a decision repeats in each later session), not only the latest"`
	Limit      int    `json:"limit,omitempty" jsonschema:"at most this many records (default 50, at most 500)"`
}

// DecisionsOutput is the structured result of decisions and
// search_decisions.
type DecisionsOutput struct {
	// WorkflowID is the workflow read; empty for a search of all.
	WorkflowID string                 `json:"workflow_id,omitempty"`
	Decisions  []store.StoredDecision `json:"decisions"`
	Skipped    []string               `json:"skipped,omitempty"`
}

func (s *Server) decisions(ctx context.Context, _ *mcp.CallToolRequest, in DecisionsInput) (*mcp.CallToolResult, DecisionsOutput, error) {
	f, err := decisionFilter(in.Type, in.Grep, in.Superseded, in.History, in.Limit)
	if err != nil {
		return nil, DecisionsOutput{}, failed(err)
	}
	db, wf, err := s.resolve(ctx, in.Workflow, in.Dir)
	if err != nil {
		return nil, DecisionsOutput{}, failed(err)
	}
	f.WorkflowID = wf.ID
	return s.queryDecisions(ctx, db, f)
}

// SearchInput are search_decisions' arguments.
type SearchInput struct {
	Query      string `json:"query" jsonschema:"the text to find in a decision's description, rationale or alternatives (ASCII case ignored)"`
	Type       string `json:"type,omitempty" jsonschema:"only this decision type: approach, library, architecture, workaround, skip, clarification"`
	Superseded bool   `json:"superseded,omitempty" jsonschema:"include decisions a later one reversed"`
	History    bool   `json:"history,omitempty" jsonschema:"read every snapshot, not only each workflow's latest"`
	Limit      int    `json:"limit,omitempty" jsonschema:"at most this many records (default 50, at most 500)"`
}

func (s *Server) searchDecisions(ctx context.Context, _ *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, DecisionsOutput, error) {
	if strings.TrimSpace(in.Query) == "" {
		return nil, DecisionsOutput{}, failed(handoff.Errorf(handoff.EINVALID, "query is empty: give the text to search for"))
	}
	f, err := decisionFilter(in.Type, in.Query, in.Superseded, in.History, in.Limit)
	if err != nil {
		return nil, DecisionsOutput{}, failed(err)
	}
	db, err := s.db(ctx)
	if err != nil {
		return nil, DecisionsOutput{}, failed(err)
	}
	return s.queryDecisions(ctx, db, f)
}

// decisionFilter validates the arguments decisions and search_decisions
// share.
func decisionFilter(typ, grep string, superseded, history bool, limit int) (store.DecisionFilter, error) {
	n, err := checkLimit(limit)
	if err != nil {
		return store.DecisionFilter{}, err
	}
	f := store.DecisionFilter{
		RecordFilter: store.RecordFilter{Grep: grep, All: history, Limit: n},
		Type:         handoff.DecisionType(strings.ToLower(strings.TrimSpace(typ))),
		Superseded:   superseded,
	}
	if f.Type != "" && !f.Type.Valid() {
		return f, handoff.Errorf(handoff.EINVALID, "unknown decision type %q: want approach, library, architecture, workaround, skip or clarification", typ)
	}
	return f, nil
}

func (s *Server) queryDecisions(ctx context.Context, db Store, f store.DecisionFilter) (*mcp.CallToolResult, DecisionsOutput, error) {
	list, damaged, err := db.Decisions(ctx, f)
	if err != nil {
		return nil, DecisionsOutput{}, failed(fmt.Errorf("query decisions: %w", err))
	}
	out := DecisionsOutput{WorkflowID: f.WorkflowID, Decisions: orEmpty(list), Skipped: messages(damaged)}
	return text(renderDecisions(out)), out, nil
}

// ErrorsInput are the errors tool's arguments.
type ErrorsInput struct {
	Workflow       string `json:"workflow,omitempty" jsonschema:"workflow id, or a unique prefix of one; default: the workflow of dir"`
	Dir            string `json:"dir,omitempty" jsonschema:"a project directory: its recorded workflow, or the nearest one above it; default: the directory handoff mcp runs in"`
	UnresolvedOnly bool   `json:"unresolved_only,omitempty" jsonschema:"only errors still open: unresolved or deferred"`
	Type           string `json:"type,omitempty" jsonschema:"only this error type (test_failure, build_error, command_failed, tool_error, …)"`
	Grep           string `json:"grep,omitempty" jsonschema:"only errors containing this text in message, context, command or notes (ASCII case ignored)"`
	History        bool   `json:"history,omitempty" jsonschema:"read every snapshot of the workflow, not only the latest"`
	Limit          int    `json:"limit,omitempty" jsonschema:"at most this many records (default 50, at most 500)"`
}

// ErrorsOutput is the errors tool's structured result.
type ErrorsOutput struct {
	WorkflowID string              `json:"workflow_id"`
	Errors     []store.StoredError `json:"errors"`
	Skipped    []string            `json:"skipped,omitempty"`
}

func (s *Server) errors(ctx context.Context, _ *mcp.CallToolRequest, in ErrorsInput) (*mcp.CallToolResult, ErrorsOutput, error) {
	limit, err := checkLimit(in.Limit)
	if err != nil {
		return nil, ErrorsOutput{}, failed(err)
	}
	db, wf, err := s.resolve(ctx, in.Workflow, in.Dir)
	if err != nil {
		return nil, ErrorsOutput{}, failed(err)
	}
	f := store.ErrorFilter{RecordFilter: store.RecordFilter{WorkflowID: wf.ID, Grep: in.Grep, All: in.History, Limit: limit},
		Unresolved: in.UnresolvedOnly, Type: strings.TrimSpace(in.Type)}
	list, damaged, err := db.Errors(ctx, f)
	if err != nil {
		return nil, ErrorsOutput{}, failed(fmt.Errorf("query errors: %w", err))
	}
	out := ErrorsOutput{WorkflowID: wf.ID, Errors: orEmpty(list), Skipped: messages(damaged)}
	return text(renderErrors(out)), out, nil
}

// GitInput are git_changes' arguments.
type GitInput struct {
	Workflow string `json:"workflow,omitempty" jsonschema:"workflow id, or a unique prefix of one; default: the workflow of dir"`
	Dir      string `json:"dir,omitempty" jsonschema:"a project directory: its recorded workflow, or the nearest one above it; default: the directory handoff mcp runs in"`
	Snapshot string `json:"snapshot,omitempty" jsonschema:"snapshot id or unique prefix; default: the workflow's latest snapshot"`
}

// GitOutput is git_changes' structured result.
type GitOutput struct {
	WorkflowID    string               `json:"workflow_id"`
	SnapshotID    string               `json:"snapshot_id"`
	SessionNumber int                  `json:"session_number"`
	CreatedAt     time.Time            `json:"created_at"`
	GitState      *handoff.GitState    `json:"git_state,omitempty"`
	Commits       []handoff.Commit     `json:"commits,omitempty"`
	FilesModified []handoff.FileChange `json:"files_modified,omitempty"`
}

func (s *Server) gitChanges(ctx context.Context, _ *mcp.CallToolRequest, in GitInput) (*mcp.CallToolResult, GitOutput, error) {
	snap, err := s.snapshot(ctx, in.Workflow, in.Dir, in.Snapshot)
	if err != nil {
		return nil, GitOutput{}, failed(err)
	}
	out := GitOutput{WorkflowID: snap.WorkflowID, SnapshotID: snap.ID, SessionNumber: snap.SessionNumber,
		CreatedAt: snap.CreatedAt, GitState: snap.GitState, Commits: snap.Commits, FilesModified: snap.FilesModified}
	return text(renderGit(out)), out, nil
}

// text is a result whose content is one text block; the SDK adds the
// structured content.
func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// orEmpty keeps an empty list a JSON array, not null.
func orEmpty[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}

func messages(errs []error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

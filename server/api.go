package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/compiler"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/history"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/transcript"
)

// latestSummary is a workflow's latest snapshot in GET /api/workflows/{id}.
type latestSummary struct {
	snapshotItem
	Goal       string `json:"goal,omitempty"`
	NextStep   string `json:"next_step,omitempty"`
	OpenErrors int    `json:"open_errors"`
	Decisions  int    `json:"decisions"`
}

// snapshotItem is one entry of a snapshot listing.
type snapshotItem struct {
	ID                 string          `json:"id"`
	SessionNumber      int             `json:"session_number"`
	Trigger            handoff.Trigger `json:"trigger"`
	CreatedAt          time.Time       `json:"created_at"`
	TasksCompleted     int             `json:"tasks_completed"`
	TasksRemaining     int             `json:"tasks_remaining"`
	ContextUtilization float64         `json:"context_utilization"`
	// Machine and User say who made the snapshot, when recorded.
	Machine string `json:"machine,omitempty"`
	User    string `json:"user,omitempty"`
}

// entry is one snapshot of a workflow's timeline: the decoded snapshot
// with its current session number (sessions are numbered when read, and the
// cache keeps what was decoded) and who made it.
type entry struct {
	Snap    *handoff.Snapshot
	Machine string
	User    string
}

// item is e's listing entry.
func (e entry) item() snapshotItem {
	it := itemOf(e.Snap)
	it.Machine, it.User = e.Machine, e.User
	return it
}

func itemOf(s *handoff.Snapshot) snapshotItem {
	done := 0
	for _, t := range s.Tasks {
		if t.Status == handoff.TaskCompleted {
			done++
		}
	}
	return snapshotItem{
		ID: s.ID, SessionNumber: s.SessionNumber, Trigger: s.Trigger, CreatedAt: s.CreatedAt,
		TasksCompleted: done, TasksRemaining: len(s.Tasks) - done,
		ContextUtilization: s.Usage.ContextUtilization,
	}
}

func summaryOf(s *handoff.Snapshot) *latestSummary {
	current := 0
	for _, d := range s.Decisions {
		if d.SupersededBy == "" {
			current++
		}
	}
	return &latestSummary{
		snapshotItem: itemOf(s), Goal: s.Goal, NextStep: s.NextStep,
		OpenErrors: len(s.UnresolvedErrors()), Decisions: current,
	}
}

// Page sizes of GET /api/workflows (?limit=) and the index page.
const (
	defaultListLimit = 100
	maxListLimit     = 1000
	indexPageSize    = 50
)

// listWorkflows is GET /api/workflows: a page of workflows (?limit=,
// default 100, at most 1000; ?cursor= the previous page's next), most
// recently active first, each with its latest snapshot's summary.
func (s *Server) listWorkflows(r *http.Request) (int, any, error) {
	q := r.URL.Query()
	f, err := overviewFilter(q.Get("status"), q.Get("dir"), q.Get("cursor"))
	if err != nil {
		return 0, nil, err
	}
	f.Limit = defaultListLimit
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxListLimit {
			return 0, nil, handoff.Errorf(handoff.EINVALID, "limit must be 1..%d, got %q", maxListLimit, v)
		}
		f.Limit = n
	}
	page, err := s.cfg.Store.OverviewPage(r.Context(), f)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, page, nil
}

// overviewFilter checks a listing's filters.
func overviewFilter(status, dir, cursor string) (store.OverviewFilter, error) {
	f := store.OverviewFilter{Status: handoff.WorkflowStatus(status), Dir: dir, After: cursor}
	if f.Status != "" && !f.Status.Valid() {
		return f, handoff.Errorf(handoff.EINVALID, "unknown status %q", status)
	}
	return f, nil
}

// workflowDetail is GET /api/workflows/{id}.
type workflowDetail struct {
	handoff.Workflow
	Latest *latestSummary `json:"latest,omitempty"`
}

func (s *Server) getWorkflow(r *http.Request) (int, any, error) {
	wf, err := s.workflow(r)
	if err != nil {
		return 0, nil, err
	}
	out := workflowDetail{Workflow: *wf}
	latest, err := s.cfg.Store.LatestSnapshot(r.Context(), wf.ID)
	switch {
	case err == nil:
		out.Latest = summaryOf(latest)
	case handoff.ErrorCode(err) != handoff.ENOTFOUND:
		return 0, nil, err
	}
	return http.StatusOK, out, nil
}

// transition is the answer to pause and resume.
type transition struct {
	Status     handoff.WorkflowStatus `json:"status"`
	WorkflowID string                 `json:"workflow_id"`
	SnapshotID string                 `json:"snapshot_id"`
	Session    int                    `json:"session_number,omitempty"`
	Warnings   []string               `json:"warnings,omitempty"`
}

func (s *Server) pauseWorkflow(r *http.Request) (int, any, error) {
	var body struct {
		Reason string `json:"reason"`
	}
	if err := decodeJSON(r, &body, true); err != nil {
		return 0, nil, err
	}
	wf, err := s.workflow(r)
	if err != nil {
		return 0, nil, err
	}
	snap, err := pause(r.Context(), s.cfg.Store, wf, body.Reason)
	if err != nil {
		return 0, nil, err
	}
	out := transition{Status: handoff.WorkflowPaused, WorkflowID: wf.ID}
	if snap != nil {
		out.SnapshotID, out.Session = snap.ID, snap.SessionNumber
	}
	return http.StatusOK, out, nil
}

func (s *Server) resumeWorkflow(r *http.Request) (int, any, error) {
	var body struct {
		Snapshot string `json:"snapshot"`
		Force    bool   `json:"force"`
	}
	if err := decodeJSON(r, &body, true); err != nil {
		return 0, nil, err
	}
	wf, err := s.workflow(r)
	if err != nil {
		return 0, nil, err
	}
	var warnings []string
	plan, res, err := session.Resume(r.Context(), s.cfg.Store, session.ResumeOptions{
		Snapshot: body.Snapshot,
		Ref:      session.Ref{Workflow: wf.ID},
		WorkDir:  wf.Dir,
		Force:    body.Force,
		Compile:  compiler.Options{Counter: s.cfg.Counter},
		Warn:     func(w string) { warnings = append(warnings, w) },
	})
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, transition{
		Status: res.Workflow.Status, WorkflowID: wf.ID, SnapshotID: plan.Snapshot.ID,
		Session: res.Session, Warnings: warnings,
	}, nil
}

func (s *Server) listSnapshots(r *http.Request) (int, any, error) {
	wf, err := s.workflow(r)
	if err != nil {
		return 0, nil, err
	}
	snaps, err := s.snapshots(r, wf.ID)
	if err != nil {
		return 0, nil, err
	}
	items := make([]snapshotItem, 0, len(snaps))
	for _, e := range snaps {
		items = append(items, e.item())
	}
	return http.StatusOK, map[string]any{"workflow_id": wf.ID, "snapshots": items}, nil
}

func (s *Server) getSnapshot(r *http.Request) (int, any, error) {
	snap, err := s.snapshot(r)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, snap, nil
}

func (s *Server) snapshotDecisions(r *http.Request) (int, any, error) {
	snap, err := s.snapshot(r)
	if err != nil {
		return 0, nil, err
	}
	out := make([]handoff.Decision, 0, len(snap.Decisions))
	all := r.URL.Query().Get("superseded") == "true"
	for _, d := range snap.Decisions {
		if all || d.SupersededBy == "" {
			out = append(out, d)
		}
	}
	return http.StatusOK, map[string]any{"snapshot_id": snap.ID, "decisions": out}, nil
}

func (s *Server) snapshotErrors(r *http.Request) (int, any, error) {
	snap, err := s.snapshot(r)
	if err != nil {
		return 0, nil, err
	}
	errs := snap.Errors
	if r.URL.Query().Get("unresolved") == "true" {
		errs = snap.UnresolvedErrors()
	}
	if errs == nil {
		errs = []handoff.ErrorRecord{}
	}
	return http.StatusOK, map[string]any{"snapshot_id": snap.ID, "errors": errs}, nil
}

func (s *Server) snapshotGit(r *http.Request) (int, any, error) {
	snap, err := s.snapshot(r)
	if err != nil {
		return 0, nil, err
	}
	files := snap.FilesModified
	if files == nil {
		files = []handoff.FileChange{}
	}
	commits := snap.Commits
	if commits == nil {
		commits = []handoff.Commit{}
	}
	return http.StatusOK, map[string]any{
		"snapshot_id": snap.ID, "git_state": snap.GitState,
		"files_modified": files, "commits": commits,
	}, nil
}

// promptOut is GET …/prompt.
type promptOut struct {
	SnapshotID string             `json:"snapshot_id"`
	Format     string             `json:"format"`
	Budget     int                `json:"budget"`
	Tokens     int                `json:"tokens"`
	Truncated  bool               `json:"truncated"`
	Dropped    []compiler.Dropped `json:"dropped,omitempty"`
	Text       string             `json:"text"`
}

func (s *Server) snapshotPrompt(r *http.Request) (int, any, error) {
	snap, err := s.snapshot(r)
	if err != nil {
		return 0, nil, err
	}
	budget, err := budgetParam(r)
	if err != nil {
		return 0, nil, err
	}
	format := r.URL.Query().Get("format")
	if format == "" {
		format = "prompt"
	}
	if format != "prompt" && format != "resume-md" {
		return 0, nil, handoff.Errorf(handoff.EINVALID, "format must be prompt or resume-md, got %q", format)
	}
	res, err := compiler.Compile(snap, compiler.Options{Budget: budget, Counter: s.cfg.Counter})
	if err != nil {
		return 0, nil, fmt.Errorf("compile resume prompt: %w", err)
	}
	text := res.Prompt
	if format == "resume-md" {
		text = string(compiler.ResumeMarkdown(snap, res))
	}
	return http.StatusOK, promptOut{
		SnapshotID: snap.ID, Format: format, Budget: res.Budget, Tokens: res.Tokens,
		Truncated: res.Truncated, Dropped: res.Dropped, Text: text,
	}, nil
}

func (s *Server) listEvents(r *http.Request) (int, any, error) {
	wf, err := s.workflow(r)
	if err != nil {
		return 0, nil, err
	}
	ev, err := s.cfg.Store.Events(r.Context(), wf.ID)
	if err != nil {
		return 0, nil, err
	}
	if ev == nil {
		ev = []handoff.Event{}
	}
	return http.StatusOK, map[string]any{"workflow_id": wf.ID, "events": ev}, nil
}

func (s *Server) diff(r *http.Request) (int, any, error) {
	wf, err := s.workflow(r)
	if err != nil {
		return 0, nil, err
	}
	d, err := s.diffOf(r, wf, r.URL.Query().Get("from"), r.URL.Query().Get("to"))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, d, nil
}

// diffOf compares snapshots from and to of wf (to: the latest when empty).
func (s *Server) diffOf(r *http.Request, wf *handoff.Workflow, from, to string) (*history.Diff, error) {
	if from == "" {
		return nil, handoff.Errorf(handoff.EINVALID, "diff: the from snapshot is required")
	}
	a, err := s.snapshotOf(r, wf, from)
	if err != nil {
		return nil, err
	}
	var b *handoff.Snapshot
	if to == "" {
		b, err = s.cfg.Store.LatestSnapshot(r.Context(), wf.ID)
	} else {
		b, err = s.snapshotOf(r, wf, to)
	}
	if err != nil {
		return nil, err
	}
	return history.Compare(a, b), nil
}

// transcriptOut is POST /api/transcripts.
type transcriptOut struct {
	SnapshotID    string `json:"snapshot_id"`
	WorkflowID    string `json:"workflow_id"`
	SessionNumber int    `json:"session_number"`
	Budget        int    `json:"budget"`
	Tokens        int    `json:"tokens"`
	Prompt        string `json:"prompt"`
	// Unchanged says the agent session's newest snapshot already held
	// this content, so nothing new was stored; SnapshotID names that one.
	Unchanged bool `json:"unchanged,omitempty"`
}

// postTranscript compiles a transcript body (any format handoff reads,
// detected unless ?format= says) and stores its snapshot, as
// `handoff compile` does; git is not read, since the transcript's working
// directory is on the client's machine, not this one.
func (s *Server) postTranscript(r *http.Request) (int, any, error) {
	q := r.URL.Query()
	budget, err := budgetParam(r)
	if err != nil {
		return 0, nil, err
	}
	var format transcript.Format
	if f := q.Get("format"); f != "" {
		if format, err = transcript.ParseFormat(f); err != nil {
			return 0, nil, err
		}
	}
	body := http.MaxBytesReader(nil, r.Body, s.cfg.MaxTranscriptBytes)
	// Read it whole first so an over-long body is a 413, not a parse
	// warning about a cut-off last line.
	data, err := io.ReadAll(body)
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return 0, nil, err
		}
		return 0, nil, handoff.Errorf(handoff.EINVALID, "read transcript body: %w", err)
	}
	if len(data) == 0 {
		return 0, nil, handoff.Errorf(handoff.EINVALID, "empty transcript body")
	}
	t, err := transcript.Parse(r.Context(), bytesReader(data), transcript.Options{Format: format, Source: "-", Logger: s.log})
	if err != nil {
		return 0, nil, fmt.Errorf("read transcript: %w", err)
	}
	workflow := ""
	if ref := q.Get("workflow"); ref != "" {
		// A prefix names the workflow it matches, never a new one.
		if workflow, err = session.WorkflowForNew(r.Context(), s.cfg.Store, ref); err != nil {
			return 0, nil, err
		}
	}
	build := s.buildOptions(handoff.TriggerManual, workflow)
	cp, err := session.Checkpoint(r.Context(), s.cfg.Store, t, session.CheckpointOptions{Build: build, Logger: s.log})
	if err != nil {
		return 0, nil, err
	}
	res, err := compiler.Compile(cp.Snapshot, compiler.Options{Budget: budget, Counter: s.cfg.Counter})
	if err != nil {
		return 0, nil, fmt.Errorf("compile resume prompt: %w", err)
	}
	return http.StatusCreated, transcriptOut{
		SnapshotID: cp.Snapshot.ID, WorkflowID: cp.Snapshot.WorkflowID, SessionNumber: cp.Snapshot.SessionNumber, Unchanged: cp.Unchanged,
		Budget: res.Budget, Tokens: res.Tokens, Prompt: res.Prompt,
	}, nil
}

// buildOptions are the settings of every snapshot the server builds.
func (s *Server) buildOptions(trigger handoff.Trigger, workflow string) session.BuildOptions {
	return session.BuildOptions{
		Counter:   s.cfg.Counter,
		Extractor: extractor.NewHeuristic(s.log),
		Measure:   capacity.MeasureOptions{},
		Trigger:   trigger,
		ReadGit:   false, // the transcript's working directory is on the client's machine
		Workflow:  workflow,
	}
}

// workflow resolves the {id} path value (an id or unique prefix).
func (s *Server) workflow(r *http.Request) (*handoff.Workflow, error) {
	return session.Resolve(r.Context(), s.cfg.Store, session.Ref{Workflow: r.PathValue("id")})
}

// snapshot loads {sid} of workflow {id}.
func (s *Server) snapshot(r *http.Request) (*handoff.Snapshot, error) {
	wf, err := s.workflow(r)
	if err != nil {
		return nil, err
	}
	return s.snapshotOf(r, wf, r.PathValue("sid"))
}

// snapshotOf loads snapshot id (or unique prefix) of wf through the
// session resolver: another workflow's snapshot is ENOTFOUND here, so a
// URL names one thing.
func (s *Server) snapshotOf(r *http.Request, wf *handoff.Workflow, id string) (*handoff.Snapshot, error) {
	return session.SnapshotOf(r.Context(), s.cfg.Store, wf.ID, id)
}

// snapshots loads a workflow's snapshots in time order, oldest first (the
// timeline's, the plot's and the default diff's order; the last is the
// latest, as LatestSnapshot says). Damaged rows are skipped, as the CLI's
// listing skips them. Decoded snapshots are shared with the cache, so
// each entry holds a shallow copy carrying the row's current session
// number: read them, never change their slices.
func (s *Server) snapshots(r *http.Request, workflowID string) ([]entry, error) {
	sums, _, err := s.cfg.Store.ListSnapshots(r.Context(), store.ListFilter{WorkflowID: workflowID})
	if err != nil {
		return nil, err
	}
	out := make([]entry, 0, len(sums))
	for _, sum := range slices.Backward(sums) { // the listing is newest first
		snap, ok := s.cache.get(sum.ID)
		if !ok {
			var err error
			if snap, err = s.cfg.Store.Snapshot(r.Context(), sum.ID); err != nil {
				s.log.Warn("skipped unreadable snapshot", "id", sum.ID, "err", err)
				continue
			}
			s.cache.put(snap)
		}
		c := *snap
		c.SessionNumber = sum.SessionNumber
		out = append(out, entry{Snap: &c, Machine: sum.Machine, User: sum.User})
	}
	return out, nil
}

func budgetParam(r *http.Request) (int, error) {
	v := r.URL.Query().Get("budget")
	if v == "" {
		return compiler.DefaultBudget, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, handoff.Errorf(handoff.EINVALID, "budget must be a positive number of tokens, got %q", v)
	}
	return n, nil
}

// decodeJSON reads a small JSON body into v; an empty body is allowed when
// optional (pause without a reason).
func decodeJSON(r *http.Request, v any, optional bool) error {
	body := http.MaxBytesReader(nil, r.Body, DefaultMaxJSONBytes)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) && optional {
			return nil
		}
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return err
		}
		return handoff.Errorf(handoff.EINVALID, "request body: %w", err)
	}
	return nil
}

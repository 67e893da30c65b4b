// Package extractor turns a parsed transcript into the content of a
// snapshot. Facts (plan, files, errors and their resolution, tests) are
// computed from the transcript; judgement (decisions with rationale, what
// an error was about) comes from an Extractor. Heuristic is the offline,
// deterministic Extractor; an LLM-backed one implements the same interface.
//
// Transcripts are data, never instructions: nothing a tool returned can
// become a decision, a task or the next step's wording, except error text
// and test names quoted as such.
package extractor

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/decisions"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/nextstep"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// Extractor supplies the judgement part of a snapshot: the decisions taken
// in a session, and context for its errors.
type Extractor interface {
	// Name identifies the extractor in usage records and logs.
	Name() string
	// Extract reads the messages and returns decisions and error notes.
	// Errors it returns are matched to computed errors by Source; those
	// that match none are added.
	Extract(ctx context.Context, msgs []handoff.Message) (*Result, error)
}

// Result is what an Extractor judged.
type Result struct {
	Decisions []handoff.Decision
	Errors    []handoff.ErrorRecord
	// Usage accounts for model calls the extractor made; nil or zero calls
	// for an offline extractor.
	Usage *handoff.ExtractionUsage
	// Warnings describes what the extractor dropped or repaired (records
	// that failed validation, a window shrunk to fit), for --verbose.
	Warnings []string

	// What an LLM extractor judged about where the session stands; the
	// heuristic extractor leaves these empty (it reads them from the
	// conversation's shape instead). Each is accepted only when its text is
	// grounded in the message it cites.
	CurrentWork *Judged
	NextStep    *Judged
	Constraints []handoff.Constraint
}

// Judged is one statement an LLM made about the session, with the message
// it rests on.
type Judged struct {
	Text   string             `json:"text"`
	Source handoff.MessageRef `json:"source"`
}

// Build assembles a snapshot's content from a transcript: the computed
// facts merged with the extractor's judgement, and the next step. Ids,
// workflow, usage figures other than tool calls and extraction, and git
// state are the caller's to fill. A nil extractor yields facts only.
func Build(ctx context.Context, t *handoff.Transcript, ex Extractor) (*handoff.Snapshot, error) {
	return BuildWith(ctx, t, ex, Options{})
}

// Options are the settings of a build. The zero value is the default.
type Options struct {
	// Rules switches rules of the rulebook off by id (the ablation run).
	Rules rulebook.Switches
}

// BuildWith is Build with options.
func BuildWith(ctx context.Context, t *handoff.Transcript, ex Extractor, opts Options) (*handoff.Snapshot, error) {
	if t == nil {
		return nil, handoff.Errorf(handoff.EINVALID, "build snapshot: no transcript")
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("build snapshot: %w", err)
	}
	heads := facts.NewHeadlines()
	computed, contexts := facts.ComputeWith(t.Messages, heads)
	for i := range computed.Errors {
		if i < len(contexts) && computed.Errors[i].Context == "" {
			computed.Errors[i].Context = facts.ErrorContext(contexts[i])
		}
	}
	// The main thread, read by several passes below: a transcript with
	// sub-agent traffic would otherwise be copied once per pass.
	main := conversation.MainThread(t.Messages)
	conv := conversation.ReadWith(t, main, heads, opts.Rules)
	snap := &handoff.Snapshot{
		Goal:          conv.Goal,
		LatestRequest: conv.LatestRequest,
		Requests:      conv.Requests,
		Constraints:   conv.Constraints,
		Language:      conv.Language,
		EndState:      conv.End,
		Recent:        conv.Recent,
		Carried:       conv.Carried,
		FileNotes:     conv.FileNotes,
		Tasks:         computed.Tasks,
		CurrentTaskID: computed.CurrentTaskID,
		NextTaskID:    computed.NextTaskID,
		Errors:        computed.Errors,
		TestState:     computed.TestState,
		Checks:        computed.Checks,
		FilesModified: relativeFiles(computed.FilesModified, t.Session.CWD),
		Commits:       computed.Commits,
		GitSeen:       facts.ReadGitSeenWith(t.Messages, t.Session.CWD, heads),
		Usage:         handoff.Usage{ToolCalls: computed.ToolCalls},
	}
	calls := facts.SessionCalls(main, conversation.ResultsByCall(main), heads)
	facts.AddWorkInFlight(snap, main, calls, opts.Rules)
	if opts.Rules.On("facts.approved-plan") {
		snap.PlanDoc = conversation.ReadPlanDoc(calls, main)
	}
	if opts.Rules.On("next.agent-note") {
		if note := conversation.ReadAgentNote(snap, main, calls); note != nil {
			if snap.EndState == nil {
				snap.EndState = &handoff.EndState{}
			}
			snap.EndState.Note = note
			// The note is shown as the note; the last message keeps what
			// it said around it.
			if e := snap.EndState; e.LastSource == note.Source {
				if i := strings.Index(e.LastAssistant, conversation.NoteTitle()); i >= 0 {
					e.LastAssistant = strings.TrimSpace(strings.TrimRight(e.LastAssistant[:i], "# \n"))
				}
			}
		}
	}
	if opts.Rules.On("facts.plan-done-by-later-calls") {
		facts.ReconcilePlan(snap, main, calls, t.Session.CWD)
	}
	if snap.Goal == "" && conversation.CleanRequest(computed.Goal) != "" {
		snap.Goal = computed.Goal // placeholders ("[image]") ask for nothing
	}
	personal := append(decisions.Approvals(main, conv.Requests), decisions.UndoDecisions(main)...)
	var judgedNext string
	if ex == nil {
		snap.Decisions = personal
	}
	if ex != nil {
		var res *Result
		var err error
		if h, ok := ex.(*Heuristic); ok {
			res, err = h.extract(ctx, t.Messages, heads)
		} else {
			res, err = ex.Extract(ctx, t.Messages)
		}
		if err != nil {
			return nil, fmt.Errorf("build snapshot: %s extractor: %w", ex.Name(), err)
		}
		if res != nil {
			snap.Decisions = cleanDecisions(append(res.Decisions, personal...))
			snap.Errors = mergeErrors(snap.Errors, res.Errors)
			snap.Usage.Extraction = res.Usage
			judgedNext = mergeJudged(snap, res)
		}
	}
	snap.Errors = append(snap.Errors, conversation.ReportedProblems(main)...)
	facts.SettleByLaterCalls(snap, main, calls, opts.Rules)
	snap.NextStep, _ = nextstep.Decide(snap, opts.Rules)
	if p := conversation.ProcedureNext(main, conversation.ProcedureInFlight(snap)); p != "" && conversation.ProcedureLeads(snap) {
		snap.NextStep = p
	}
	// An LLM's grounded next step is preferred, except over a message of
	// the person's that was never answered: that always comes first.
	if judgedNext != "" && (snap.EndState == nil || len(snap.EndState.Unanswered) == 0) {
		snap.NextStep = judgedNext
	}
	return snap, nil
}

// mergeJudged adds an LLM extractor's judgement of where the session
// stands to the snapshot and returns its next step ("" when none): current
// work goes to the end state, constraints are added unless already known.
func mergeJudged(snap *handoff.Snapshot, res *Result) string {
	if res.CurrentWork != nil && strings.TrimSpace(res.CurrentWork.Text) != "" {
		if snap.EndState == nil {
			snap.EndState = &handoff.EndState{}
		}
		snap.EndState.CurrentWork = prose.Truncate(res.CurrentWork.Text, conversation.StatedNextLimit)
	}
	known := map[string]bool{}
	for _, c := range snap.Constraints {
		known[strings.ToLower(c.Text)] = true
	}
	for _, c := range res.Constraints {
		if t := strings.TrimSpace(c.Text); t != "" && !known[strings.ToLower(t)] {
			known[strings.ToLower(t)] = true
			c.Text = prose.Truncate(t, conversation.ConstraintLimit)
			snap.Constraints = append(snap.Constraints, c)
		}
	}
	if res.NextStep != nil && strings.TrimSpace(res.NextStep.Text) != "" {
		// The model's words are data like the transcript's: quoted, with
		// the message they rest on.
		return fmt.Sprintf("Next step as the LLM extractor judged it (message %d): %s",
			res.NextStep.Source.Index, facts.QuoteData(prose.Truncate(strings.TrimSpace(res.NextStep.Text), conversation.StatedNextLimit)))
	}
	return ""
}

// cleanDecisions makes an extractor's decisions fit the schema: a known
// type, an id, a description within bounds.
func cleanDecisions(ds []handoff.Decision) []handoff.Decision {
	out := make([]handoff.Decision, 0, len(ds))
	for i, d := range ds {
		if strings.TrimSpace(d.Description) == "" {
			continue
		}
		if !d.Type.Valid() {
			d.Type = handoff.DecisionApproach
		}
		if d.ID == "" {
			d.ID = "d" + strconv.Itoa(i+1)
		}
		d.Description = prose.Truncate(d.Description, prose.DescriptionLimit)
		out = append(out, d)
	}
	return out
}

// mergeErrors keeps the computed errors authoritative for what failed and
// whether a later run fixed it, and takes from the extractor what needs
// judgement: context, notes, and a workaround or deferral for an error no
// later run fixed. Extracted errors with no computed counterpart are
// appended.
func mergeErrors(computed, judged []handoff.ErrorRecord) []handoff.ErrorRecord {
	out := append([]handoff.ErrorRecord(nil), computed...)
	for _, j := range judged {
		i := matchError(out, j)
		if i < 0 {
			if strings.TrimSpace(j.Message) == "" {
				continue
			}
			if !j.Resolution.Valid() {
				j.Resolution = handoff.ResolutionUnresolved
			}
			j.ID = "e" + strconv.Itoa(len(out)+1)
			out = append(out, j)
			continue
		}
		e := &out[i]
		if e.Context == "" {
			e.Context = j.Context
		}
		if e.ResolutionNotes == "" {
			e.ResolutionNotes = j.ResolutionNotes
		}
		if e.Resolution == handoff.ResolutionUnresolved && (j.Resolution == handoff.ResolutionWorkaround || j.Resolution == handoff.ResolutionDeferred) {
			e.Resolution = j.Resolution
		}
	}
	return out
}

func matchError(list []handoff.ErrorRecord, j handoff.ErrorRecord) int {
	for i, e := range list {
		if e.Source == j.Source && (j.Command == "" || e.Command == j.Command) {
			return i
		}
	}
	return -1
}

// relativeFiles shows paths inside the session's working directory
// relative to it, as a person would name them, and merges the entries
// that then name one file (written by path, then again by a shell
// command naming it relative): one line per file, at the position of its
// latest modification.
func relativeFiles(files []handoff.FileChange, cwd string) []handoff.FileChange {
	prefix := ""
	if cwd != "" {
		prefix = strings.TrimSuffix(filepath.ToSlash(cwd), "/") + "/"
	}
	paths := make([]string, len(files))
	merged := map[string]*handoff.FileChange{}
	lastAt := map[string]int{}
	for i, f := range files {
		p := strings.TrimPrefix(strings.TrimPrefix(filepath.ToSlash(f.Path), prefix), "./")
		paths[i] = p
		lastAt[p] = i
		m, ok := merged[p]
		if !ok {
			m = &handoff.FileChange{Path: p}
			merged[p] = m
		}
		m.Edits += f.Edits
		for _, o := range f.Operations {
			if !slices.Contains(m.Operations, o) {
				m.Operations = append(m.Operations, o)
			}
		}
	}
	out := make([]handoff.FileChange, 0, len(merged))
	for i, p := range paths {
		if lastAt[p] == i {
			out = append(out, *merged[p])
		}
	}
	return out
}

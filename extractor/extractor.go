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
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
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
}

// Build assembles a snapshot's content from a transcript: the computed
// facts merged with the extractor's judgement, and the next step. Ids,
// workflow, usage figures other than tool calls and extraction, and git
// state are the caller's to fill. A nil extractor yields facts only.
func Build(ctx context.Context, t *handoff.Transcript, ex Extractor) (*handoff.Snapshot, error) {
	if t == nil {
		return nil, handoff.Errorf(handoff.EINVALID, "build snapshot: no transcript")
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("build snapshot: %w", err)
	}
	facts := ComputeFacts(t.Messages)
	snap := &handoff.Snapshot{
		Goal:          facts.Goal,
		Tasks:         facts.Tasks,
		CurrentTaskID: facts.CurrentTaskID,
		NextTaskID:    facts.NextTaskID,
		Errors:        facts.Errors,
		TestState:     facts.TestState,
		FilesModified: relativeFiles(facts.FilesModified, t.Session.CWD),
		Usage:         handoff.Usage{ToolCalls: facts.ToolCalls},
	}
	if ex != nil {
		res, err := ex.Extract(ctx, t.Messages)
		if err != nil {
			return nil, fmt.Errorf("build snapshot: %s extractor: %w", ex.Name(), err)
		}
		if res != nil {
			snap.Decisions = cleanDecisions(res.Decisions)
			snap.Errors = mergeErrors(snap.Errors, res.Errors)
			snap.Usage.Extraction = res.Usage
		}
	}
	snap.NextStep = NextStep(snap)
	return snap, nil
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
		d.Description = truncate(d.Description, descriptionLimit)
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
// relative to it, as a person would name them.
func relativeFiles(files []handoff.FileChange, cwd string) []handoff.FileChange {
	if cwd == "" {
		return files
	}
	prefix := strings.TrimSuffix(filepath.ToSlash(cwd), "/") + "/"
	for i := range files {
		if p := filepath.ToSlash(files[i].Path); strings.HasPrefix(p, prefix) {
			files[i].Path = strings.TrimPrefix(p, prefix)
		}
	}
	return files
}

// NextStep says the single most useful thing to do first on resuming:
// fix failing tests, else resolve the first open error, else carry on with
// the plan, else confirm the goal is met. Its wording comes from the
// snapshot's computed fields; the only text taken from tool output is
// quoted error text and test names.
func NextStep(s *handoff.Snapshot) string {
	if s == nil {
		return ""
	}
	if ts := s.TestState; ts != nil && ts.Status == handoff.TestsFailing {
		run := ""
		if ts.Command != "" {
			run = " (run: " + firstLine(ts.Command) + ")"
		}
		if len(ts.FailingTests) == 0 {
			return "Fix the failing tests" + run
		}
		names := ts.FailingTests
		more := ""
		if len(names) > 5 {
			more = fmt.Sprintf(" and %d more", len(names)-5)
			names = names[:5]
		}
		noun := "test"
		if len(ts.FailingTests) > 1 {
			noun = "tests"
		}
		return fmt.Sprintf("Fix the failing %s %s%s%s", noun, strings.Join(names, ", "), more, run)
	}
	for _, e := range s.Errors {
		if e.Resolution != handoff.ResolutionUnresolved || benign(e) {
			continue
		}
		msg := strconv.Quote(truncate(e.Message, 200))
		if e.Command != "" {
			return fmt.Sprintf("Resolve the error from `%s`: %s", firstLine(e.Command), msg)
		}
		return fmt.Sprintf("Resolve the %s error: %s", e.Tool, msg)
	}
	for _, id := range []string{s.CurrentTaskID, s.NextTaskID} {
		for _, t := range s.Tasks {
			if id != "" && t.ID == id {
				if t.Status == handoff.TaskInProgress {
					return "Continue: " + describeTask(t)
				}
				return "Start: " + describeTask(t)
			}
		}
	}
	if s.Goal != "" {
		return "Confirm with the user that this is done: " + strconv.Quote(truncate(firstLine(s.Goal), 160))
	}
	return "Ask the user what to do next."
}

// benign reports failures that are not problems to resolve: a search that
// found nothing, a tool use the person declined.
func benign(e handoff.ErrorRecord) bool {
	m := strings.ToLower(e.Message)
	if strings.Contains(m, "doesn't want to proceed") || strings.Contains(m, "tool use was rejected") || strings.Contains(m, "request interrupted by user") {
		return true
	}
	cmd := normalizeCommand(e.Command)
	first, _, _ := strings.Cut(cmd, " ")
	switch first {
	case "grep", "rg", "ag", "ls", "find", "which", "test", "[", "diff", "pgrep":
		return e.Message == "(no output)" || !strings.Contains(cmd, "&&")
	}
	return false
}

// Package history compares stored snapshots: what a later snapshot of a
// piece of work has that an earlier one had not.
//
// Records are matched by content, not by id: each snapshot is extracted
// from its own session's transcript, and the extractor numbers decisions,
// errors and tasks per transcript, so "d1" in one snapshot and "d1" in the
// next are not the same decision.
package history

import (
	"slices"
	"strings"
	"time"

	"github.com/handoff-cli/handoff"
)

// Ref names one side of a diff.
type Ref struct {
	ID            string    `json:"id"`
	WorkflowID    string    `json:"workflow_id"`
	SessionNumber int       `json:"session_number"`
	CreatedAt     time.Time `json:"created_at"`
}

// Change is a value that went from From to To.
type Change[T comparable] struct {
	From T `json:"from"`
	To   T `json:"to"`
}

// Changed reports whether the value changed.
func (c Change[T]) Changed() bool { return c.From != c.To }

// Diff is what changed from snapshot From to snapshot To.
type Diff struct {
	From Ref `json:"from"`
	To   Ref `json:"to"`

	Goal     Change[string] `json:"goal"`
	NextStep Change[string] `json:"next_step"`

	// TasksDone were not completed in From (or absent) and are in To.
	TasksDone []handoff.Task `json:"tasks_done,omitempty"`
	// TasksAdded are open tasks of To that From did not have.
	TasksAdded []handoff.Task `json:"tasks_added,omitempty"`
	// TasksDropped are From's open tasks that To no longer lists.
	TasksDropped []handoff.Task `json:"tasks_dropped,omitempty"`

	// DecisionsAdded are To's current decisions that From did not have.
	DecisionsAdded []handoff.Decision `json:"decisions_added,omitempty"`
	// DecisionsSuperseded were current in From and are superseded in To.
	DecisionsSuperseded []handoff.Decision `json:"decisions_superseded,omitempty"`
	// DecisionsDropped were current in From and To does not mention them
	// (a later session's transcript need not repeat earlier choices).
	DecisionsDropped []handoff.Decision `json:"decisions_dropped,omitempty"`

	// ErrorsFixed were open in From and are fixed or worked around in To.
	ErrorsFixed []handoff.ErrorRecord `json:"errors_fixed,omitempty"`
	// ErrorsNew are To's errors that From did not have, resolved or not.
	ErrorsNew []handoff.ErrorRecord `json:"errors_new,omitempty"`
	// ErrorsGone were open in From and To does not mention them.
	ErrorsGone []handoff.ErrorRecord `json:"errors_gone,omitempty"`

	// FilesAdded are files To records as modified that From did not.
	FilesAdded []string `json:"files_added,omitempty"`
	// FilesEdited are files both record, with more edits in To.
	FilesEdited []string `json:"files_edited,omitempty"`

	Tests Change[handoff.TestStatus] `json:"tests"`
	// TestsFixed failed in From and do not fail in To; TestsBroken the
	// reverse.
	TestsFixed  []string `json:"tests_fixed,omitempty"`
	TestsBroken []string `json:"tests_broken,omitempty"`

	Branch      Change[string]  `json:"branch"`
	Commit      Change[string]  `json:"commit"`
	Utilization Change[float64] `json:"utilization"`
}

// Empty reports whether nothing in the work changed (identity and usage
// aside).
func (d *Diff) Empty() bool {
	return !d.Goal.Changed() && !d.NextStep.Changed() &&
		len(d.TasksDone)+len(d.TasksAdded)+len(d.TasksDropped) == 0 &&
		len(d.DecisionsAdded)+len(d.DecisionsSuperseded)+len(d.DecisionsDropped) == 0 &&
		len(d.ErrorsFixed)+len(d.ErrorsNew)+len(d.ErrorsGone) == 0 &&
		len(d.FilesAdded)+len(d.FilesEdited) == 0 &&
		!d.Tests.Changed() && len(d.TestsFixed)+len(d.TestsBroken) == 0 &&
		!d.Branch.Changed() && !d.Commit.Changed()
}

// Compare returns what changed from a to b. Either may be from any
// workflow; neither is modified.
func Compare(a, b *handoff.Snapshot) *Diff {
	d := &Diff{
		From:        ref(a),
		To:          ref(b),
		Goal:        Change[string]{a.Goal, b.Goal},
		NextStep:    Change[string]{a.NextStep, b.NextStep},
		Utilization: Change[float64]{a.Usage.ContextUtilization, b.Usage.ContextUtilization},
	}
	diffTasks(d, a.Tasks, b.Tasks)
	diffDecisions(d, a.Decisions, b.Decisions)
	diffErrors(d, a.Errors, b.Errors)
	diffFiles(d, a.FilesModified, b.FilesModified)
	diffTests(d, a.TestState, b.TestState)
	d.Branch = Change[string]{gitField(a, func(g *handoff.GitState) string { return g.Branch }), gitField(b, func(g *handoff.GitState) string { return g.Branch })}
	d.Commit = Change[string]{gitField(a, func(g *handoff.GitState) string { return g.Commit }), gitField(b, func(g *handoff.GitState) string { return g.Commit })}
	return d
}

func ref(s *handoff.Snapshot) Ref {
	return Ref{ID: s.ID, WorkflowID: s.WorkflowID, SessionNumber: s.SessionNumber, CreatedAt: s.CreatedAt}
}

// key normalises text for matching: case and runs of white space ignored.
func key(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

func diffTasks(d *Diff, from, to []handoff.Task) {
	before := map[string]handoff.Task{}
	for _, t := range from {
		before[key(t.Content)] = t
	}
	seen := map[string]bool{}
	for _, t := range to {
		k := key(t.Content)
		seen[k] = true
		old, had := before[k]
		switch {
		case t.Status == handoff.TaskCompleted && (!had || old.Status != handoff.TaskCompleted):
			d.TasksDone = append(d.TasksDone, t)
		case t.Status != handoff.TaskCompleted && !had:
			d.TasksAdded = append(d.TasksAdded, t)
		}
	}
	for _, t := range from {
		if t.Status != handoff.TaskCompleted && !seen[key(t.Content)] {
			d.TasksDropped = append(d.TasksDropped, t)
		}
	}
}

func diffDecisions(d *Diff, from, to []handoff.Decision) {
	after := map[string]handoff.Decision{}
	for _, x := range to {
		after[key(x.Description)] = x
	}
	wasCurrent := map[string]bool{}
	known := map[string]bool{}
	for _, x := range from {
		k := key(x.Description)
		known[k] = true
		if x.SupersededBy != "" {
			continue
		}
		wasCurrent[k] = true
		now, ok := after[k]
		switch {
		case !ok:
			d.DecisionsDropped = append(d.DecisionsDropped, x)
		case now.SupersededBy != "":
			d.DecisionsSuperseded = append(d.DecisionsSuperseded, now)
		}
	}
	for _, x := range to {
		if x.SupersededBy == "" && !known[key(x.Description)] {
			d.DecisionsAdded = append(d.DecisionsAdded, x)
		}
	}
}

// errorKey matches an error across snapshots: its class, the command or
// tool, and the message.
func errorKey(e handoff.ErrorRecord) string {
	return key(e.Type) + "\x00" + key(e.Command) + "\x00" + key(e.Message)
}

func open(r handoff.Resolution) bool {
	return r == handoff.ResolutionUnresolved || r == handoff.ResolutionDeferred || r == ""
}

func diffErrors(d *Diff, from, to []handoff.ErrorRecord) {
	after := map[string]handoff.ErrorRecord{}
	for _, e := range to {
		after[errorKey(e)] = e
	}
	known := map[string]bool{}
	for _, e := range from {
		k := errorKey(e)
		known[k] = true
		if !open(e.Resolution) {
			continue
		}
		now, ok := after[k]
		switch {
		case !ok:
			d.ErrorsGone = append(d.ErrorsGone, e)
		case !open(now.Resolution):
			d.ErrorsFixed = append(d.ErrorsFixed, now)
		}
	}
	for _, e := range to {
		if !known[errorKey(e)] {
			d.ErrorsNew = append(d.ErrorsNew, e)
		}
	}
}

func diffFiles(d *Diff, from, to []handoff.FileChange) {
	edits := map[string]int{}
	for _, f := range from {
		edits[f.Path] = f.Edits
	}
	for _, f := range to {
		n, had := edits[f.Path]
		switch {
		case !had:
			d.FilesAdded = append(d.FilesAdded, f.Path)
		case f.Edits > n:
			d.FilesEdited = append(d.FilesEdited, f.Path)
		}
	}
}

func diffTests(d *Diff, from, to *handoff.TestState) {
	var a, b []string
	if from != nil {
		d.Tests.From, a = from.Status, from.FailingTests
	}
	if to != nil {
		d.Tests.To, b = to.Status, to.FailingTests
	}
	for _, t := range a {
		// With no later test run there is no telling what was fixed.
		if to != nil && !slices.Contains(b, t) {
			d.TestsFixed = append(d.TestsFixed, t)
		}
	}
	for _, t := range b {
		if !slices.Contains(a, t) {
			d.TestsBroken = append(d.TestsBroken, t)
		}
	}
}

func gitField(s *handoff.Snapshot, f func(*handoff.GitState) string) string {
	if s.GitState == nil || !s.GitState.Available {
		return ""
	}
	return f(s.GitState)
}

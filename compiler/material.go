package compiler

import (
	"fmt"
	"strings"

	"github.com/handoff-cli/handoff"
)

// Field caps, in runes, at the default budget. They scale with the budget
// (see caps.of) so a small budget is not spent on one long string: a 50 KB
// error message is shortened before any item is dropped.
const (
	capGoal        = 1500
	capGoalShort   = 300
	capNextStep    = 500
	capTask        = 200
	capDecision    = 300
	capRationale   = 300
	capAlternative = 120
	capErrMessage  = 500
	capCommand     = 200
	capErrContext  = 240
	capNotes       = 200
	capPath        = 200
	capTestName    = 160
	capNote        = 200
	capSummary     = 160
	capShort       = 80
	capLabel       = 40
	capCommit      = 12
)

// firstFewPending is how many pending tasks rank with the decisions; the
// rest are dropped earlier.
const firstFewPending = 3

// recentDecisions is how many of the newest decisions rank just after the
// goal; older ones are dropped earlier.
const recentDecisions = 5

// caps scales field caps with the budget: from half the default
// caps at small budgets to twice them at large ones, never under 40 runes.
// Tiny caps (an eighth, at least 24 runes) are the last resort before a
// prompt is cut at the budget.
type caps struct {
	budget int
	tiny   bool
}

func (c caps) of(base int) int {
	if c.tiny {
		return max(base/8, 24)
	}
	n := base * c.budget / DefaultBudget
	n = max(n, base/2)
	n = min(n, base*2)
	return max(n, 40)
}

// item is one rendered list entry and how many of its strings were cut.
type item[T any] struct {
	v       T
	clipped int
}

// decisionItem holds a decision rendered with and without its detail.
type decisionItem struct {
	full, brief               DecisionView
	fullClipped, briefClipped int
	hasDetail                 bool
}

// material is the snapshot rendered once into ready-made pieces; the
// budget search only chooses how many of each to show.
type material struct {
	header        HeaderView
	headerClipped int

	goalFull, goalShort       string
	goalFullCut, goalShortCut bool

	nextStep    string
	nextStepCut bool

	showDetail string // "handoff show <id>"; "" when unsaved

	done       []item[TaskView] // plan order
	inProgress []item[TaskView] // current task first
	pending    []item[TaskView] // next task first

	decisions  []decisionItem // current decisions, oldest first
	superseded int

	unresolved []item[ErrorView] // oldest first
	resolved   []item[ErrorView] // oldest first

	files    []item[FileView]
	git      *GitView // without Files
	gitFiles []item[GitFileView]
	tests    *TestsView // without Failing
	failing  []item[string]
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// newMaterial renders every part of s once, with field caps for budget.
func newMaterial(s *handoff.Snapshot, c caps, showCommand string) *material {
	m := &material{}

	m.header, m.headerClipped = headerView(s, c)
	m.goalFull, m.goalFullCut = quote(s.Goal, c.of(capGoal))
	m.goalShort, m.goalShortCut = quote(s.Goal, min(c.of(capGoalShort), c.of(capGoal)))
	m.nextStep, m.nextStepCut = quote(s.NextStep, c.of(capNextStep))

	// An id that is not a plain word (store ids always are) is not put in
	// a command line: quoted for a shell it could still break the markdown
	// code span around it.
	if id := strings.TrimSpace(s.ID); id != "" && len(id) <= 200 && safeLabel(id) {
		m.showDetail = showCommand + " " + id
	}

	m.tasks(s, c)
	m.decisionsFrom(s, c)
	m.errorsFrom(s, c)

	for _, f := range s.FilesModified {
		p, cut := quote(f.Path, c.of(capPath))
		if p == "" {
			continue
		}
		ops := make([]string, 0, len(f.Operations))
		for _, op := range f.Operations {
			if l := label(op, capLabel); l != "" {
				ops = append(ops, l)
			}
		}
		m.files = append(m.files, item[FileView]{FileView{Path: p, Operations: strings.Join(ops, ", "), Edits: f.Edits}, boolInt(cut)})
	}

	if g := s.GitState; g != nil {
		gv := &GitView{Available: g.Available, Dirty: g.Dirty,
			Commit: label(shortCommit(g.Commit), capLabel), StartCommit: label(shortCommit(g.StartCommit), capLabel)}
		var cut bool
		gv.Note, cut = quote(g.Note, c.of(capNote))
		m.headerClipped += boolInt(cut)
		gv.Branch, cut = quote(g.Branch, capShort)
		m.headerClipped += boolInt(cut)
		if g.StartCommit == g.Commit {
			gv.StartCommit = ""
		}
		m.git = gv
		for _, group := range []struct {
			state string
			paths []string
		}{{"modified", g.Modified}, {"staged", g.Staged}, {"untracked", g.Untracked}} {
			for _, p := range group.paths {
				q, cut := quote(p, c.of(capPath))
				if q != "" {
					m.gitFiles = append(m.gitFiles, item[GitFileView]{GitFileView{State: group.state, Path: q}, boolInt(cut)})
				}
			}
		}
	}

	if ts := s.TestState; ts != nil {
		tv := &TestsView{Status: label(string(ts.Status), capLabel)}
		if tv.Status == "" {
			tv.Status = string(handoff.TestsUnknown)
		}
		var cut bool
		tv.Command, cut = quote(ts.Command, c.of(capCommand))
		m.headerClipped += boolInt(cut)
		tv.Summary, cut = quote(ts.Summary, c.of(capSummary))
		m.headerClipped += boolInt(cut)
		m.tests = tv
		for _, name := range ts.FailingTests {
			q, cut := quote(name, c.of(capTestName))
			if q != "" {
				m.failing = append(m.failing, item[string]{q, boolInt(cut)})
			}
		}
	}
	return m
}

func shortCommit(c string) string {
	c = strings.TrimSpace(c)
	if len(c) > capCommit && safeLabel(c) {
		return c[:capCommit]
	}
	return c
}

func headerView(s *handoff.Snapshot, c caps) (HeaderView, int) {
	h := HeaderView{Session: s.SessionNumber, Trigger: label(string(s.Trigger), capLabel), When: "at an unknown time"}
	clipped := 0
	var cut bool
	h.SnapshotID = label(s.ID, 200)
	h.Workflow, cut = quote(s.WorkflowID, capShort)
	clipped += boolInt(cut)
	if h.Workflow == "" {
		h.Workflow = "(unnamed)"
	}
	h.PauseReason, cut = quote(s.PauseReason, c.of(capNote))
	clipped += boolInt(cut)
	h.Model, cut = quote(s.Usage.Model, capShort)
	clipped += boolInt(cut)
	if !s.CreatedAt.IsZero() {
		h.When = s.CreatedAt.UTC().Format("2006-01-02 15:04 UTC")
	}
	h.ContextUsage = contextUsage(s.Usage)
	h.UsageSource = "estimated"
	if s.Usage.Source == handoff.UsageProvider {
		h.UsageSource = "provider-reported"
	}
	return h, clipped
}

// contextUsage says how full the context was, as far as it is known.
func contextUsage(u handoff.Usage) string {
	switch {
	case u.TokensUsed <= 0:
		return "unknown"
	case u.ContextWindow <= 0:
		return groupDigits(u.TokensUsed) + " tokens (window unknown)"
	}
	pct := u.ContextUtilization
	if pct <= 0 {
		pct = float64(u.TokensUsed) / float64(u.ContextWindow)
	}
	return fmt.Sprintf("%s of %s tokens (%.1f%%)", groupDigits(u.TokensUsed), groupDigits(u.ContextWindow), 100*pct)
}

// tasks splits the plan by status, the current task first among those in
// progress and the next task first among those pending.
func (m *material) tasks(s *handoff.Snapshot, c caps) {
	current, next := s.CurrentTaskID, s.NextTaskID
	if current == "" {
		for _, t := range s.Tasks {
			if t.Status == handoff.TaskInProgress {
				current = t.ID
				break
			}
		}
	}
	if next == "" {
		for _, t := range s.Tasks {
			if t.Status == handoff.TaskPending {
				next = t.ID
				break
			}
		}
	}
	var inProgress, pending []item[TaskView]
	var currentItem, nextItem []item[TaskView]
	for _, t := range s.Tasks {
		text, cut := quote(t.Content, c.of(capTask))
		if text == "" {
			text = `""`
		}
		tv := TaskView{ID: label(t.ID, capLabel), Text: text, Priority: label(t.Priority, capLabel)}
		it := item[TaskView]{tv, boolInt(cut)}
		switch t.Status {
		case handoff.TaskCompleted:
			m.done = append(m.done, it)
		case handoff.TaskInProgress:
			if t.ID != "" && t.ID == current && currentItem == nil {
				it.v.Marker = "current task"
				currentItem = append(currentItem, it)
				continue
			}
			inProgress = append(inProgress, it)
		default: // pending, or a status this build does not know
			if t.ID != "" && t.ID == next && nextItem == nil {
				it.v.Marker = "next task"
				nextItem = append(nextItem, it)
				continue
			}
			pending = append(pending, it)
		}
	}
	m.inProgress = append(currentItem, inProgress...)
	m.pending = append(nextItem, pending...)
}

func (m *material) decisionsFrom(s *handoff.Snapshot, c caps) {
	for _, d := range s.Decisions {
		if d.SupersededBy != "" {
			m.superseded++
			continue
		}
		text, cut := quote(d.Description, c.of(capDecision))
		if text == "" {
			continue
		}
		brief := DecisionView{Type: label(string(d.Type), capLabel), Text: text, TaskID: label(d.TaskID, capLabel)}
		if brief.Type == "" {
			brief.Type = string(handoff.DecisionApproach)
		}
		di := decisionItem{brief: brief, full: brief, briefClipped: boolInt(cut), fullClipped: boolInt(cut)}
		r, rcut := quote(d.Rationale, c.of(capRationale))
		di.full.Rationale = r
		di.fullClipped += boolInt(rcut)
		for _, a := range d.Alternatives {
			q, acut := quote(a, c.of(capAlternative))
			if q != "" {
				di.full.Alternatives = append(di.full.Alternatives, q)
				di.fullClipped += boolInt(acut)
			}
		}
		di.hasDetail = r != "" || len(di.full.Alternatives) > 0
		m.decisions = append(m.decisions, di)
	}
}

func (m *material) errorsFrom(s *handoff.Snapshot, c caps) {
	for _, e := range s.Errors {
		msg, cut := quote(e.Message, c.of(capErrMessage))
		if msg == "" {
			msg = `"(no message)"`
		}
		res := e.Resolution
		if !res.Valid() {
			res = handoff.ResolutionUnresolved
		}
		ev := ErrorView{Type: label(e.Type, capLabel), Resolution: string(res), Message: msg, Occurrences: e.Occurrences}
		if ev.Type == "" {
			ev.Type = "error"
		}
		clipped := boolInt(cut)
		if res == handoff.ResolutionFixed || res == handoff.ResolutionWorkaround {
			ev.Notes, cut = quote(e.ResolutionNotes, c.of(capNotes)/2)
			clipped += boolInt(cut)
			m.resolved = append(m.resolved, item[ErrorView]{ev, clipped})
			continue
		}
		ev.Command, cut = quote(e.Command, c.of(capCommand))
		clipped += boolInt(cut)
		ev.Context, cut = quote(e.Context, c.of(capErrContext))
		clipped += boolInt(cut)
		ev.Notes, cut = quote(e.ResolutionNotes, c.of(capNotes))
		clipped += boolInt(cut)
		m.unresolved = append(m.unresolved, item[ErrorView]{ev, clipped})
	}
}

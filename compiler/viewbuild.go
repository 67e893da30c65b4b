package compiler

import (
	"fmt"
	"strings"
)

// view assembles the View that shows what cfg chooses. It only slices the
// pieces material rendered once, so each candidate costs one template
// execution and one count.
func (c *compilation) view(cfg config) View {
	m := c.m
	n := c.shown(cfg)
	v := View{Header: m.header, Goal: m.goalShort, NextStep: m.nextStep, ShowDetail: m.showDetail}
	if cfg[kGoal] == 1 {
		v.Goal = m.goalFull
	}

	// Plan: the most recent done tasks, the current task first, the next
	// task first.
	v.Plan = PlanView{
		Total:          len(m.done) + len(m.inProgress) + len(m.pending),
		DoneCount:      len(m.done),
		Done:           values(m.done[len(m.done)-n[lDone]:]),
		DoneMore:       c.more(len(m.done)-n[lDone], "done", "--tasks"),
		InProgress:     values(m.inProgress[:n[lInProgress]]),
		InProgressMore: c.more(len(m.inProgress)-n[lInProgress], "in progress", "--tasks"),
		Pending:        values(m.pending[:n[lPending]]),
		PendingMore:    c.more(len(m.pending)-n[lPending], "pending", "--tasks"),
	}

	// Decisions: the newest ones, the newest with their detail; shown
	// oldest first, as they were taken.
	nd := n[lDecisions]
	details := min(cfg[kDecisionDetails], nd)
	v.Decisions.Current = make([]DecisionView, 0, nd)
	for i, d := range m.decisions[len(m.decisions)-nd:] {
		if i >= nd-details {
			v.Decisions.Current = append(v.Decisions.Current, d.full)
		} else {
			v.Decisions.Current = append(v.Decisions.Current, d.brief)
		}
	}
	v.Decisions.More = c.more(len(m.decisions)-nd, "earlier decisions", "--decisions")
	if cfg[kSuperseded] == 1 {
		if m.superseded == 1 {
			v.Decisions.Superseded = "1 earlier decision was superseded by a later one and is not listed."
		} else {
			v.Decisions.Superseded = fmt.Sprintf("%d earlier decisions were superseded by later ones and are not listed.", m.superseded)
		}
	}

	// Errors: the oldest unresolved first (the one the next step names);
	// the most recent resolved ones.
	v.Errors = ErrorsView{
		Unresolved:     values(m.unresolved[:n[lUnresolved]]),
		UnresolvedMore: c.more(len(m.unresolved)-n[lUnresolved], "unresolved", "--errors"),
		Resolved:       values(m.resolved[len(m.resolved)-n[lResolved]:]),
		ResolvedMore:   c.more(len(m.resolved)-n[lResolved], "resolved", "--errors"),
	}

	v.Files = FilesView{List: values(m.files[:n[lFiles]]), More: c.more(len(m.files)-n[lFiles], "files", "--files")}

	if m.git != nil {
		g := *m.git
		g.Files = values(m.gitFiles[:n[lGitFiles]])
		g.More = c.more(len(m.gitFiles)-n[lGitFiles], "changed paths", "")
		v.Git = &g
	}
	if m.tests != nil {
		t := *m.tests
		t.Failing = values(m.failing[:n[lFailing]])
		t.FailingMore = c.more(len(m.failing)-n[lFailing], "", "")
		v.Tests = &t
	}
	v.Omitted = omitted(c.dropped(cfg))
	return v
}

// omitted summarises dropped items for View.Omitted.
func omitted(ds []Dropped) string {
	parts := make([]string, 0, len(ds))
	for _, d := range ds {
		if d.Section != sectionShortened {
			parts = append(parts, fmt.Sprintf("%d %s", d.Count, d.Section))
		}
	}
	return strings.Join(parts, ", ")
}

// more is the line that stands for n items left out: "… and 3 more
// pending (handoff show s1 --tasks)".
func (c *compilation) more(n int, what, flag string) string {
	if n <= 0 {
		return ""
	}
	s := fmt.Sprintf("… and %d more", n)
	if what != "" {
		s += " " + what
	}
	switch {
	case c.m.showDetail != "" && flag != "":
		s += fmt.Sprintf(" (`%s %s`)", c.m.showDetail, flag)
	case c.m.showDetail == "" && flag != "":
		s += " (not shown)"
	}
	return s
}

func values[T any](items []item[T]) []T {
	out := make([]T, len(items))
	for i, it := range items {
		out[i] = it.v
	}
	return out
}

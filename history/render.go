package history

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/handoff-cli/handoff"
)

// WriteText renders d for a person: one section per kind of change, each
// record on one line, and nothing for what did not change.
func WriteText(w io.Writer, d *Diff) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format+"\n", args...) }
	p("from %s (workflow %s, session %d, %s)", d.From.ID, d.From.WorkflowID, d.From.SessionNumber, d.From.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"))
	p("to   %s (workflow %s, session %d, %s)", d.To.ID, d.To.WorkflowID, d.To.SessionNumber, d.To.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"))
	if d.Empty() {
		p("no changes in goal, plan, decisions, errors, files, tests or git")
	}
	change := func(label string, c Change[string]) {
		if c.Changed() {
			p("%s: %s → %s", label, orNone(oneLine(c.From)), orNone(oneLine(c.To)))
		}
	}
	change("goal", d.Goal)
	change("next step", d.NextStep)
	section := func(title string, lines []string) {
		if len(lines) == 0 {
			return
		}
		p("\n%s (%d):", title, len(lines))
		for _, l := range lines {
			p("  %s", l)
		}
	}
	section("tasks done", mapf(d.TasksDone, taskLine))
	section("tasks added", mapf(d.TasksAdded, taskLine))
	section("tasks dropped", mapf(d.TasksDropped, taskLine))
	section("decisions added", mapf(d.DecisionsAdded, decisionLine))
	section("decisions superseded", mapf(d.DecisionsSuperseded, decisionLine))
	section("decisions no longer mentioned", mapf(d.DecisionsDropped, decisionLine))
	section("errors fixed", mapf(d.ErrorsFixed, errorLine))
	section("errors new", mapf(d.ErrorsNew, errorLine))
	section("errors no longer mentioned", mapf(d.ErrorsGone, errorLine))
	section("files added", d.FilesAdded)
	section("files edited further", d.FilesEdited)
	if d.Tests.Changed() || len(d.TestsFixed)+len(d.TestsBroken) > 0 {
		p("\ntests: %s → %s", orNone(string(d.Tests.From)), orNone(string(d.Tests.To)))
		if len(d.TestsFixed) > 0 {
			p("  now passing: %s", strings.Join(d.TestsFixed, ", "))
		}
		if len(d.TestsBroken) > 0 {
			p("  now failing: %s", strings.Join(d.TestsBroken, ", "))
		}
	}
	if d.Branch.Changed() || d.Commit.Changed() {
		p("\ngit: %s@%s → %s@%s", orNone(d.Branch.From), shortSHA(d.Commit.From), orNone(d.Branch.To), shortSHA(d.Commit.To))
	}
	if d.Utilization.Changed() {
		p("\ncontext: %.0f%% → %.0f%%", 100*d.Utilization.From, 100*d.Utilization.To)
	}
	return bw.Flush()
}

func mapf[T any](in []T, f func(T) string) []string {
	out := make([]string, 0, len(in))
	for _, v := range in {
		out = append(out, f(v))
	}
	return out
}

func taskLine(t handoff.Task) string { return fmt.Sprintf("[%s] %s", t.Status, oneLine(t.Content)) }

func decisionLine(x handoff.Decision) string {
	return fmt.Sprintf("[%s] %s", x.Type, oneLine(x.Description))
}

func errorLine(e handoff.ErrorRecord) string {
	s := fmt.Sprintf("[%s, %s] %s", e.Type, e.Resolution, oneLine(e.Message))
	if e.Command != "" {
		s += " (" + oneLine(e.Command) + ")"
	}
	return s
}

// oneLine folds white space so a record cannot break the layout, and cuts
// it at 160 runes.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 160 {
		return string(r[:159]) + "…"
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func shortSHA(c string) string {
	if c == "" {
		return "(none)"
	}
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

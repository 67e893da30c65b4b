package facts

import (
	"slices"
	"strings"
	"unicode"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// ReconcilePlan marks the plan's unfinished tasks that successful calls
// after the plan's last update worked on (Task.Later), and moves the
// current and next task past them: an agent often renames the files, runs
// the build and only then updates its list, so the last list is older than
// the work, and a next step taken from it redoes finished work.
func ReconcilePlan(s *handoff.Snapshot, main []handoff.Message, calls []SessionCall, cwd string) {
	if len(s.Tasks) == 0 {
		return
	}
	lastPlan := -1
	for i, c := range calls {
		if c.Info.Kind == KindPlan {
			lastPlan = i
		}
	}
	if lastPlan < 0 {
		return
	}
	later := laterEvidence(main, calls, lastPlan, cwd)
	if len(later) == 0 {
		return
	}
	stems, count := planTaskStems(s.Tasks, cwd)
	// Tasks are worked in order: from the first unfinished one, each task
	// is matched by a call after the one that matched the task before it,
	// and the first task no call matches ends the run. A call that only
	// shares a directory with a later task cannot mark it.
	lastMarked, from := -1, 0
	for i := range s.Tasks {
		t := &s.Tasks[i]
		if t.Status == handoff.TaskCompleted {
			continue
		}
		var distinctive []string
		for _, st := range stems[i] {
			if len(s.Tasks) <= 2 || count[st]*2 < len(s.Tasks) {
				distinctive = append(distinctive, st)
			}
		}
		found := matchingCall(later, from, distinctive)
		if found < 0 {
			break
		}
		t.Later = "`" + later[found].call + "`"
		lastMarked, from = i, found+1
	}
	if lastMarked < 0 {
		return
	}
	s.CurrentTaskID, s.NextTaskID = "", ""
	for _, t := range s.Tasks[lastMarked+1:] {
		if t.Status != handoff.TaskCompleted && t.Later == "" {
			s.NextTaskID = t.ID
			return
		}
	}
}

// planEvidence is a successful changing call after the plan's last
// update, lower-cased: its own words (command, description, paths), the
// assistant's short words on the way to it, and the call as a task's
// Later shows it.
type planEvidence struct {
	own, said, call string
}

// laterEvidence lists the calls after calls[lastPlan] that changed
// something and succeeded.
func laterEvidence(main []handoff.Message, calls []SessionCall, lastPlan int, cwd string) []planEvidence {
	var later []planEvidence
	prevAt := calls[lastPlan].At
	for _, c := range calls[lastPlan+1:] {
		mutating := (c.Info.Kind == KindEdit && !slices.ContainsFunc(c.Info.Paths, ProseFile)) || (c.Info.Shell() && !ReadOnlyCommand(c.Info.Command))
		if !mutating || !c.Done || c.Result.Failed() {
			prevAt = c.At
			continue
		}
		own := c.Info.Command + " " + c.InputStr("description") + " " + strings.Join(c.Info.Paths, " ")
		if cwd != "" {
			own = strings.ReplaceAll(own, cwd, "")
		}
		// The short words the assistant said or thought on the way to the
		// call ("All 14 workflow files renamed. Now rename the tool
		// file."); a long report is not narration of one call.
		var said strings.Builder
		for _, m := range main[min(prevAt+1, c.At):min(c.At+1, len(main))] {
			if m.Role == handoff.RoleAssistant && len(m.Text)+len(m.Thinking) < 400 {
				said.WriteString(" " + m.Text + " " + m.Thinking)
			}
		}
		later = append(later, planEvidence{own: strings.ToLower(own), said: strings.ToLower(said.String()), call: prose.Truncate(prose.FirstLine(c.Info.Command), 100)})
		prevAt = c.At
	}
	return later
}

// planTaskStems are each task's word stems, without those in the working
// directory's path (a word of it names every call there), and how many
// tasks share each stem.
func planTaskStems(tasks []handoff.Task, cwd string) ([][]string, map[string]int) {
	inCWD := strings.ToLower(cwd)
	stems := make([][]string, len(tasks))
	count := map[string]int{}
	for i, t := range tasks {
		for _, st := range taskStems(t.Content) {
			if !strings.Contains(inCWD, st) {
				stems[i] = append(stems[i], st)
			}
		}
		for _, st := range stems[i] {
			count[st]++
		}
	}
	return stems, count
}

// matchingCall is the first of later from index from whose own words hold
// one of the task's distinctive stems and, with what was said on the way,
// at least a third of them; -1 when none does.
func matchingCall(later []planEvidence, from int, distinctive []string) int {
	for k := from; k < len(later) && len(distinctive) > 0; k++ {
		matched, inCall := 0, false
		for _, st := range distinctive {
			if strings.Contains(later[k].own, st) {
				matched, inCall = matched+1, true
			} else if strings.Contains(later[k].said, st) {
				matched++
			}
		}
		if inCall && matched*3 >= len(distinctive) {
			return k
		}
	}
	return -1
}

// taskStems are the words of a task's text that can name its work in a
// command or a sentence: three letters or more, not a filler word, cut to
// six letters so "workflow" finds "workflows" and "Tool-Datei" finds
// "tools/".
func taskStems(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len([]rune(w)) < 3 || rulebook.HasWord("facts.plan-filler-words", w) {
			continue
		}
		if r := []rune(w); len(r) > 6 {
			w = string(r[:6])
		}
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// PlanAfterEvidence is the task to go on with: the first unfinished task
// after those later calls worked on, else the plan's current or next one.
func PlanAfterEvidence(s *handoff.Snapshot) (handoff.Task, bool) {
	for _, id := range []string{s.CurrentTaskID, s.NextTaskID} {
		for _, t := range s.Tasks {
			if id != "" && t.ID == id {
				return t, true
			}
		}
	}
	return handoff.Task{}, false
}

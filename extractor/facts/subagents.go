package facts

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
)

// subagents tracks the failing commands of sub-agent (sidechain) runs. The
// main thread's facts skip sidechain traffic, so a build a Task sub-agent
// left broken while reporting success would be invisible; here each run is
// judged like the main thread (its own call pairing and error log, so the
// main thread's pairing is untouched), and what is still failing when the
// run ends is filed as an open error of the session, unless the main
// thread later succeeds at the same thing.
type subagents struct {
	// prompts maps a sub-agent call's prompt to its description, from the
	// main thread's calls (Claude Code Task: {description, prompt}).
	prompts map[string]string
	cur     *subagentRun
	// done holds the errors of finished runs still open; main-thread
	// successes resolve them by the same rules as the main thread's own.
	done *errorLog
	// wheres names the run of each error in done.
	wheres []string
	// heads is the Build's memo of each content's failure judgement and
	// headline, shared with the main thread's error log (nil: none).
	heads *Headlines
}

type subagentRun struct {
	label string
	p     *pairing
	sh    *Shapes
	errs  *errorLog
	said  string
}

func newSubagents(heads *Headlines) *subagents {
	return &subagents{prompts: map[string]string{}, done: newErrorLog(), heads: heads}
}

// Call notes a main-thread call that starts a sub-agent: one whose input
// has a prompt and a short description.
func (s *subagents) Call(c handoff.ToolCall) {
	var in struct {
		Prompt      string `json:"prompt"`
		Description string `json:"description"`
	}
	if json.Unmarshal(c.Input, &in) != nil {
		return
	}
	if prompt := strings.TrimSpace(in.Prompt); prompt != "" && strings.TrimSpace(in.Description) != "" {
		s.prompts[prompt] = strings.TrimSpace(in.Description)
	}
}

// observe reads one sidechain message. A sidechain user message that is a
// known sub-agent prompt starts a new run, as does a sidechain message
// after main-thread traffic.
func (s *subagents) observe(m handoff.Message) {
	if m.Role == handoff.RoleUser {
		if desc, ok := s.prompts[strings.TrimSpace(m.Text)]; ok {
			s.start(desc)
		}
	}
	if s.cur == nil {
		s.start("")
	}
	r := s.cur
	if m.Role == handoff.RoleAssistant && strings.TrimSpace(m.Text) != "" {
		r.said = m.Text
		r.errs.said(m, m.Text)
	}
	for _, c := range m.ToolCalls {
		info := r.sh.Classify(c)
		info.said = r.said
		r.p.Add(c.ID, info)
	}
	for _, res := range m.ToolResults {
		call, ok := r.p.settle(res)
		if !ok {
			continue
		}
		fail := s.heads.Failed(res)
		r.errs.observe(m, res, call, fail)
		if fail || call == nil || !call.Shell() || !IsTestCommand(call.Command) {
			continue
		}
		if st := TestState(call.Command, res, fail, m); st.Status == handoff.TestsPassing {
			r.errs.tested(m)
		}
	}
}

// mainThread ends the current run: the main thread speaks again.
func (s *subagents) mainThread() { s.end() }

// success lets a main-thread success resolve a finished run's errors.
func (s *subagents) success(m handoff.Message, call *CallInfo) { s.done.success(m, call) }

func (s *subagents) start(label string) {
	s.end()
	s.cur = &subagentRun{label: label, p: newPairing(), sh: &Shapes{Heads: s.heads}, errs: newErrorLog()}
	s.cur.errs.heads = s.heads
}

// end files the run's failing commands that are still open. A failed
// tool call (a directory read as a file, an edit before a read) is how
// a sub-agent finds its way, not a result the main thread depends on.
func (s *subagents) end() {
	r := s.cur
	if r == nil {
		return
	}
	s.cur = nil
	if r.label == "" {
		// Not a run the main thread started with a prompt seen here: a
		// forked rollout's replay of its parent's history, whose failures
		// the parent went on to handle out of this transcript's sight.
		return
	}
	where := "in sub-agent '" + r.label + "'"
	for i, e := range r.errs.list {
		if !e.shellish() || ignoredSubagent(e.rec.Type) || strings.TrimSpace(e.rec.Message) == noOutput {
			continue
		}
		switch {
		case e.rec.Resolution == handoff.ResolutionUnresolved && !e.workaroundLater():
			s.wheres = append(s.wheres, where)
		case e.workaround() && (e.rec.Type == "build_error" || e.rec.Type == "test_failure"):
			// Going around a failing build or test run does not make it
			// pass, and the sub-agent's report to the main thread does not
			// say it failed: it is still open.
			e.rec.Resolution, e.rec.ResolvedBy, e.pending, e.workedAround = handoff.ResolutionUnresolved, nil, false, nil
			s.wheres = append(s.wheres, where+", which went on without fixing it")
		default:
			continue
		}
		s.done.list = append(s.done.list, e)
		s.done.contexts = append(s.done.contexts, r.errs.contexts[i])
	}
}

// noOutput is the message of a failure that printed nothing: in a
// sub-agent, mostly a search that found nothing.
const noOutput = "(no output)"

// ignoredSubagent leaves out error types the prompt does not show as
// errors anyway.
func ignoredSubagent(typ string) bool {
	return typ == "probe" || typ == "harness" || typ == "running"
}

// records returns the still-open errors of all runs, ids made distinct
// from the main thread's, with their contexts.
func (s *subagents) records() ([]handoff.ErrorRecord, []string) {
	s.end()
	var out []handoff.ErrorRecord
	var ctx []string
	for i, e := range s.done.list {
		if e.rec.Resolution != handoff.ResolutionUnresolved {
			continue
		}
		rec := e.rec
		rec.ID = "s" + strconv.Itoa(i+1)
		rec.Message = strings.TrimSpace(rec.Message) + " (" + s.wheres[i] + ")"
		out = append(out, rec)
		ctx = append(ctx, s.done.contexts[i])
	}
	return out, ctx
}

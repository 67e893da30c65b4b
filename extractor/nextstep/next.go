package nextstep

import (
	"fmt"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// For says the single most useful thing to do first on resuming, by
// evidence: the first rule of nextCascade that has something to say. Its
// wording quotes only the person's and the assistant's own words; from
// tool output it names the failing command or test, never the output's
// text.
func For(s *handoff.Snapshot) string {
	step, _ := Decide(s, rulebook.Switches{})
	return step
}

// Decide is For with rules switched off, and the id of the rule
// that decided ("" when none did).
func Decide(s *handoff.Snapshot, sw rulebook.Switches) (string, string) {
	if s == nil {
		return "", ""
	}
	n := &Nexter{S: s, sw: sw, Trail: new([]string)}
	return n.Next()
}

// Nexter runs the cascade over one snapshot. resumed says the session
// ended abruptly and the step is what to pick up once it is resumed
// (abruptNext says how).
type Nexter struct {
	S       *handoff.Snapshot
	sw      rulebook.Switches
	resumed bool
	// Trail collects, innermost first, the rules that decided nested runs
	// of the cascade (an abrupt end's "then", a stale run's rest).
	Trail *[]string
}

// nextRule is one step of the cascade; its id is a rulebook rule of
// LayerNext.
type nextRule struct {
	id   string
	step func(n *Nexter) string
}

// nextCascade is the next step's rules in order of precedence: what the
// person is owed first, then what the session left half done, then what
// is broken, then the plan, then what to confirm. Every id is in the
// rulebook with its examples (TestStepExamples).
func nextCascade() []nextRule {
	return []nextRule{
		{"next.unanswered-message", nextUnanswered},
		{"next.agent-note", nextAgentNote},
		{"next.pending-question", nextQuestion},
		{"next.abrupt-end", nextAbrupt},
		{"next.offered-step", nextOffered},
		{"next.in-flight-work", nextWorkInFlight},
		{"next.stated-next", nextStated},
		{"next.deferred-request", nextDeferred},
		{"next.in-flight-call", nextInFlight},
		{"next.stale-failing-run", nextStaleRun},
		{"next.failing-tests", nextFailingTests},
		{"next.failing-build", func(n *Nexter) string { return facts.FailingBuildStep(n.S) }},
		{"next.open-error", nextOpenError},
		{"next.plan-task", nextPlanTask},
		{"next.agent-finished", nextFinished},
		{"next.hedged-fix", nextHedged},
		{"next.final-answer", nextFinalAnswer},
		{"next.reported-next", nextReported},
		{"next.broken-check", nextBrokenCheck},
		{"next.resumed-report", nextResumedReport},
		{"next.last-report", nextLastReport},
		{"next.latest-request", nextLatestRequest},
	}
}

// Next runs the cascade: the step and the id of the rule that decided it.
func (n *Nexter) Next() (string, string) {
	for _, r := range nextCascade() {
		if !n.sw.On(r.id) {
			continue
		}
		if step := r.step(n); step != "" {
			return step, r.id
		}
	}
	return "Ask the person what to do next.", ""
}

// again runs the cascade on s, resumed or not, with the same switches.
func (n *Nexter) again(s *handoff.Snapshot, resumed bool) string {
	step, id := (&Nexter{S: s, sw: n.sw, resumed: resumed, Trail: n.Trail}).Next()
	*n.Trail = append(*n.Trail, id)
	if step == resumedNothing {
		return ""
	}
	return step
}

func nextUnanswered(n *Nexter) string {
	if e := n.S.EndState; e != nil && len(e.Unanswered) > 0 {
		return "Answer the person's last message, which the session never replied to: " + facts.QuoteData(prose.Truncate(prose.FirstLine(e.Unanswered[len(e.Unanswered)-1]), 240))
	}
	return ""
}

func nextQuestion(n *Nexter) string {
	if e := n.S.EndState; e != nil && e.Question != "" {
		return "The session ended waiting for the person's answer to: " + facts.QuoteData(prose.Truncate(e.Question, 300)) + " — get that answer before acting."
	}
	return ""
}

func nextAbrupt(n *Nexter) string {
	if e := n.S.EndState; e != nil && !n.resumed {
		if how := conversation.AbruptEnd(e); how != "" {
			return conversation.AbruptNext(e, how, n.again(n.S, true))
		}
	}
	return ""
}

// nextOffered: an offer waits on the person; "carry on" would start what
// they had not agreed to.
func nextOffered(n *Nexter) string {
	if e := n.S.EndState; e != nil && e.StatedNext != "" && conversation.OfferedNext.MatchString(e.StatedNext) {
		return "The assistant's last words offered the next step: " + facts.QuoteData(prose.Truncate(e.StatedNext, 300)) + " — take it up once the person agrees."
	}
	return ""
}

func nextStated(n *Nexter) string {
	if e := n.S.EndState; e != nil && e.StatedNext != "" {
		return "Carry on with what the assistant said comes next: " + facts.QuoteData(prose.Truncate(e.StatedNext, 300))
	}
	return ""
}

func nextDeferred(n *Nexter) string {
	if n.S.EndState == nil {
		return ""
	}
	if d := conversation.DeferredRequest(n.S); d != "" {
		return "Start with what the person asked to be done in the next session: " + facts.QuoteData(prose.Truncate(d, 300))
	}
	return ""
}

func nextInFlight(n *Nexter) string {
	e := n.S.EndState
	if e == nil || len(e.InFlight) == 0 {
		return ""
	}
	if facts.LandsRe.MatchString(e.InFlight[0]) {
		return "Check whether it landed (`git log -1`, `git status`): the session stopped before the result of `" + prose.Truncate(e.InFlight[0], 160) + "`"
	}
	return "Check the outcome of the call that had no result when the session stopped: `" + prose.Truncate(e.InFlight[0], 160) + "`"
}

// nextStaleRun: a failing run that later work made stale is not the next
// step; what would be without it is, with the run named.
func nextStaleRun(n *Nexter) string {
	if conversation.StaleFailingRun(n.S) {
		return n.again(conversation.WithoutStaleRun(n.S), n.resumed) + conversation.KnownFailing(n.S.TestState)
	}
	return ""
}

func nextFailingTests(n *Nexter) string {
	ts := n.S.TestState
	if ts == nil || ts.Status != handoff.TestsFailing {
		return ""
	}
	run := ""
	if ts.Command != "" {
		run = " (run: `" + prose.FirstLine(ts.Command) + "`)"
	}
	if ts.EditsAfter > 0 {
		// The failure predates later edits: it may be fixed, or not.
		return fmt.Sprintf("Re-run the tests%s: they last failed before %d later %s, so whether they still fail is unknown; fix what still fails.", run, ts.EditsAfter, prose.Plural(ts.EditsAfter, "edit", "edits"))
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
	return fmt.Sprintf("Fix the failing %s %s%s%s", prose.Plural(len(ts.FailingTests), "test", "tests"), strings.Join(names, ", "), more, run)
}

func nextOpenError(n *Nexter) string {
	s := n.S
	live := make([]handoff.ErrorRecord, 0, len(s.Errors))
	moot := facts.MootErrors(s)
	for _, e := range s.Errors {
		if !moot(e) {
			live = append(live, e)
		}
	}
	e, ok := facts.NewestOpenError(live, conversation.LastRequestIndex(s))
	if !ok {
		return ""
	}
	if e.Command != "" {
		return "Fix the open error from `" + prose.FirstLine(e.Command) + "` (see Open errors)."
	}
	return "Fix the open " + e.Tool + " error (see Open errors)."
}

func nextPlanTask(n *Nexter) string {
	t, ok := facts.PlanAfterEvidence(n.S)
	if !ok {
		return ""
	}
	if t.Status == handoff.TaskInProgress {
		return "Continue: " + facts.DescribeTask(t)
	}
	return "Start: " + facts.DescribeTask(t)
}

func nextFinished(n *Nexter) string {
	if e := n.S.EndState; e != nil && (e.Signal == "submitted" || e.Signal == "finished") {
		return "The run ended with the agent's " + map[string]string{"submitted": "submit", "finished": "finish action"}[e.Signal] +
			": review the result against the request, then ask the person whether anything more is wanted."
	}
	return ""
}

func nextHedged(n *Nexter) string {
	if claim := conversation.HedgedFix(n.S); claim != "" {
		return "The last fix is not verified yet: the assistant only expected it to work (" + facts.QuoteData(prose.Truncate(claim, 200)) +
			"). Run the check it names, or ask the person for the result, before building on it."
	}
	return ""
}

func nextFinalAnswer(n *Nexter) string {
	if e := n.S.EndState; e != nil && e.Signal == "task complete" && e.LastAssistant != "" {
		return "Nothing is pending: the agent delivered its final answer (" + facts.QuoteData(prose.Truncate(facts.FirstSentence(e.LastAssistant), 80)) +
			"). Wait for the person's next request; when it comes, check the answer against what they asked."
	}
	return ""
}

func nextReported(n *Nexter) string {
	if next := conversation.ReportedNext(n.S.EndState, n.sw); next != "" {
		return "Carry on with the next step the assistant's last reports named: " + facts.QuoteData(prose.Truncate(next, 240))
	}
	return ""
}

func nextBrokenCheck(n *Nexter) string {
	if cmd := facts.BrokenCheck(n.S); cmd != "" {
		return "The last message reports on the latest request, but `" + cmd + "` still fails and was never fixed (see Open errors): tell the person, then fix it."
	}
	return ""
}

// nextResumedReport is the tail of an abrupt end's step: the session
// is to be resumed, then its last report checked.
func nextResumedReport(n *Nexter) string {
	e := n.S.EndState
	if e == nil || e.LastAssistant == "" || !n.resumed {
		return ""
	}
	if conversation.APIErrorRe.MatchString(prose.FirstLine(e.LastAssistant)) {
		return resumedNothing
	}
	return "check that its last report settles the latest request: " + facts.QuoteData(prose.Truncate(facts.FirstSentence(e.LastAssistant), 120))
}

// resumedNothing marks a resumed session with nothing more to say than
// to resume it: the cascade stops there and abruptNext gets "".
const resumedNothing = "\x00"

func nextLastReport(n *Nexter) string {
	if e := n.S.EndState; e != nil && e.LastAssistant != "" {
		return "The last turn ended with the assistant reporting " + facts.QuoteData(prose.Truncate(facts.FirstSentence(e.LastAssistant), 120)) +
			": check with the person that this settles their latest request, then ask what comes next."
	}
	return ""
}

func nextLatestRequest(n *Nexter) string {
	req := n.S.LatestRequest
	if req == "" {
		req = n.S.Goal
	}
	if req != "" {
		return "Check with the person that their latest request is done and ask what comes next: " + facts.QuoteData(prose.Truncate(prose.FirstLine(req), 200))
	}
	return ""
}

// nextWorkInFlight: calls after the assistant's last words, or last words
// that announce an action and stop, mean the session was cut mid-task. The
// step is to continue that work, with what it touched, then to verify it
// (or go on with the plan), never "check with the person".
func nextWorkInFlight(n *Nexter) string {
	e := n.S.EndState
	running := e != nil && e.Signal == "turn running"
	if e == nil || len(e.InFlight) > 0 || (len(e.Trailing) == 0 && !running && !(e.Intent != "" && strings.HasSuffix(strings.TrimSpace(e.LastAssistant), ":"))) {
		return "" // a call with no result: next.in-flight-call says what to check
	}
	if ts := n.S.TestState; ts != nil && ts.Status == handoff.TestsFailing && ts.EditsAfter > 0 {
		return "" // next.failing-tests: re-run the tests the edits were for
	}
	var b strings.Builder
	b.WriteString("Continue the work in flight: the session stopped mid-task")
	if running {
		b.WriteString(" (the harness still ran the turn)")
	}
	if e.Intent != "" {
		b.WriteString(", after the assistant said " + facts.QuoteData(e.Intent))
	}
	if len(e.Trailing) > 0 {
		lines := e.Trailing
		if len(lines) > 5 {
			lines = append([]string{fmt.Sprintf("(%d earlier calls)", len(lines)-5)}, lines[len(lines)-5:]...)
		}
		b.WriteString(". Since then it " + strings.Join(lines, "; "))
	}
	b.WriteString(".")
	switch {
	case e.Verify != "":
		b.WriteString(" Then run `" + prose.Truncate(e.Verify, 200) + "` (" + e.VerifyWhy + ").")
	default:
		if t, ok := facts.PlanAfterEvidence(n.S); ok {
			b.WriteString(" Then go on with the plan: " + facts.DescribeTask(t))
		}
	}
	return b.String()
}

// nextAgentNote: the agent that filled its context knew its state best;
// its note's next action leads, as its words, with any disagreement the
// transcript shows.
func nextAgentNote(n *Nexter) string {
	e := n.S.EndState
	if e == nil || e.Note == nil || e.Note.Superseded || e.Note.Next == "" {
		return ""
	}
	out := "The agent's own handoff note says to do next: " + facts.QuoteData(prose.Truncate(e.Note.Next, 400))
	if len(e.Note.Disputes) > 0 {
		out += " — but check first: " + strings.Join(e.Note.Disputes, "; ") + "."
	}
	return out
}

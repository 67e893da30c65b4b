package rulebook

// nextRules are the next step's cascade, in the order the extractor tries
// them (extractor/next.go). Their examples are cases of the extractor's
// TestStepExamples: in an example the rule decides the next step, in a
// counter-example it does not.
func nextRules() []Rule {
	step := func(id, purpose string, examples, counter []string) Rule {
		return Rule{ID: id, Layer: LayerNext, Kind: KindStep, Switch: true, Purpose: purpose, Examples: examples, Counter: counter}
	}
	return []Rule{
		step("next.unanswered-message", "A message of the person's that the session never answered comes before anything else.",
			[]string{"unanswered message"}, []string{"question asked"}),
		step("next.agent-note", "The agent's own handoff note, written at the checkpoint, names the next step, unless later turns superseded it; where the transcript disagrees with the note, the step says so.",
			[]string{"agent note"}, []string{"agent note superseded"}),
		step("next.pending-question", "The session ended on a question to the person: get the answer before acting.",
			[]string{"question asked"}, []string{"unanswered message"}),
		step("next.abrupt-end", "A session that ended on an API error, a crash or a kill is resumed first, then picked up.",
			[]string{"api error end"}, []string{"stated next"}),
		step("next.offered-step", "A next step the assistant only offered waits for the person's yes.",
			[]string{"offered step"}, []string{"stated next"}),
		step("next.stated-next", "The next step the assistant said it would take.",
			[]string{"stated next"}, []string{"offered step"}),
		step("next.deferred-request", "What the person asked to be done in the next session.",
			[]string{"deferred request"}, []string{"stated next"}),
		step("next.in-flight-work", "Calls made after the assistant's last words, or a turn the harness still ran, are work in flight: continue it, with what it was doing and what it touched, not 'check with the person'.",
			[]string{"calls after last words"}, []string{"last report", "in flight call"}),
		step("next.in-flight-call", "A call with no result when the session stopped: check its outcome (for a commit or push, whether it landed).",
			[]string{"in flight call"}, []string{"failing tests"}),
		step("next.stale-failing-run", "A failing run made stale by later work is not the next step; the rest of the cascade decides, naming the run.",
			[]string{"stale failing run"}, []string{"failing tests"}),
		step("next.failing-tests", "The latest test run failed: fix the failing tests (re-run first when edits came after it).",
			[]string{"failing tests"}, []string{"open error"}),
		step("next.failing-build", "The latest build or check failed: fix it, naming the failing symbols.",
			[]string{"failing build"}, []string{"failing tests"}),
		step("next.open-error", "The newest open error met on the latest request that no later evidence made moot.",
			[]string{"open error"}, []string{"worked-around error"}),
		step("next.plan-task", "The plan's current or next task, as later calls left it.",
			[]string{"plan task"}, []string{"stale plan"}),
		step("next.agent-finished", "A run that ended with the agent's submit or finish action: review the result.",
			[]string{"agent finished"}, []string{"last report"}),
		step("next.hedged-fix", "A fix the last message only expects to work is verified first.",
			[]string{"hedged fix"}, []string{"last report"}),
		step("next.final-answer", "The agent delivered its final answer: wait for the person's next request.",
			[]string{"final answer"}, []string{"last report"}),
		step("next.reported-next", "A next step the last reports named after a label ('Next:').",
			[]string{"reported next"}, []string{"last report"}),
		step("next.broken-check", "The last message reports on the request while a check still fails.",
			[]string{"broken check"}, []string{"last report"}),
		step("next.resumed-report", "After an abrupt end, check the last report once resumed.",
			[]string{"api error end"}, []string{"last report"}),
		step("next.last-report", "The last turn reported: confirm it settles the latest request.",
			[]string{"last report"}, []string{"plan task"}),
		step("next.latest-request", "Nothing else to go on: confirm the latest request is done.",
			[]string{"request only"}, []string{"last report"}),
	}
}

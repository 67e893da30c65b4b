package compiler

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestReferToShown(t *testing.T) {
	last := "**§4 — Implementation plan** is recorded, framed as three `development chunks`, each ending in a manual test and validation gate.\n\n- Chunk 1: seed.\n- Chunk 2: browse."
	tests := []struct {
		name, next, last, want string
	}{
		{"first sentence, emphasis dropped by the quote",
			"The last turn ended with the assistant reporting “§4 — Implementation plan is recorded, framed as three development chunks, each ending in a manual test and validation gate.”: check with the person.",
			last, "The last turn ended with the assistant reporting " + lastMessageRef + ": check with the person."},
		{"a clipped quote matches by what it keeps",
			"Reported “§4 — Implementation plan is recorded, framed as three development chunks, each ending in a manual test and valid…”: ask.",
			last, "Reported " + lastMessageRef + ": ask."},
		{"a quote of another message stays",
			"Continue: “Download and install CUDA Toolkit 12.x” (task 8)",
			last, "Continue: “Download and install CUDA Toolkit 12.x” (task 8)"},
		{"a report of one short sentence shown is referred to",
			"The last turn ended with the assistant reporting “Chunk 1 seeds the sessions. Chunk 2 browses them.”: check with the person.",
			"Done.\n\nChunk 1 seeds the sessions. Chunk 2 browses them.", "The last turn ended with the assistant reporting " + lastMessageRef + ": check with the person."},
		{"a short quote stays: too little to be sure",
			"Run “Chunk 1: seed.” next.", last, "Run “Chunk 1: seed.” next."},
		{"a quote in parentheses takes no second pair",
			"Nothing is pending: the agent delivered its final answer (“§4 — Implementation plan is recorded, framed as three development chunks, each ending in a manual test and valid…”). Wait.",
			last, "Nothing is pending: the agent delivered its final answer " + lastMessageRef + ". Wait."},
		{"a quote named after a colon is the step: it stays",
			"Carry on with what the assistant said comes next: “§4 — Implementation plan is recorded, framed as three development chunks, each ending in a manual test and validation gate.”",
			last, "Carry on with what the assistant said comes next: “§4 — Implementation plan is recorded, framed as three development chunks, each ending in a manual test and validation gate.”"},
		{"a quote after a colon that is the whole message shown is referred to",
			"Carry on with what the assistant said comes next: “Next session: an end-to-end test that runs `budget import` on the February sample into a temp ledger and asserts the totals.”",
			"Next session: an end-to-end test that runs `budget import` on the February sample into a temp ledger and asserts the totals.",
			"Carry on with what the assistant said comes next " + lastMessageRef + "."},
		{"a short quote is the step: it stays",
			"Carry on with what the assistant said comes next: “Chunk 1: seed the sessions and heal them on re-sync.”",
			"Done.\n\nChunk 1: seed the sessions and heal them on re-sync.", "Carry on with what the assistant said comes next: “Chunk 1: seed the sessions and heal them on re-sync.”"},
		{"no last message", "Reported “§4 — Implementation plan is recorded”.", "", "Reported “§4 — Implementation plan is recorded”."},
		{"beyond what the short variant shows stays",
			"Carry on: “the final sentence that only the full message holds.”",
			strings.Repeat("Filler words for the opening paragraph. ", 12) + "The final sentence that only the full message holds.",
			"Carry on: “the final sentence that only the full message holds.”"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := referToShown(tc.next, tc.last); got != tc.want {
				t.Errorf("referToShown:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestNextStepRefersToLastMessage: where the prompt shows the last
// message, the next step points at it instead of quoting it again, at
// any budget; where the budget left the message out, the next step quotes
// it.
func TestNextStepRefersToLastMessage(t *testing.T) {
	s := &handoff.Snapshot{
		Goal:     "Write the plan.",
		NextStep: "The last turn ended with the assistant reporting “The plan is recorded in docs/PLAN.md as three development chunks, each ending in a manual validation gate.”: check with the person.",
		EndState: &handoff.EndState{LastAssistant: "The plan is recorded in docs/PLAN.md as three development chunks, each ending in a manual validation gate.\n\n" + strings.Repeat("Each chunk ends in a manual check of what it built. ", 5)},
	}
	for _, tc := range []struct {
		budget int
		shown  bool // the last message fits
	}{{1000, true}, {smallBudget, true}, {110, false}} {
		res := compileWith(t, s, tc.budget)
		quoted := strings.Contains(res.Prompt, "> The plan is recorded in docs/PLAN.md")
		if quoted != tc.shown {
			t.Fatalf("budget %d: last message shown %v, want %v:\n%s", tc.budget, quoted, tc.shown, res.Prompt)
		}
		if got := strings.Count(res.Prompt, "The plan is recorded in docs/PLAN.md"); got != 1 {
			t.Errorf("budget %d: the last message's sentence appears %d times, want once (quoted above, or in the next step when the message did not fit):\n%s", tc.budget, got, res.Prompt)
		}
		if refers := strings.Contains(res.Prompt, lastMessageRef); refers != tc.shown {
			t.Errorf("budget %d: next step refers to the message above: %v, want %v:\n%s", tc.budget, refers, tc.shown, res.Prompt)
		}
	}
}

// TestQuestionSaidOnce: a session that ended on a question puts the
// question in its next step; the stop section does not quote it again
// unless the next step quotes something else. The last message is too
// long to show whole at this budget, so it does not show the question
// either (with room for the whole message, the next step still names the
// question: it is what to act on).
func TestQuestionSaidOnce(t *testing.T) {
	question := "Would you like me to add a migration for the orders table as well?"
	for _, tc := range []struct {
		name, next string
		want       int
	}{
		{"next step quotes the question", "The session ended waiting for the person's answer to: “" + question + "” — get that answer before acting.", 1},
		{"next step names other work", "Continue: “Write the migration for the users table.” (task 2)", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &handoff.Snapshot{
				Goal:     "Add the orders table.",
				NextStep: tc.next,
				EndState: &handoff.EndState{LastAssistant: strings.Repeat("The orders table is in place with its indexes and its tests. ", 45) + question, Question: question},
			}
			res := compileWith(t, s, 700)
			if got := strings.Count(res.Prompt, question); got != tc.want {
				t.Errorf("the question appears %d times, want %d:\n%s", got, tc.want, res.Prompt)
			}
		})
	}
}

func compileWith(t *testing.T, s *handoff.Snapshot, budget int) *Result {
	t.Helper()
	c, err := counter()
	if err != nil {
		t.Fatal(err)
	}
	res, err := Compile(s, Options{Budget: budget, Counter: c})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestNextLineClosesQuote checks that a next step clipped inside its
// quote of transcript text keeps the quote closed.
func TestNextLineClosesQuote(t *testing.T) {
	t.Parallel()
	long := "Continue: “" + strings.Repeat("wire the limiter ", 20) + "” (task 3)"
	tests := []struct {
		name, next string
		limit      int
	}{
		{"clipped inside the quote", long, 80},
		{"quote whole", long, 700},
		{"no quote", "Run the tests again.", 80},
	}
	for _, tt := range tests {
		got := nextLine(tt.next, tt.limit)
		if o, c := strings.Count(got, "“"), strings.Count(got, "”"); o != c {
			t.Errorf("%s: %d opening and %d closing quotes in %q", tt.name, o, c, got)
		}
		if !strings.HasPrefix(got, tt.next[:9]) {
			t.Errorf("%s: %q does not start like the next step", tt.name, got)
		}
	}
}

// TestPlanTaskNamedOnce: a plan task the next step quotes whole is named
// there; the plan says where it stands without quoting it again. A task
// the next step does not quote keeps its text.
func TestPlanTaskNamedOnce(t *testing.T) {
	s := &handoff.Snapshot{
		Goal:          "Set up CUDA on the laptop.",
		NextStep:      "Continue: “Download and install CUDA Toolkit 12.x” (task 2)",
		CurrentTaskID: "2",
		Tasks: []handoff.Task{
			{ID: "1", Content: "Check the driver version", Status: handoff.TaskCompleted},
			{ID: "2", Content: "Download and install CUDA Toolkit 12.x", Status: handoff.TaskInProgress},
			{ID: "3", Content: "Configure PATH and LD_LIBRARY_PATH", Status: handoff.TaskPending},
		},
	}
	res := compileWith(t, s, 1000)
	if got := strings.Count(res.Prompt, "Download and install CUDA Toolkit 12.x"); got != 1 {
		t.Errorf("the current task is quoted %d times, want once (in the next step):\n%s", got, res.Prompt)
	}
	for _, want := range []string{"- [in progress] " + nextStepRef + " ← current", "“Configure PATH and LD_LIBRARY_PATH”"} {
		if !strings.Contains(res.Prompt, want) {
			t.Errorf("prompt lacks %q:\n%s", want, res.Prompt)
		}
	}
}

func TestReasoningShown(t *testing.T) {
	e := &handoff.EndState{Reasoning: "**Designing the stream parser** I’m mapping out the changes to handleLocalChat and processResponse so the stream is parsed line by line."}
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"the reasoning's body", "I’m mapping out the changes to handleLocalChat and processResponse so the stream is parsed line by line.", true},
		{"another thought", "I’ll check the model list endpoint next.", false},
		{"too short to tell", "I’m mapping", false},
	} {
		if got := reasoningShown(e, tc.text); got != tc.want {
			t.Errorf("%s: reasoningShown = %v, want %v", tc.name, got, tc.want)
		}
	}
	if reasoningShown(nil, "anything at all that is long enough") {
		t.Error("reasoningShown(nil, …) = true")
	}
}

func TestQuotedFrom(t *testing.T) {
	msg := flatText("Excellent! We've successfully:\n1. Consolidated all fixtures under specs/fixtures/\n2. Fixed the plist format issue (dict vs array)\n3. Removed duplication")
	tests := []struct {
		name, span string
		want       bool
	}{
		{"one run of the text", "Consolidated all fixtures under specs/fixtures/", true},
		{"list items joined without their markers", "Consolidated all fixtures under specs/fixtures/ Fixed the plist format issue (dict vs array)", true},
		{"words of the message in another order", "Fixed the plist format issue (dict vs array) Consolidated all fixtures", false},
		{"a word the message lacks", "Consolidated all fixtures under specs/fixtures/ Fixed the yaml format issue", false},
		{"too far apart", "Excellent! Removed duplication", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := quotedFrom(msg, flatText(tc.span)); got != tc.want {
				t.Errorf("quotedFrom(%q) = %v, want %v", tc.span, got, tc.want)
			}
		})
	}
}

// TestInFlightCallSaidOnce checks that a call left without a result is not
// listed again when the next step already quotes it to check first, and
// is listed when the next step names other work or only part of it.
func TestInFlightCallSaidOnce(t *testing.T) {
	call := "cd /repo && git add -A && git status --short"
	for _, tc := range []struct {
		name, next, call string
		want             int
	}{
		{"next step quotes the call", "Step 2 of the procedure. Check first the call left without a result: `" + call + "`.", call, 1},
		{"next step names other work", "Continue: “Write the migration.” (task 2)", call, 1},
		{"a multi-line call is shown whole", "Check first the call left without a result: `cat <<EOF`.", "cat <<EOF\nline\nEOF", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &handoff.Snapshot{
				Goal:     "Check in the work.",
				NextStep: tc.next,
				EndState: &handoff.EndState{LastAssistant: "Creating the checkpoint now.", InFlight: []string{tc.call}},
			}
			res := compileWith(t, s, 700)
			if got := strings.Count(res.Prompt, strings.SplitN(tc.call, "\n", 2)[0]); got != tc.want {
				t.Errorf("the call appears %d times, want %d:\n%s", got, tc.want, res.Prompt)
			}
		})
	}
}

package compiler

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestNearDuplicate(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"Move the other fixtures under apple_books as I told you, now we have duplication", "Move the other fixtures under apple_books as I told you, now we have a duplication", true},
		{"npm run gitflow:protect -- --yes\n[git-flow] Applying protection", "npm run gitflow:protect -- --yes [git-flow] Applying protection", true},
		{"Add the --json flag to export", "Add the --yaml flag to import", false},
		{"", "anything", false},
	} {
		if got := nearDuplicate(tc.a, tc.b); got != tc.want {
			t.Errorf("nearDuplicate(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestRestated(t *testing.T) {
	latest := "Coordinator update: new repo rule now applies to your batch. Any measurable coverage or quality improvement must include a canonical before snapshot document and an after snapshot document, both produced with the same commands."
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"the rule restated in other order", "New repo rule: any measurable coverage or quality improvement must include a canonical before snapshot document and after snapshot", true},
		{"a rule the latest request does not state", "Do not use pnpm test:e2e for the coverage runs in this batch.", false},
		{"a short message is its own fact", "Delete the snapshot.", false},
		{"half its words new", "Any measurable coverage must be reported in the weekly status document for the team lead.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := restated(tokenSet(tc.text), tokenSet("Add the orders table."), tokenSet(latest)); got != tc.want {
				t.Errorf("restated(%q) = %v, want %v", tc.text, got, tc.want)
			}
		})
	}
}

func TestQuotedWordForWord(t *testing.T) {
	goal := wordList("Audit the repository. Constraints:\n- Preserve agent-first design\n- Keep all scaffolding aligned with the Codex")
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"a constraint the goal lists", "Preserve agent-first design.", true},
		{"the same words, another order", "Design agent-first, preserve it.", false},
		{"two words are too few to tell", "Audit the", false},
		{"a rule of its own", "Preserve the public API.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := quotedWordForWord(wordList(tc.text), goal); got != tc.want {
				t.Errorf("quotedWordForWord(%q) = %v, want %v", tc.text, got, tc.want)
			}
		})
	}
}

func TestBareAck(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"yup!", true},
		{"hi", true},
		{"Merci beaucoup", true},
		{"ja. perfekt", true},
		{"go", true},
		{"go on", true},
		{"Hell, NO!", true}, // a reaction: its object is not shown
		{"do it", true},
		{"no, use the old flag", false},
		{"Delete them.", false}, // an instruction, however short
		{"commit", false},
		{"yes, but keep the old flag", false},
		{"", false},
	} {
		if got := bareAck(tc.text); got != tc.want {
			t.Errorf("bareAck(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestEarlierMessagesSaidOnce(t *testing.T) {
	snap := &handoff.Snapshot{
		Goal:          "Implement the export command with a --json flag",
		LatestRequest: "Now document the flag in the README",
		Requests: []handoff.Request{
			{Text: "Implement the export command with a --json flag", Source: handoff.MessageRef{Index: 1}},
			{Text: "yup!", Source: handoff.MessageRef{Index: 3}},
			{Text: "Move the fixtures under testdata/export as I told you, now we have duplication", Source: handoff.MessageRef{Index: 5}},
			{Text: "Move the fixtures under testdata/export as I told you, now we have a duplication", Source: handoff.MessageRef{Index: 7}},
			{Text: "yes", Answers: "Keep the old --csv flag? (options: yes / no)", Source: handoff.MessageRef{Index: 9}},
			{Text: "Now document the flag in the README", Source: handoff.MessageRef{Index: 11}},
		},
	}
	res, err := Compile(snap, Options{Budget: 2000, Counter: testCounter(t)})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Prompt
	if strings.Contains(p, "“yup!”") {
		t.Errorf("a bare acknowledgement was quoted:\n%s", p)
	}
	if n := strings.Count(p, "Move the fixtures under testdata/export"); n != 1 {
		t.Errorf("a message sent twice is quoted %d times, want once:\n%s", n, p)
	}
	if !strings.Contains(p, "now we have a duplication") {
		t.Errorf("want the newest copy of a message sent twice:\n%s", p)
	}
	if !strings.Contains(p, "“yes” — answering") {
		t.Errorf("an acknowledgement that answers a question was left out:\n%s", p)
	}
}

// A message sent again with more after it shows what it added; one sent
// again with more before it is shown once, in the newer message; a pick
// the decisions quote with its question is not listed again as a request.
func TestEarlierMessagesAddOnlyWhatIsNew(t *testing.T) {
	goal := "Read up on the hotkey and push-to-talk code; the text inserted is always the same, why?"
	snap := &handoff.Snapshot{
		Goal:          goal,
		LatestRequest: "Now write the report into the repository root",
		Requests: []handoff.Request{
			{Text: goal, Source: handoff.MessageRef{Index: 1}},
			{Text: "Of important note, we used to publish the builds to another repository.", Source: handoff.MessageRef{Index: 2}},
			{Text: "TypeScript (Bun); keep both skills", Answers: "Which language for the CLI? (options: TypeScript (Bun) / Python)", Source: handoff.MessageRef{Index: 3}},
			{Text: goal + " I think a counter is computed wrong. Follow the analyzer prompt below.", Source: handoff.MessageRef{Index: 5}},
			{Text: "OK, the right set of changes. Of important note, we used to publish the builds to another repository.", Source: handoff.MessageRef{Index: 6}},
			{Text: "Now write the report into the repository root", Source: handoff.MessageRef{Index: 7}},
		},
		Decisions: []handoff.Decision{{ID: "d1", Description: `The person chose "TypeScript (Bun); keep both skills" when asked "Which language for the CLI?"`, Source: handoff.MessageRef{Index: 3}}},
	}
	res, err := Compile(snap, Options{Budget: 2000, Counter: testCounter(t)})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Prompt
	if n := strings.Count(p, "Read up on the hotkey"); n != 1 {
		t.Errorf("the goal's words are quoted %d times, want once:\n%s", n, p)
	}
	if !strings.Contains(p, "“… I think a counter is computed wrong.") {
		t.Errorf("want what the re-sent message added:\n%s", p)
	}
	if n := strings.Count(p, "we used to publish the builds"); n != 1 || !strings.Contains(p, "“OK, the right set of changes.") {
		t.Errorf("a message repeated inside a newer one is quoted %d times, want once, in the newer:\n%s", n, p)
	}
	if n := strings.Count(p, "TypeScript (Bun); keep both skills"); n != 1 {
		t.Errorf("the pick is quoted %d times, want once (as a decision):\n%s", n, p)
	}
	for _, tc := range []struct{ text, want string }{
		{goal, goal},        // the same message: left to the goal's own check
		{goal + " ok.", ""}, // nothing new
		{"Short one. And more words here", "Short one. And more words here"}, // too short an opening to match
	} {
		if got := withoutRepeatedOpening(tc.text, goal, "Short one."); got != tc.want {
			t.Errorf("withoutRepeatedOpening(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// A session of thousands of messages offers the budget at most
// maxEarlierRequests of them: more never fit, and each costs time.
func TestEarlierRequestsBounded(t *testing.T) {
	t.Parallel()
	s := manyRequestsSnapshot(5000)
	groups := map[int]bool{}
	for _, p := range buildPieces(s, "handoff show") {
		if p.sec == secRequests {
			groups[p.group] = true
		}
	}
	if len(groups) != maxEarlierRequests {
		t.Errorf("%d earlier messages offered, want %d", len(groups), maxEarlierRequests)
	}
}

// TestConstraintSaidByFullGoal: a constraint the goal's full form quotes
// word for word, past what its short form shows, is listed only while the
// full goal is not shown; it is not reported as cut when left out.
func TestConstraintSaidByFullGoal(t *testing.T) {
	t.Parallel()
	rule := "Do not revert edits made by the other workers in this repository."
	goal := "Implement batch 2 of the coverage plan in your forked workspace. " + strings.Repeat("Raise branch coverage of the admin routes with behaviour tests. ", 6) + rule
	s := &handoff.Snapshot{
		Goal:        goal,
		Constraints: []handoff.Constraint{{Text: rule}},
		NextStep:    "Run the coverage suite.",
	}
	for _, tc := range []struct {
		budget   int
		fullGoal bool
	}{{1000, true}, {190, false}} {
		res := compileWith(t, s, tc.budget)
		if got := strings.Contains(res.Prompt, "> "+rule) || strings.Contains(res.Prompt, rule+"\n"); got != tc.fullGoal {
			t.Fatalf("budget %d: full goal shown = %v, want %v:\n%s", tc.budget, got, tc.fullGoal, res.Prompt)
		}
		want := 1
		if tc.fullGoal {
			want = 0 // said in the goal, not again
		}
		if got := strings.Count(res.Prompt, "“"+rule+"”"); got != want {
			t.Errorf("budget %d: constraint listed %d times, want %d:\n%s", tc.budget, got, want, res.Prompt)
		}
		for _, d := range res.Dropped {
			if d.Section == "constraints" {
				t.Errorf("budget %d: constraint reported cut: %+v", tc.budget, res.Dropped)
			}
		}
	}
}

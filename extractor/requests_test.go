package extractor

import (
	"slices"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

func TestSlashCommandsThatCarryATask(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("/orchestrator create a TODO app with Next.js")
	c.Say("Planning the subtasks.")
	c.User("Thanks! Please update the notes for the current changes")
	c.Say("Updated.")
	c.Meta("<command-message>create-checkpoint is running…</command-message>\n<command-name>/create-checkpoint</command-name>")
	c.Meta("# Create a checkpoint\n\n1. **Write the session status** to STATUS.md.\n2. **Commit**: git add -A and git commit -m \"Checkpoint: …\".\n3. **Report** the commit hash.")
	c.Say("Creating the checkpoint.")
	c.Meta("<command-name>/clear</command-name>")
	c.Meta("<local-command-stdout></local-command-stdout>")
	snap := build(t, c, handoff.SessionInfo{})
	if snap.Goal != "/orchestrator create a TODO app with Next.js" {
		t.Errorf("goal = %q, want the slash command whose arguments are the task", snap.Goal)
	}
	if !strings.HasPrefix(snap.LatestRequest, "/create-checkpoint — the command's prompt: Create a checkpoint. Write the session status") || !strings.Contains(snap.LatestRequest, "git commit") {
		t.Errorf("latest request = %q, want the custom command with its expanded prompt", snap.LatestRequest)
	}
	for _, r := range snap.Requests {
		if strings.HasPrefix(r.Text, "/clear") {
			t.Errorf("a built-in command became a request: %q", r.Text)
		}
	}
}

func TestCommandPromptIsGoalOnlyWhenNothingElse(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.Meta("<command-name>/recover-from-checkpoint</command-name>")
	c.Meta("# Recover\n\nRead STATUS.md and summarise the last checkpoint.")
	c.Say("Recovered: phase 2 is next.")
	c.User("let's go with phase 2: simplify the context loader")
	c.Say("Done.")
	snap := build(t, c, handoff.SessionInfo{})
	if snap.Goal != "let's go with phase 2: simplify the context loader" {
		t.Errorf("goal = %q, want the person's own request, not the recovery command's prompt", snap.Goal)
	}
}

func TestConfirmPromptIsNoRequest(t *testing.T) {
	for _, s := range []string{
		"Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: all",
		"Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y",
	} {
		if !conversation.ConfirmPromptRe.MatchString(s) {
			t.Errorf("%q not recognised as a confirmation prompt", s)
		}
	}
	if conversation.ConfirmPromptRe.MatchString("Should we say (Y)es/(N)o to the vendor?") {
		t.Error("a question of the person's was taken for a confirmation prompt")
	}
}

func TestGoalSaysSomething(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("CH")
	c.Say("Menu: CH chat, SC scaffold.")
	c.User("implement git flow in my project")
	c.Say("Done.")
	snap := build(t, c, handoff.SessionInfo{})
	if snap.Goal != "implement git flow in my project" {
		t.Errorf("goal = %q, want the first request of three words or more", snap.Goal)
	}
}

func TestGoalFitness(t *testing.T) {
	for _, tc := range []struct {
		text string
		want conversation.GoalFit
	}{
		{"Add a --json flag to the export command", conversation.GoalTask},
		{"Please rename game_2048.py to 2048.py", conversation.GoalTask},
		{"implémente git flow dans mon projet", conversation.GoalTask},
		{"Can you read requirements/PRD.md to understand the scope. Then, can you start on FND-001?", conversation.GoalTask},
		{"Kannst du bitte die Tests für den Parser reparieren?", conversation.GoalTask},
		{"А почитай про хоткей и push-to-talk. Там почти все готово, но почему-то текст один и тот же, может где баг?", conversation.GoalTask},
		{"Why does the build fail on arm64? Fix it and add a regression test.", conversation.GoalTask},
		{"let's go", conversation.GoalShort},
		{"FND-001", conversation.GoalShort},
		{"execute @.claude/commands/hi.md", conversation.GoalShort},
		{"What stage is the project at and how far along is the RAG part?", conversation.GoalQuestion},
		{"Про что проект и на каком этапе сейчас RAG?", conversation.GoalQuestion},
		{"ist das teil des trainings oder kommt das training separat später?", conversation.GoalQuestion},
		{"When working on features, you must always use red/green/refactor TDD. These practices should be baked into every phase of every plan.", conversation.GoalRule},
		{"Never push to main without asking me first.", conversation.GoalRule},
		{"Never mind the old tests, rewrite the parser in pkg/parse from scratch", conversation.GoalTask},
		{"Always run the linter. Now implement the export command with a --json flag.", conversation.GoalTask},
		{"summarise what we did in the last session for me", conversation.GoalLookBack},
		{"fasse mir die aktivitäten der letzten session zusammen", conversation.GoalLookBack},
		{"OK, good start. But let us first get on the same page:", conversation.GoalPreamble},
		{"yes do it, if you find other errors or UX bugs, fix them too", conversation.GoalGoAhead},
		{"Go ahead and fix the failing tests too.", conversation.GoalGoAhead},
		{"Yes do it, and first write a plan for everything that remains.\nAudit the admin dashboard too, and how it connects to the store dashboard", conversation.GoalTask},
		{"Let's not rush. Our last session got interrupted by failing API calls, which we fixed by updating the CLI. We were in the middle of researching the meaning of the ZSTATE column. But let us first get on the same page:", conversation.GoalTask},
	} {
		if got := conversation.GoalFitness(tc.text); got != tc.want {
			t.Errorf("goalFitness(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}

func TestGoalIsFirstRequestThatAsksForWork(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("When working on features you must always use red/green/refactor TDD. These practices should be baked into every phase of every plan.")
	c.Say("Understood.")
	c.User("What stage is the project at?")
	c.Say("Phase 2 of 4.")
	c.User("go")
	c.Say("Going.")
	c.User("Implement the export command with a --json flag and tests")
	c.Say("Done.")
	c.User("Now wire it into the CLI help text please")
	c.Say("Done too.")
	snap := build(t, c, handoff.SessionInfo{})
	if snap.Goal != "Implement the export command with a --json flag and tests" {
		t.Errorf("goal = %q, want the first message that asks for work", snap.Goal)
	}
	found := false
	for _, k := range snap.Constraints {
		found = found || strings.Contains(k.Text, "always use red/green/refactor TDD")
	}
	if !found {
		t.Errorf("constraints = %+v, want the standing rule among them", snap.Constraints)
	}
}

// A compaction summary's primary request is the model's own account of
// everything asked before it: it is the goal even when it comes after the
// first request, and the latest summary's, which covers the most, wins.
func TestGoalIsTheLatestSummarysPrimaryRequest(t *testing.T) {
	summary := func(request string) string {
		return "This session is being continued from a previous conversation.\nSummary:\n1. Primary Request and Intent:\n" + request +
			"\n2. Key Technical Concepts:\n   - sqlite\n3. Current Work:\n   Writing the importer"
	}
	c := sessiontest.NewConvo(t)
	c.User("Introduce yourself and summarise the state of the project for me")
	c.Say("Hello.")
	c.Push(handoff.Message{Role: handoff.RoleUser, CompactSummary: true, Text: summary("   - Port the CLI to Go")})
	c.User("Now add the import command with a --dry-run flag")
	c.Say("Added.")
	c.Push(handoff.Message{Role: handoff.RoleUser, CompactSummary: true, Text: summary("   - **Port**: Port the CLI to Go\n   - **Import**: Add the import command with a --dry-run flag")})
	c.User("run the tests please and fix what fails")
	c.Say("All green.")
	snap := build(t, c, handoff.SessionInfo{})
	if want := "- **Port**: Port the CLI to Go\n- **Import**: Add the import command with a --dry-run flag"; snap.Goal != want {
		t.Errorf("goal = %q, want the latest summary's primary request, one line per item: %q", snap.Goal, want)
	}
}

func TestGoalFallsBackWhenNoMessageAsksForWork(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("What stage is the project at?")
	c.Say("Phase 2 of 4.")
	c.User("thanks")
	snap := build(t, c, handoff.SessionInfo{})
	if snap.Goal != "What stage is the project at?" {
		t.Errorf("goal = %q, want the first message that says anything", snap.Goal)
	}
}

func TestConstraintsDoNotRepeatTheGoalOrLatestRequest(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("Look at STATUS.md and make sure the parser handles empty input. Never push to main without asking me.")
	c.Say("Done.")
	c.User("Don't touch the generated files in gen/.")
	c.Say("Understood.")
	c.User("Write the release notes and ensure every entry links its pull request. Ask me before tagging the release.")
	c.Say("Writing.")
	snap := build(t, c, handoff.SessionInfo{})
	var got []string
	for _, k := range snap.Constraints {
		got = append(got, k.Text)
	}
	for _, want := range []string{
		"Never push to main without asking me.",    // a standing rule in the goal
		"Don't touch the generated files in gen/.", // an earlier message
		"Ask me before tagging the release.",       // asking first stands for the session
	} {
		if !slices.Contains(got, want) {
			t.Errorf("constraints %q lack %q", got, want)
		}
	}
	for _, echo := range []string{
		"Look at STATUS.md and make sure the parser handles empty input.",
		"Write the release notes and ensure every entry links its pull request.",
	} {
		if slices.Contains(got, echo) {
			t.Errorf("constraints %q repeat the request sentence %q", got, echo)
		}
	}
}

func TestConstraintThatPointsBackKeepsItsReferent(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("Refactor the loader.")
	c.Say("Done.")
	c.User("Keep the raw blob out of the sync payload. That will never be in cloud. Then update the doc.")
	c.Say("Updating.")
	c.User("It must stay fast. Ship it.")
	c.Say("Shipped.")
	snap := build(t, c, handoff.SessionInfo{})
	var got []string
	for _, k := range snap.Constraints {
		got = append(got, k.Text)
	}
	if want := "Keep the raw blob out of the sync payload. That will never be in cloud."; !slices.Contains(got, want) {
		t.Errorf("constraints %q lack %q", got, want)
	}
	for _, k := range got {
		if k == "That will never be in cloud." || k == "Keep the raw blob out of the sync payload." || strings.HasPrefix(k, "It must stay fast") {
			t.Errorf("constraint %q names nothing out of context or is shown twice (all: %q)", k, got)
		}
	}
}

func TestStopIsARuleOnlyAsAnImperative(t *testing.T) {
	t.Parallel()
	tests := []struct {
		sent string
		want bool
	}{
		{"Stop adding comments to every function.", true},
		{"Please stop running the full suite on each edit.", true},
		{"OK, stop changing the public API.", true},
		{"Add client-side rate limiting so our nightly jobs stop getting HTTP 429s.", false},
	}
	for _, tt := range tests {
		if got := conversation.IsConstraint(tt.sent); got != tt.want {
			t.Errorf("isConstraint(%q) = %v, want %v", tt.sent, got, tt.want)
		}
	}
}

func TestIssueOnly(t *testing.T) {
	t.Parallel()
	tmpl := "We're currently solving the following issue within our repository. Here's the issue text:\nISSUE:\nparse_duration('1h30m') returns 90\nIt should return 5400.\n\nINSTRUCTIONS:\nNow, you're going to solve this issue on your own. YOU CAN ONLY ENTER ONE COMMAND AT A TIME.\n"
	for in, want := range map[string]string{
		tmpl: "parse_duration('1h30m') returns 90\nIt should return 5400.",
		"Fix the issue in ISSUE.md, then follow INSTRUCTIONS: below.": "Fix the issue in ISSUE.md, then follow INSTRUCTIONS: below.",
	} {
		if got := conversation.IssueOnly(in); got != want {
			t.Errorf("issueOnly(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsCommandOnly(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"/clear": true, "/model opus": true, "Execute /hi": true, "run /deploy please": true,
		"/compact keep every detail of the plan and its todos": true, "/compaction-report fix the totals in it": false, "/ask why does the build fail": false,
		"look at /usr/bin/env": false, "Execute /hi and then fix the failing test in parser.go": false,
		"Fix the parser": false, "": false,
	} {
		if got := conversation.IsCommandOnly(text); got != want {
			t.Errorf("isCommandOnly(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestRequestsMarkCommands: a message that only runs a command stays in
// the record, marked, so the compiler can leave it out.
func TestRequestsMarkCommands(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("Add the export flag.")
	c.Say("Added.")
	c.User("Execute /hi")
	c.Say("Hello!")
	snap := build(t, c, handoff.SessionInfo{})
	marked := map[string]bool{}
	for _, r := range snap.Requests {
		marked[r.Text] = r.RunsCommand
	}
	if run, ok := marked["Execute /hi"]; !ok || !run {
		t.Errorf("'Execute /hi' kept %v, marked %v: want kept and marked", ok, run)
	}
	if marked["Add the export flag."] {
		t.Errorf("a request in words is marked as a command")
	}
}

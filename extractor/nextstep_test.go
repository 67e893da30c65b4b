package extractor

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/nextstep"
)

// TestNextStepSkipsMootErrors: an open error that later evidence made
// moot is not the next step; a commit left without a result is checked
// for having landed.
func TestNextStepSkipsMootErrors(t *testing.T) {
	open := handoff.ErrorRecord{ID: "e1", Command: "git rm -r fixtures/old", Message: "fatal: pathspec did not match", Resolution: handoff.ResolutionUnresolved, Source: handoff.MessageRef{Index: 10}}
	later := handoff.MessageRef{Index: 20}
	tests := []struct {
		name string
		snap handoff.Snapshot
		want string // a substring of the next step
		not  string
	}{
		{"open error, nothing after", handoff.Snapshot{Errors: []handoff.ErrorRecord{open}}, "Fix the open error from `git rm", ""},
		{"passing tests after", handoff.Snapshot{Errors: []handoff.ErrorRecord{open}, TestState: &handoff.TestState{Status: handoff.TestsPassing, Source: later}}, "", "Fix the open error"},
		{"commit after", handoff.Snapshot{Errors: []handoff.ErrorRecord{open}, Commits: []handoff.Commit{{Hash: "a065dc9", Message: "refactor", Source: later}}}, "", "Fix the open error"},
		{"success report after", handoff.Snapshot{Errors: []handoff.ErrorRecord{open}, EndState: &handoff.EndState{LastAssistant: "All 10 tests pass and the fixtures are consolidated.", LastSource: later}}, "", "Fix the open error"},
		{"a failure report after is not a success", handoff.Snapshot{Errors: []handoff.ErrorRecord{open}, EndState: &handoff.EndState{LastAssistant: "The move still fails; I need your input.", LastSource: later}}, "Fix the open error", ""},
		{"sandbox refusal", handoff.Snapshot{Errors: []handoff.ErrorRecord{{Command: "git fetch --all", Message: `exec_command failed: CreateProcess { message: "Codex(Sandbox(Denied {`, Resolution: handoff.ResolutionUnresolved, Source: later}}}, "", "Fix the open error"},
		{"commit in flight", handoff.Snapshot{EndState: &handoff.EndState{InFlight: []string{"bash .specify/scripts/auto-commit.sh after_implement"}}}, "git log -1", ""},
		{"push in flight", handoff.Snapshot{EndState: &handoff.EndState{InFlight: []string{"git -C repo push origin main"}}}, "landed", ""},
		{"other call in flight", handoff.Snapshot{EndState: &handoff.EndState{InFlight: []string{"npm run build"}}}, "Check the outcome", "landed"},
	}
	for _, tt := range tests {
		got := nextstep.For(&tt.snap)
		if tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("%s: NextStep = %q, want it to contain %q", tt.name, got, tt.want)
		}
		if tt.not != "" && strings.Contains(got, tt.not) {
			t.Errorf("%s: NextStep = %q, must not contain %q", tt.name, got, tt.not)
		}
	}
}

// TestNextStepFromReportsAndStaleTests: a failing run followed by edits is
// re-run, not "fixed"; a next step a report named after a label is taken
// before the generic check-in, and a line that only mentions one is not.
func TestNextStepFromReportsAndStaleTests(t *testing.T) {
	t.Parallel()
	failing := &handoff.TestState{Command: "make test", Status: handoff.TestsFailing}
	stale := &handoff.TestState{Command: "make test", Status: handoff.TestsFailing, EditsAfter: 4}
	named := []handoff.KeyLine{{Text: "Perfect! I've updated STATUS.md with the next priority task."}, {Text: "🎯 Next Priority Task: implement the GPU convolution"}}
	tests := []struct {
		name      string
		snap      handoff.Snapshot
		want, not string
	}{
		{"fresh failure", handoff.Snapshot{TestState: failing}, "Fix the failing tests", "Re-run"},
		{"failure before edits", handoff.Snapshot{TestState: stale}, "Re-run the tests (run: `make test`): they last failed before 4 later edits", "Fix the failing tests"},
		{"named next step", handoff.Snapshot{EndState: &handoff.EndState{LastAssistant: "Done!", KeyLines: named}}, "implement the GPU convolution", "updated STATUS.md"},
		{"only a mention", handoff.Snapshot{EndState: &handoff.EndState{LastAssistant: "Done!", KeyLines: named[:1]}}, "check with the person", "next priority"},
	}
	for _, tt := range tests {
		got := nextstep.For(&tt.snap)
		if !strings.Contains(got, tt.want) || strings.Contains(got, tt.not) {
			t.Errorf("%s: NextStep = %q, want %q and not %q", tt.name, got, tt.want, tt.not)
		}
	}
}

// TestNextStepHedgedFix: a session whose last message only expects its fix
// to work ("should work now") leaves the fix to verify; a check that
// passed after it, a question, or advice that something "should be fixed"
// is not such a claim.
func TestNextStepHedgedFix(t *testing.T) {
	t.Parallel()
	last := handoff.MessageRef{Index: 30}
	end := func(text string) *handoff.EndState { return &handoff.EndState{LastAssistant: text, LastSource: last} }
	tests := []struct {
		name string
		snap handoff.Snapshot
		want bool
	}{
		{"should work now", handoff.Snapshot{EndState: end("Updated the workflow to v6. Push and re-run should work now.")}, true},
		{"should now pass", handoff.Snapshot{EndState: end("I fixed the import.\nThe build should now pass.")}, true},
		{"passed after", handoff.Snapshot{EndState: end("The build should now pass."), Checks: []handoff.CheckState{{Command: "make", Status: handoff.TestsPassing, Source: handoff.MessageRef{Index: 30}}}}, false},
		{"tests passed after", handoff.Snapshot{EndState: end("It should work now."), TestState: &handoff.TestState{Status: handoff.TestsPassing, Source: handoff.MessageRef{Index: 31}}}, false},
		{"a check before it", handoff.Snapshot{EndState: end("It should work now."), Checks: []handoff.CheckState{{Command: "make", Status: handoff.TestsPassing, Source: handoff.MessageRef{Index: 12}}}}, true},
		{"a question", handoff.Snapshot{EndState: end("Should it work now?")}, false},
		{"advice", handoff.Snapshot{EndState: end("The flaky test should be fixed in a follow-up.")}, false},
		{"negated", handoff.Snapshot{EndState: end("This shouldn't work now that the flag is gone.")}, false},
	}
	for _, tt := range tests {
		got := nextstep.For(&tt.snap)
		if has := strings.Contains(got, "not verified yet"); has != tt.want {
			t.Errorf("%s: NextStep = %q, unverified fix named: %v, want %v", tt.name, got, has, tt.want)
		}
	}
}

package extractor

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

const failingPytest = "FAILED tests/test_cli.py::test_cloud_filter - AssertionError\n===== 1 failed, 12 passed in 0.47s ====="

// TestStaleFailingRun: a failing run is the next step until the session
// commits past it and then ends or takes a later request: then it is a
// known failing state said beside the next step.
func TestStaleFailingRun(t *testing.T) {
	edit := func(c *sessiontest.Convo) {
		id := c.Call("", "Edit", map[string]string{"file_path": "/home/dev/app/cli.py", "old_string": "a", "new_string": "b"})
		c.Result(id, "The file /home/dev/app/cli.py has been updated.", false, -1)
	}
	tests := []struct {
		name      string
		build     func(c *sessiontest.Convo)
		sig       string
		wantStart string
		wantKnown bool
	}{
		{"failing run is the end", func(c *sessiontest.Convo) {
			c.User("Run the specs and fix what fails in the cloud filter")
			c.Bash("", "pytest -q", failingPytest, 1)
		}, "", "Fix the failing test tests/test_cli.py::test_cloud_filter", false},
		{"later request, no edits after", func(c *sessiontest.Convo) {
			c.User("Run the specs and show me where we stand")
			c.Bash("", "pytest -q", failingPytest, 1)
			c.Say("One spec fails: the cloud filter.")
			c.User("Leave the code alone for now and write up the UI analysis in the docs folder")
			c.Say("The UI analysis is written up in the docs folder, ready for review.")
		}, "", "Fix the failing test tests/test_cli.py::test_cloud_filter", false},
		{"later request, commit after", func(c *sessiontest.Convo) {
			c.User("Run the specs and show me where we stand")
			c.Bash("", "pytest -q", failingPytest, 1)
			c.Say("One spec fails: the cloud filter.")
			c.User("Leave the code alone for now; write up the UI analysis in the docs folder and commit it")
			c.Bash("", "git commit -am 'docs: UI analysis'", "[main 1a2b3c4] docs: UI analysis", 0)
			c.Say("The UI analysis is written up and committed as 1a2b3c4.")
		}, "", "The last turn ended with the assistant reporting", true},
		{"later request, edits after: re-run", func(c *sessiontest.Convo) {
			c.User("Run the specs and show me where we stand")
			c.Bash("", "pytest -q", failingPytest, 1)
			c.Say("One spec fails: the cloud filter.")
			c.User("Please fix the cloud filter in the list command now")
			edit(c)
		}, "", "Re-run the tests (run: `pytest -q`)", false},
		{"commit after, then the person exited", func(c *sessiontest.Convo) {
			c.User("Fix the cloud filter and commit the work")
			c.Bash("", "pytest -q", failingPytest, 1)
			edit(c)
			c.Bash("", "git commit -am 'docs: screenshots'", "[main 99b18cc] docs: screenshots", 0)
			c.Say("Committed as 99b18cc. I am ready for you to reset the session.")
			c.User("/quit")
		}, "", "The last turn ended with the assistant reporting", true},
		{"commit after, session still open", func(c *sessiontest.Convo) {
			c.User("Fix the cloud filter and commit the work")
			c.Bash("", "pytest -q", failingPytest, 1)
			edit(c)
			c.Bash("", "git commit -am 'wip'", "[main 99b18cc] wip", 0)
		}, "", "Re-run the tests (run: `pytest -q`)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t)
			tt.build(c)
			snap := build(t, c, handoff.SessionInfo{EndSignal: tt.sig})
			if !strings.HasPrefix(snap.NextStep, tt.wantStart) {
				t.Errorf("next step = %q\nwant prefix %q", snap.NextStep, tt.wantStart)
			}
			if got := strings.Contains(snap.NextStep, "Known failing state"); got != tt.wantKnown {
				t.Errorf("known failing state said = %v, want %v: %q", got, tt.wantKnown, snap.NextStep)
			}
		})
	}
}

// TestStaleFailingRunReal: bookminder-day-013 ran its specs early (one
// failure), then did documentation work on the person's later requests,
// committed and quit: the failure is known, not the next step.
func TestStaleFailingRunReal(t *testing.T) {
	snap := realSnapshot(t, "claude-code-console/bookminder-day-013-gemini-cli.txt")
	if strings.HasPrefix(snap.NextStep, "Fix the failing") || !strings.Contains(snap.NextStep, "Known failing state") {
		t.Errorf("next step = %q", snap.NextStep)
	}
}

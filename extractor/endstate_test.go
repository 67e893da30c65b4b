package extractor

import (
	"reflect"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

func TestNextStepAfterAFinalAnswer(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("Review the parser for memory safety and report findings.")
	c.Say("Review complete: three findings, the worst an unchecked offset in header.rs.")
	snap := build(t, c, handoff.SessionInfo{EndSignal: "task complete"})
	if !strings.HasPrefix(snap.NextStep, "Nothing is pending: the agent delivered its final answer (“Review complete") {
		t.Errorf("next step = %q", snap.NextStep)
	}
}

func TestSubmittedPatch(t *testing.T) {
	diff := "\r\ndiff --git a/src/f.py b/src/f.py\r\nindex ad3..168 100644\r\n--- a/src/f.py\r\n+++ b/src/f.py\r\n@@ -1,3 +1,4 @@\r\n ctx\r\n-        return int(x / y)\r\n+        # round\r\n+        return int(round(x / y))\r\n \r\n"
	main := []handoff.Message{
		{Role: handoff.RoleAssistant, ToolCalls: []handoff.ToolCall{{ID: "1", Name: "submit"}}},
		{Role: handoff.RoleTool, ToolResults: []handoff.ToolResult{{CallID: "1", Content: diff}}},
	}
	want := []string{"file src/f.py", "-        return int(x / y)", "+        # round", "+        return int(round(x / y))"}
	if got := conversation.SubmittedPatch(main); !reflect.DeepEqual(got, want) {
		t.Errorf("submittedPatch:\n got %q\nwant %q", got, want)
	}
	if got := conversation.SubmittedPatch(main[:1]); got != nil {
		t.Errorf("no diff result: %q", got)
	}
}

func TestCommandsAfterTheLastTurn(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("Commit the work")
	c.Say("Committed as f0c3276.")
	c.Meta("<command-name>/context</command-name>\n<command-args></command-args>")
	c.Meta("<local-command-stderr>Error: 400 invalid_request_error: Expected `thinking`, found `tool_use`</local-command-stderr>")
	c.Meta("<command-name>/context</command-name>")
	c.Meta("<local-command-stdout>\x1b[1mContext Usage\x1b[22m\n\x1b[38;2;1;1;1m⛁ ⛁ ⛁\x1b[39m\n model-x · 201k/200k tokens (100%)\n</local-command-stdout>")
	snap := build(t, c, handoff.SessionInfo{})
	want := []string{
		"/context → error: Error: 400 invalid_request_error: Expected `thinking`, found `tool_use`",
		"/context → Context Usage · model-x · 201k/200k tokens (100%)",
	}
	if snap.EndState == nil || !reflect.DeepEqual(snap.EndState.Commands, want) {
		t.Errorf("commands after the last turn = %q\nwant %q", snap.EndState.Commands, want)
	}
}

func TestStatedNextActedOnIsNotTheNextStep(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("Credit Pro as first co-author, then commit")
	c.Say("I will now execute the commit with this message.")
	c.Bash("", "git commit -m 'docs: images'", "[main 1a2b3c4] docs: images", 0)
	c.Say("The commit was successful.")
	snap := build(t, c, handoff.SessionInfo{})
	if snap.EndState != nil && snap.EndState.StatedNext != "" {
		t.Errorf("stated next = %q: the agent already did it", snap.EndState.StatedNext)
	}
	if strings.Contains(snap.NextStep, "execute the commit") {
		t.Errorf("next step = %q", snap.NextStep)
	}
}

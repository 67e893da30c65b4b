package compiler

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestCommandOnlyNotAnEarlierRequest checks that a message the extractor
// marked as only running a harness command is left out of the earlier
// requests, while a command with a request in its arguments stays.
func TestCommandOnlyNotAnEarlierRequest(t *testing.T) {
	t.Parallel()
	snap := &handoff.Snapshot{
		LatestRequest: "Now document the flag in the README",
		Requests: []handoff.Request{
			{Text: "Execute /hi", Source: handoff.MessageRef{Index: 1}, RunsCommand: true},
			{Text: "/compact keep the export plan and its open todos", Source: handoff.MessageRef{Index: 3}},
			{Text: "/clear", Source: handoff.MessageRef{Index: 5}, RunsCommand: true},
			{Text: "Now document the flag in the README", Source: handoff.MessageRef{Index: 7}},
		},
	}
	res, err := Compile(snap, Options{Budget: 2000, Counter: testCounter(t)})
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"“Execute /hi”", "“/clear”"} {
		if strings.Contains(res.Prompt, gone) {
			t.Errorf("%s is quoted as an earlier request:\n%s", gone, res.Prompt)
		}
	}
	if !strings.Contains(res.Prompt, "/compact keep the export plan") {
		t.Errorf("a command with a request in its arguments was left out:\n%s", res.Prompt)
	}
}

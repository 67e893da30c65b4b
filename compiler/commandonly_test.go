package compiler

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestCommandOnly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want bool
	}{
		{"/clear", true},
		{"/model opus", true},
		{"Execute /hi", true},
		{"run /deploy please", true},
		{"/compact keep every detail of the plan and its todos", false},
		{"/ask why does the build fail", false},
		{"look at /usr/bin/env", false},
		{"Execute /hi and then fix the failing test in parser.go", false},
		{"Fix the parser", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := commandOnly(tt.text); got != tt.want {
			t.Errorf("commandOnly(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestCommandOnlyNotAnEarlierRequest checks that a message that only runs
// a slash command is left out of the earlier requests, while a command
// with a request in its arguments stays.
func TestCommandOnlyNotAnEarlierRequest(t *testing.T) {
	t.Parallel()
	snap := &handoff.Snapshot{
		LatestRequest: "Now document the flag in the README",
		Requests: []handoff.Request{
			{Text: "Execute /hi", Source: handoff.MessageRef{Index: 1}},
			{Text: "/compact keep the export plan and its open todos", Source: handoff.MessageRef{Index: 3}},
			{Text: "/clear", Source: handoff.MessageRef{Index: 5}},
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

package facts

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

// TestSubagentFailures checks that a failing command a Task sub-agent left
// behind is filed as an open error of the session, named by the
// sub-agent's description, unless it was fixed in the sub-agent or the
// main thread later ran it successfully.
func TestSubagentFailures(t *testing.T) {
	const prompt = "Build the app and report back."
	build := "> Build error occurred\n[TypeError: generate is not a function]"
	cases := []struct {
		name string
		// sub runs inside the sub-agent, after its prompt.
		sub func(c *sessiontest.Convo)
		// after runs in the main thread after the sub-agent returned.
		after func(c *sessiontest.Convo)
		// labelled: the main thread started the sub-agent with a Task call.
		labelled bool
		want     string // substring of the one open error, "" for none
	}{
		{"open at the end", func(c *sessiontest.Convo) {
			c.Bash("Building.", "npm run build", build, 1)
			c.Say("There seems to be a build issue. Let me try a different approach.")
			c.Bash("Starting the dev server.", "npx next dev --port 3000", "ready on http://localhost:3000", 0)
		}, nil, true, "in sub-agent 'Build the app', which went on without fixing it"},
		{"plainly open", func(c *sessiontest.Convo) {
			c.Bash("Building.", "npm run build", build, 1)
		}, nil, true, "generate is not a function] (in sub-agent 'Build the app')"},
		{"fixed in the sub-agent", func(c *sessiontest.Convo) {
			c.Bash("Building.", "npm run build", build, 1)
			c.Bash("Again.", "npm run build", "Compiled successfully", 0)
		}, nil, true, ""},
		{"fixed by the main thread", func(c *sessiontest.Convo) {
			c.Bash("Building.", "npm run build", build, 1)
		}, func(c *sessiontest.Convo) {
			c.Bash("Checking the build myself.", "npm run build", "Compiled successfully", 0)
		}, true, ""},
		{"a failed tool call is not filed", func(c *sessiontest.Convo) {
			id := c.Call("Reading.", "Read", map[string]string{"file_path": "/p/src/components"})
			c.Result(id, "EISDIR: illegal operation on a directory, read", true, -1)
		}, nil, true, ""},
		{"a replayed history is not a sub-agent", func(c *sessiontest.Convo) {
			c.Bash("Building.", "npm run build", build, 1)
		}, nil, false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t).User("Make a todo app.")
			if tc.labelled {
				c.Call("Delegating.", "Task", map[string]string{"description": "Build the app", "prompt": prompt, "subagent_type": "general-purpose"})
			}
			start := len(c.Msgs)
			c.User(prompt)
			tc.sub(c)
			c.Say("The app is fully functional.")
			for i := start; i < len(c.Msgs); i++ {
				c.Msgs[i].Sidechain = true
			}
			c.Say("The sub-agent built the app.")
			if tc.after != nil {
				tc.after(c)
			}
			f, ctx := computeFacts(c.Msgs)
			if len(ctx) != len(f.Errors) {
				t.Fatalf("%d contexts for %d errors", len(ctx), len(f.Errors))
			}
			var open []handoff.ErrorRecord
			for _, e := range f.Errors {
				if e.Resolution == handoff.ResolutionUnresolved {
					open = append(open, e)
				}
			}
			if tc.want == "" {
				if len(open) != 0 {
					t.Fatalf("open errors %+v, want none", open)
				}
				return
			}
			if len(open) != 1 || !strings.Contains(open[0].Message, tc.want) || open[0].Command != "npm run build" {
				t.Fatalf("open errors %+v, want one `npm run build` with %q", open, tc.want)
			}
		})
	}
}

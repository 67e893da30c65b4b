package conversation

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

const checkpointProc = "# Checkpoint\n\n## Tasks\n\n1. **Write the status** - update `.claude/SESSION_STATUS.md`:\n   - timestamp\n   - open questions\n\n" +
	"2. **Commit a checkpoint**:\n   ```bash\n   git add -A\n   git commit -m \"Checkpoint: [SHORT]\"\n   ```\n\n3. **Confirm** with the commit hash.\n\n## Format\n\n1. not a step\n"

func TestProcedureSteps(t *testing.T) {
	steps := procedureSteps(checkpointProc)
	if len(steps) != 3 {
		t.Fatalf("%d steps, want 3 (the list under the next heading is not part of it): %+v", len(steps), steps)
	}
	want := [][]string{{"session_status.md"}, {"git add", "git commit"}, nil}
	for i, s := range steps {
		if strings.Join(s.tokens, "|") != strings.Join(want[i], "|") {
			t.Errorf("step %d tokens %q, want %q", s.n, s.tokens, want[i])
		}
	}
	if procedureSteps("1. only one step\nthen prose") != nil || procedureSteps("2. starts at two\n3. three") != nil {
		t.Error("a single step or a list not starting at 1 is not a procedure")
	}
}

func TestProcedureNext(t *testing.T) {
	cases := []struct {
		name     string
		calls    func(c *sessiontest.Convo)
		inFlight []string
		want     string // substring; "" for no procedure step
	}{
		{"stopped inside step 2", func(c *sessiontest.Convo) {
			c.Call("Writing the status.", "Write", map[string]string{"file_path": "/h/.claude/SESSION_STATUS.md", "content": "x"})
			c.Call("", "Bash", map[string]string{"command": "git add -A && git status --short"})
		}, []string{"git add -A && git status --short"}, "Step 2 of the latest request's numbered procedure (the steps before it are done): “Commit a checkpoint: / git add -A / git commit -m \"Checkpoint: [SHORT]\"”. Check first the call left without a result: `git add -A && git status --short`."},
		{"step 1 not shown done", func(c *sessiontest.Convo) {
			c.Call("", "Bash", map[string]string{"command": "git status"})
		}, nil, ""},
		{"all judged steps done, the last one traceless", func(c *sessiontest.Convo) {
			c.Call("", "Write", map[string]string{"file_path": "SESSION_STATUS.md", "content": "x"})
			c.Call("", "Bash", map[string]string{"command": "git add -A && git commit -m 'Checkpoint: x'"})
		}, nil, ""},
		{"not started", func(c *sessiontest.Convo) {}, nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t).User("Let us work on the loop.").Say("Done with phase 2.").Meta(checkpointProc)
			tc.calls(c)
			got := ProcedureNext(c.Msgs, tc.inFlight)
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Fatalf("procedureNext = %q, want %q", got, tc.want)
			}
			if tc.want != "" && !strings.Contains(got, "git commit -m") {
				t.Errorf("step text %q lacks the step's commands", got)
			}
		})
	}
}

func TestProcedureLeads(t *testing.T) {
	if !ProcedureLeads(&handoff.Snapshot{}) || ProcedureLeads(&handoff.Snapshot{EndState: &handoff.EndState{Question: "Which one?"}}) {
		t.Error("a question put to the person comes before a procedure step")
	}
}

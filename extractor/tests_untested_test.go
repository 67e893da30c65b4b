package extractor

import (
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)
import "testing"

// TestEditsAfterTestRun: the code edits made after the last test run are
// counted, so the prompt can say the latest changes are unverified;
// prose (Markdown, text) edits are not, since no test covers them.
func TestEditsAfterTestRun(t *testing.T) {
	t.Parallel()
	edit := func(c *sessiontest.Convo, path string) {
		c.Call("", "Edit", map[string]string{"file_path": path, "old_string": "a", "new_string": "b"})
	}
	tests := []struct {
		name  string
		build func(c *sessiontest.Convo)
		want  int
	}{
		{"edit then test", func(c *sessiontest.Convo) {
			edit(c, "/r/a.go")
			c.Bash("", "go test ./...", "ok  \texample/a\t0.1s", 0)
		}, 0},
		{"test then two code edits", func(c *sessiontest.Convo) {
			c.Bash("", "go test ./...", "ok  \texample/a\t0.1s", 0)
			edit(c, "/r/a.go")
			edit(c, "/r/b.go")
		}, 2},
		{"test then docs only", func(c *sessiontest.Convo) {
			c.Bash("", "pytest -q", "3 passed in 0.10s", 0)
			edit(c, "/r/README.md")
			edit(c, "/r/docs/notes.txt")
		}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t)
			c.User("fix the parser please")
			tc.build(c)
			f := facts.Compute(c.Msgs)
			if f.TestState == nil {
				t.Fatal("no test state")
			}
			if f.TestState.EditsAfter != tc.want {
				t.Errorf("EditsAfter = %d, want %d", f.TestState.EditsAfter, tc.want)
			}
		})
	}
}

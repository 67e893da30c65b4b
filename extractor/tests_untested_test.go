package extractor

import "testing"

// TestEditsAfterTestRun: the code edits made after the last test run are
// counted, so the prompt can say the latest changes are unverified;
// prose (Markdown, text) edits are not, since no test covers them.
func TestEditsAfterTestRun(t *testing.T) {
	t.Parallel()
	edit := func(c *convo, path string) {
		c.call("", "Edit", map[string]string{"file_path": path, "old_string": "a", "new_string": "b"})
	}
	tests := []struct {
		name  string
		build func(c *convo)
		want  int
	}{
		{"edit then test", func(c *convo) {
			edit(c, "/r/a.go")
			c.bash("", "go test ./...", "ok  \texample/a\t0.1s", 0)
		}, 0},
		{"test then two code edits", func(c *convo) {
			c.bash("", "go test ./...", "ok  \texample/a\t0.1s", 0)
			edit(c, "/r/a.go")
			edit(c, "/r/b.go")
		}, 2},
		{"test then docs only", func(c *convo) {
			c.bash("", "pytest -q", "3 passed in 0.10s", 0)
			edit(c, "/r/README.md")
			edit(c, "/r/docs/notes.txt")
		}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newConvo(t)
			c.user("fix the parser please")
			tc.build(c)
			f := ComputeFacts(c.msgs)
			if f.TestState == nil {
				t.Fatal("no test state")
			}
			if f.TestState.EditsAfter != tc.want {
				t.Errorf("EditsAfter = %d, want %d", f.TestState.EditsAfter, tc.want)
			}
		})
	}
}

package extractor

import (
	"slices"
	"testing"
)

// TestForkReplayIsNotThisSessionsWork: a forked rollout opens with its
// parent's history replayed as sidechain traffic; the parent's edits
// there are not the fork's work. A log that is all sidechain (a
// sub-agent's own file) keeps its edits, as does a sub-agent run the main
// thread started.
func TestForkReplayIsNotThisSessionsWork(t *testing.T) {
	t.Parallel()
	edit := func(c *convo, file string) {
		id := c.call("", "Write", map[string]string{"file_path": file, "content": "x"})
		c.result(id, "ok", false, -1)
	}
	sidechain := func(c *convo, from int) {
		for i := from; i < len(c.msgs); i++ {
			c.msgs[i].Sidechain = true
		}
	}
	tests := []struct {
		name  string
		build func(c *convo)
		want  []string
	}{
		{"fork: the replayed parent edits are left out", func(c *convo) {
			c.user("parent task")
			edit(c, "web/src/Dashboard.tsx")
			sidechain(c, 0)
			c.user("You own the API coverage. Do not edit web files.")
			edit(c, "api/src/routes/permissions.test.ts")
		}, []string{"api/src/routes/permissions.test.ts"}},
		{"a sub-agent's own log", func(c *convo) {
			c.user("write the component")
			edit(c, "web/src/Button.tsx")
			sidechain(c, 0)
		}, []string{"web/src/Button.tsx"}},
		{"a sub-agent run the main thread started", func(c *convo) {
			c.user("build it")
			from := len(c.msgs)
			c.user("write the component")
			edit(c, "web/src/Button.tsx")
			sidechain(c, from)
			c.say("The sub-agent wrote it.")
		}, []string{"web/src/Button.tsx"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newConvo(t)
			tt.build(c)
			var got []string
			for _, f := range ComputeFacts(c.msgs).FilesModified {
				got = append(got, f.Path)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("files = %q, want %q", got, tt.want)
			}
		})
	}
}

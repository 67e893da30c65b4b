package extractor

import (
	"slices"
	"testing"

	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

// TestForkReplayIsNotThisSessionsWork: a forked rollout opens with its
// parent's history replayed as sidechain traffic; the parent's edits
// there are not the fork's work. A log that is all sidechain (a
// sub-agent's own file) keeps its edits, as does a sub-agent run the main
// thread started.
func TestForkReplayIsNotThisSessionsWork(t *testing.T) {
	t.Parallel()
	edit := func(c *sessiontest.Convo, file string) {
		id := c.Call("", "Write", map[string]string{"file_path": file, "content": "x"})
		c.Result(id, "ok", false, -1)
	}
	sidechain := func(c *sessiontest.Convo, from int) {
		for i := from; i < len(c.Msgs); i++ {
			c.Msgs[i].Sidechain = true
		}
	}
	tests := []struct {
		name  string
		build func(c *sessiontest.Convo)
		want  []string
	}{
		{"fork: the replayed parent edits are left out", func(c *sessiontest.Convo) {
			c.User("parent task")
			edit(c, "web/src/Dashboard.tsx")
			sidechain(c, 0)
			c.User("You own the API coverage. Do not edit web files.")
			edit(c, "api/src/routes/permissions.test.ts")
		}, []string{"api/src/routes/permissions.test.ts"}},
		{"a sub-agent's own log", func(c *sessiontest.Convo) {
			c.User("write the component")
			edit(c, "web/src/Button.tsx")
			sidechain(c, 0)
		}, []string{"web/src/Button.tsx"}},
		{"a sub-agent run the main thread started", func(c *sessiontest.Convo) {
			c.User("build it")
			from := len(c.Msgs)
			c.User("write the component")
			edit(c, "web/src/Button.tsx")
			sidechain(c, from)
			c.Say("The sub-agent wrote it.")
		}, []string{"web/src/Button.tsx"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t)
			tt.build(c)
			var got []string
			for _, f := range facts.Compute(c.Msgs).FilesModified {
				got = append(got, f.Path)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("files = %q, want %q", got, tt.want)
			}
		})
	}
}

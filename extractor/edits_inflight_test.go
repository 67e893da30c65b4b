package extractor

import (
	"encoding/json"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

// TestInFlightEditNotDone: an edit call after the last call that got a
// result (the person interrupted it, the session ended) is not counted
// as a change made; an edit that got its result is, and in a format
// that gives no results every edit counts.
func TestInFlightEditNotDone(t *testing.T) {
	t.Parallel()
	edit := func(p string) map[string]string {
		return map[string]string{"file_path": p, "old_string": "a", "new_string": "b"}
	}
	t.Run("interrupted last edit", func(t *testing.T) {
		c := sessiontest.NewConvo(t).User("add the cache")
		c.Result(c.Call("", "Edit", edit("src/cache.py")), "ok", false, -1)
		c.Bash("", "pytest -q", "3 passed", 0)
		c.Call("Documenting it.", "Edit", edit("docs/cli.md"))
		c.User("[Request interrupted by user]")
		f := facts.Compute(c.Msgs)
		if len(f.FilesModified) != 1 || f.FilesModified[0].Path != "src/cache.py" {
			t.Errorf("files = %+v, want only src/cache.py", f.FilesModified)
		}
	})
	t.Run("an answered edit of the same file still counts", func(t *testing.T) {
		c := sessiontest.NewConvo(t).User("add the cache")
		c.Result(c.Call("", "Edit", edit("src/cache.py")), "ok", false, -1)
		c.Call("", "Edit", edit("src/cache.py"))
		f := facts.Compute(c.Msgs)
		if len(f.FilesModified) != 1 || f.FilesModified[0].Edits != 1 {
			t.Errorf("files = %+v, want src/cache.py with 1 edit", f.FilesModified)
		}
	})
	t.Run("no results in the format", func(t *testing.T) {
		c := sessiontest.NewConvo(t).User("add the cache")
		c.Call("", "Edit", edit("src/cache.py"))
		c.Call("", "Edit", edit("docs/cli.md"))
		if f := facts.Compute(c.Msgs); len(f.FilesModified) != 2 {
			t.Errorf("files = %+v, want both", f.FilesModified)
		}
	})
}

// TestCodeModeWrapper: a Codex code-mode script whose nested calls were
// lifted out is neither an edit nor an error of its own; its nested
// calls are.
func TestCodeModeWrapper(t *testing.T) {
	t.Parallel()
	script := "const r = await tools.shell_command({command: \"uv run pytest -q\"});\ntext(r);"
	patch := "const p = await tools.apply_patch(`*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End Patch`);"
	raw := func(s string) json.RawMessage { b, _ := json.Marshal(s); return b }
	cmd, _ := json.Marshal(map[string]string{"command": "uv run pytest -q"})
	one, zero := 1, 0
	msgs := []handoff.Message{
		{Index: 0, Role: handoff.RoleUser, Text: "fix the cache"},
		{Index: 1, Role: handoff.RoleAssistant, ToolCalls: []handoff.ToolCall{
			{ID: "w1", Name: "exec", Input: raw(script)},
			{ID: "w1#1", Name: "shell_command", Input: cmd},
		}},
		{Index: 2, Role: handoff.RoleTool, ToolResults: []handoff.ToolResult{
			{CallID: "w1", Name: "exec", IsError: true, Content: "Script failed\nWall time 6.4 seconds\nOutput:\n"},
			{CallID: "w1#1", Name: "shell_command", ExitCode: &one, Content: "Exit code: 1\nOutput:\nFAILED tests/t.py::test_x - AssertionError"},
		}},
		{Index: 3, Role: handoff.RoleAssistant, ToolCalls: []handoff.ToolCall{
			{ID: "w2", Name: "exec", Input: raw(patch)},
			{ID: "w2#1", Name: "apply_patch", Input: raw("*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End Patch")},
		}},
		{Index: 4, Role: handoff.RoleTool, ToolResults: []handoff.ToolResult{
			{CallID: "w2", Name: "exec", Content: "Script completed\nOutput:\n"},
			{CallID: "w2#1", Name: "apply_patch", ExitCode: &zero, Content: "Exit code: 0\nOutput:\nSuccess. Updated the following files:\nM a.py\n"},
		}},
	}
	f := facts.Compute(msgs)
	if len(f.Errors) != 1 || f.Errors[0].Command != "uv run pytest -q" {
		t.Errorf("errors = %+v, want only the nested pytest failure", f.Errors)
	}
	if len(f.FilesModified) != 1 || f.FilesModified[0].Edits != 1 || len(f.FilesModified[0].Operations) != 1 || f.FilesModified[0].Operations[0] != "apply_patch" {
		t.Errorf("files = %+v, want a.py, 1 apply_patch edit", f.FilesModified)
	}
}

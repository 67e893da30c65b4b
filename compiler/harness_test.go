package compiler

import "testing"

func TestHarnessState(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]bool{
		"/Users/sean/.claude/projects/-Users-sean-src/memory/MEMORY.md": true,
		"/repo/.claude/settings.local.json":                             true,
		"/home/u/.gemini/tmp/abc/chats/session.json":                    true,
		"/Users/pretor/.claude/skills/Art/SKILL.md":                     false, // a person's own skills are work
		".claude/commands/deploy.md":                                    false,
		"youtube-mcp-server/.codex/history.jsonl":                       false, // git shows it: a hazard to see
	} {
		if got := harnessState(p); got != want {
			t.Errorf("harnessState(%q) = %v, want %v", p, got, want)
		}
	}
}

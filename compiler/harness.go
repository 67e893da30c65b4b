package compiler

import "strings"

// harnessState reports a path the agent harness keeps for itself, not the
// project's work: Claude Code's per-project memory and transcripts
// (~/.claude/projects/…), its local settings, Gemini CLI's scratch
// directory. The successor's harness loads these on its own; listed among
// the files edited they crowd out the files the work changed. A project's
// own .claude/commands or skills are work and stay, and so does anything
// git shows: an untracked .codex/ in the tree is a hazard for the next
// `git add .`, worth seeing.
func harnessState(p string) bool {
	p = "/" + strings.TrimPrefix(strings.ReplaceAll(p, `\`, "/"), "/")
	return strings.Contains(p, "/.claude/projects/") || strings.HasSuffix(p, "/.claude/settings.local.json") ||
		strings.Contains(p, "/.gemini/tmp/")
}

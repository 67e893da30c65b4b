package transcript

import (
	"context"
	"path/filepath"
	"time"
)

// SessionRef is one session an agent recorded for a directory: the file
// or store holding it, and for a store the session's id.
type SessionRef struct {
	Path    string
	Session string
	Agent   string
	Format  Format
	Updated time.Time
}

// sessionFinder lists the sessions an agent's store under home holds for
// the directory dir.
type sessionFinder func(ctx context.Context, home, dir string) []SessionRef

// FindSessions lists the sessions of dir in the stores of every agent
// whose registry entry knows where to look (`handoff latest` adds them to
// the ones it finds in Claude Code's, Codex's and Gemini CLI's folders).
// A store that cannot be read is passed over.
func FindSessions(ctx context.Context, home, dir string) []SessionRef {
	dir = filepath.Clean(dir)
	var out []SessionRef
	for _, s := range registry() {
		if s.find == nil {
			continue
		}
		for _, r := range s.find(ctx, home, dir) {
			r.Format, r.Agent = s.info.Name, s.info.Agent
			out = append(out, r)
		}
	}
	return out
}

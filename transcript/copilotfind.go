package transcript

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// copilotLine recognises a Copilot CLI event: {type: "session.…",
// "user.message", "assistant.…", "tool.…", id, timestamp, data}.
func copilotLine(l *jsonLine) bool {
	if !l.has("data") || !l.has("timestamp") || !l.has("id") {
		return false
	}
	for _, p := range []string{"session.", "user.", "assistant.", "tool.", "abort", "model.", "skill.", "subagent."} {
		if strings.HasPrefix(l.typ, p) {
			return true
		}
	}
	return false
}

// findCopilot lists the Copilot CLI sessions whose session.start names
// dir as the working directory.
func findCopilot(_ context.Context, home, dir string) []SessionRef {
	files, _ := filepath.Glob(filepath.Join(home, ".copilot", "session-state", "*", "events.jsonl"))
	var out []SessionRef
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil || copilotCWD(f) != dir {
			continue
		}
		out = append(out, SessionRef{Path: f, Updated: fi.ModTime()})
	}
	return out
}

// copilotCWD reads the working directory from an events file's first
// line (session.start).
func copilotCWD(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, _ := bufio.NewReaderSize(f, 64<<10).ReadBytes('\n')
	var e struct {
		Data struct {
			Context struct {
				Cwd string `json:"cwd"`
			} `json:"context"`
		} `json:"data"`
	}
	if json.Unmarshal(line, &e) != nil || e.Data.Context.Cwd == "" {
		return ""
	}
	return filepath.Clean(e.Data.Context.Cwd)
}

package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/transcript"
)

// Finding the newest agent session of a directory, for `compile --latest`
// and `handoff latest`: each agent keeps its transcripts under the home
// directory, keyed by the project's directory in its own way.

// sessionFile is a candidate transcript and when it was last written.
type sessionFile struct {
	path  string
	agent string
	// session picks the session inside a store that holds many (an
	// OpenCode database); empty for a file per session.
	session string
	modTime time.Time
}

// maxCodexScan bounds how many of the newest Codex rollouts are opened to
// read their working directory: enough for weeks of work, cheap to read.
const maxCodexScan = 200

// nonAlnum is what Claude Code replaces with '-' to name a project's
// folder after its directory (/home/me/my.app → -home-me-my-app).
var nonAlnum = regexp.MustCompile(`[^a-zA-Z0-9]`)

// latestSession returns the most recently written session whose working
// directory is dir or a directory above it (the nearest wins over a
// farther one, then the newest): Claude Code, Codex CLI and Gemini CLI
// files here, and every store the transcript registry knows
// (transcript.FindSessions).
func latestSession(home, dir string) (*sessionFile, error) {
	if home == "" {
		return nil, handoff.Errorf(handoff.EINVALID, "--latest: no home directory (HOME is not set)")
	}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		var found []sessionFile
		found = append(found, newestIn(filepath.Join(home, ".claude", "projects", nonAlnum.ReplaceAllString(d, "-")), "*.jsonl", "claude-code")...)
		sum := sha256.Sum256([]byte(d))
		found = append(found, newestIn(filepath.Join(home, ".gemini", "tmp", hex.EncodeToString(sum[:]), "chats"), "*.json*", "gemini-cli")...)
		found = append(found, codexSessions(filepath.Join(home, ".codex", "sessions"), d)...)
		for _, r := range transcript.FindSessions(context.Background(), home, d) {
			found = append(found, sessionFile{path: r.Path, agent: string(r.Format), session: r.Session, modTime: r.Updated})
		}
		if len(found) > 0 {
			sort.Slice(found, func(i, j int) bool { return found[i].modTime.After(found[j].modTime) })
			return &found[0], nil
		}
		if d == filepath.Dir(d) || d == filepath.Clean(home) {
			break
		}
	}
	return nil, handoff.Errorf(handoff.ENOTFOUND, "--latest: no agent session recorded for %s or a directory above it (handoff formats lists where each agent keeps them)", dir)
}

// newestIn lists the files of dir matching pattern.
func newestIn(dir, pattern, agent string) []sessionFile {
	matches, _ := filepath.Glob(filepath.Join(dir, pattern))
	var out []sessionFile
	for _, m := range matches {
		if fi, err := os.Stat(m); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
			out = append(out, sessionFile{path: m, agent: agent, modTime: fi.ModTime()})
		}
	}
	return out
}

// codexSessions lists the Codex rollouts (sessions/YYYY/MM/DD/rollout-*.jsonl)
// whose session_meta names dir as the working directory, among the newest
// maxCodexScan.
func codexSessions(root, dir string) []sessionFile {
	var all []sessionFile
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasPrefix(d.Name(), "rollout-") || !strings.HasSuffix(p, ".jsonl") {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			all = append(all, sessionFile{path: p, agent: "codex", modTime: fi.ModTime()})
		}
		return nil
	})
	sort.Slice(all, func(i, j int) bool { return all[i].modTime.After(all[j].modTime) })
	var out []sessionFile
	for _, f := range all[:min(len(all), maxCodexScan)] {
		if codexCWD(f.path) == dir {
			out = append(out, f)
		}
	}
	return out
}

// codexCWD reads the working directory from a rollout's first line.
func codexCWD(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	line, _ := r.ReadBytes('\n')
	var meta struct {
		Type    string `json:"type"`
		Payload struct {
			CWD string `json:"cwd"`
		} `json:"payload"`
	}
	if json.Unmarshal(line, &meta) != nil || meta.Type != "session_meta" {
		return ""
	}
	return filepath.Clean(meta.Payload.CWD)
}

// Package gitstate reads a working tree's git state by running git itself.
//
// Git state is a fact, not an opinion, so it is read, never asked of an
// LLM or guessed from the transcript. A missing git binary, a directory
// that no longer exists, or a directory outside any repository is recorded
// in the result (Available=false with a Note), never returned as an error:
// a snapshot is still worth taking without it.
package gitstate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/handoff-cli/handoff"
)

// DefaultTimeout bounds every git invocation, so a hung filesystem or a
// huge repository cannot stall a checkpoint.
const DefaultTimeout = 5 * time.Second

// maxListed caps each file list kept in the snapshot; a resume prompt has
// no room for thousands of paths and the counts are enough to warn.
const maxListed = 200

// Read returns the git state of dir. It never fails: problems become
// Available=false with a Note.
func Read(ctx context.Context, dir string) *handoff.GitState {
	if dir == "" {
		return &handoff.GitState{Note: "no working directory recorded"}
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return &handoff.GitState{Note: fmt.Sprintf("working directory %s does not exist here", dir)}
	}
	if _, err := exec.LookPath("git"); err != nil {
		return &handoff.GitState{Note: "git is not installed"}
	}
	top, err := run(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return &handoff.GitState{Note: fmt.Sprintf("%s is not inside a git repository", dir)}
	}
	st := &handoff.GitState{Available: true}
	top = strings.TrimSpace(top)
	if b, err := run(ctx, top, "symbolic-ref", "--short", "-q", "HEAD"); err == nil {
		st.Branch = strings.TrimSpace(b)
	} else {
		st.Branch = "(detached)"
	}
	if c, err := run(ctx, top, "rev-parse", "--verify", "-q", "HEAD"); err == nil {
		st.Commit = strings.TrimSpace(c)
	} else {
		st.Note = "repository has no commits yet"
	}
	if porcelain, err := run(ctx, top, "status", "--porcelain=v1", "-z", "--untracked-files=normal"); err == nil {
		parseStatus(porcelain, st)
	} else {
		st.Note = joinNote(st.Note, "git status failed: "+firstLine(err.Error()))
	}
	if st.Commit != "" {
		if ds, err := run(ctx, top, "diff", "--shortstat", "HEAD"); err == nil {
			st.Diffstat = strings.TrimSpace(ds)
		}
	}
	return st
}

// parseStatus fills the file lists from `git status --porcelain=v1 -z`.
func parseStatus(out string, st *handoff.GitState) {
	entries := strings.Split(out, "\x00")
	for i := 0; i < len(entries); i++ {
		e := entries[i]
		if len(e) < 4 {
			continue
		}
		x, y, path := e[0], e[1], e[3:]
		if x == 'R' || x == 'C' {
			i++ // the next entry is the rename's source path
		}
		switch {
		case x == '?' && y == '?':
			st.Untracked = appendCapped(st.Untracked, path)
		default:
			if x != ' ' && x != '?' {
				st.Staged = appendCapped(st.Staged, path)
			}
			if y != ' ' && y != '?' {
				st.Modified = appendCapped(st.Modified, path)
			}
		}
		st.Dirty = true
	}
}

func appendCapped(list []string, s string) []string {
	if len(list) >= maxListed {
		return list
	}
	return append(list, s)
}

func run(ctx context.Context, dir string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, DefaultTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir, "--no-optional-locks"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) && stderr.Len() > 0 {
			return "", fmt.Errorf("git %s: %s", args[0], strings.TrimSpace(stderr.String()))
		}
		return "", fmt.Errorf("git %s: %w", args[0], err)
	}
	return stdout.String(), nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

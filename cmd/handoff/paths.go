package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/handoff-cli/handoff"
)

// Session files from PATH arguments: files, directories, ** globs.

// sessionFiles lists the session files extract reads: those under args,
// else under the Claude Code and Codex session folders of home.
// ENOTFOUND when there are none.
func sessionFiles(args []string, home string) ([]string, error) {
	if len(args) == 0 {
		if home == "" {
			return nil, handoff.Errorf(handoff.EINVALID, "no PATH given and no home directory ($HOME) to find sessions in")
		}
		args = []string{filepath.Join(home, ".claude", "projects", "**", "*.jsonl"), filepath.Join(home, ".codex", "sessions", "**", "*.jsonl")}
	}
	files, err := expandPaths(args)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, handoff.Errorf(handoff.ENOTFOUND, "no session files found in %s", strings.Join(args, ", "))
	}
	return files, nil
}

// skipDir reports whether a directory walk skips a directory: a
// repository's object store and installed packages hold no sessions.
// Every other file is a candidate; extract reads its content to tell a
// transcript (of any format, Markdown and console pastes included) from
// everything else.
func skipDir(name string) bool {
	return name == ".git" || name == "node_modules"
}

// expandPaths turns PATH arguments into session files: a file as is, a
// directory's regular files at any depth (but skipDir's), a glob's matches (**
// matching any number of directories). A path that matches nothing is
// ENOTFOUND unless it is a pattern; duplicates are dropped.
func expandPaths(args []string) ([]string, error) {
	var files []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			files = append(files, p)
		}
	}
	for _, arg := range args {
		if strings.ContainsAny(arg, "*?[") {
			matches, err := glob(arg)
			if err != nil {
				return nil, err
			}
			for _, m := range matches {
				add(m)
			}
			continue
		}
		fi, err := os.Stat(arg)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, handoff.Errorf(handoff.ENOTFOUND, "%s does not exist", arg)
			}
			return nil, fmt.Errorf("read %s: %w", arg, err)
		}
		if !fi.IsDir() {
			add(arg)
			continue
		}
		err = filepath.WalkDir(arg, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return nil // an unreadable subdirectory is not worth failing for
			}
			switch {
			case d.IsDir() && p != arg && skipDir(d.Name()):
				return filepath.SkipDir
			case d.Type().IsRegular():
				add(p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("walk %s: %w", arg, err)
		}
	}
	return files, nil
}

// glob expands a pattern in which ** stands for any number of
// directories; without ** it is filepath.Glob. Matches are regular files.
func glob(pattern string) ([]string, error) {
	if _, err := filepath.Match(pattern, ""); err != nil {
		return nil, handoff.Errorf(handoff.EINVALID, "bad pattern %q: %w", pattern, err)
	}
	before, after, deep := strings.Cut(filepath.ToSlash(pattern), "**")
	if !deep {
		matches, _ := filepath.Glob(pattern)
		return regularFiles(matches), nil
	}
	root := filepath.FromSlash(strings.TrimSuffix(before, "/"))
	if root == "" {
		root = "."
	}
	rest := strings.TrimPrefix(after, "/")
	if rest == "" {
		rest = "*"
	}
	var out []string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, rerr := filepath.Rel(root, p)
		if rerr != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		// rest matches the path's last len(rest's segments) segments.
		segs := strings.Split(rel, "/")
		n := strings.Count(rest, "/") + 1
		if len(segs) >= n {
			if ok, _ := filepath.Match(rest, strings.Join(segs[len(segs)-n:], "/")); ok {
				out = append(out, p)
			}
		}
		return nil
	})
	return out, nil
}

func regularFiles(paths []string) []string {
	var out []string
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	return out
}

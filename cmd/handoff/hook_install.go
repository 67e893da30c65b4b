package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/hooks"
)

// runInstall prints the hooks configuration, or with --write merges it
// into the settings file, keeping every other key and hook as it was.
func (o *hookOptions) runInstall(ctx context.Context) error {
	a := o.app
	path, err := o.hookCommand()
	if err != nil {
		return err
	}
	merge := hooks.MergeClaudeSettings
	if o.agent == "codex" {
		merge = hooks.MergeCodexHooks
	}
	if !o.write {
		block, err := merge(nil, path)
		if err != nil {
			return err
		}
		_, err = a.stdout.Write(block)
		return err
	}

	settings, err := o.settingsPath(ctx)
	if err != nil {
		return err
	}
	existing, err := os.ReadFile(settings)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return handoff.Errorf(handoff.EINVALID, "read %s: %v", settings, err)
	}
	merged, err := merge(existing, path)
	if err != nil {
		return fmt.Errorf("%s: %w", settings, err)
	}
	if existing != nil && bytes.Equal(merged, existing) {
		a.status("%s already runs handoff's hooks; nothing changed", settings)
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(settings), err)
	}
	if err := writeFileAtomic(settings, merged); err != nil {
		return err
	}
	a.status("installed handoff's hooks in %s", settings)
	return nil
}

// hookCommand is the program the installed hooks run: --handoff-path,
// else plain "handoff" when a handoff is on PATH (the settings file stays
// valid across upgrades and machines), else this binary's absolute path.
// A binary in Go's build cache (`go run`) is refused: it is deleted when
// the cache is cleaned, and the hooks would then fail on every event.
func (o *hookOptions) hookCommand() (string, error) {
	if o.handoffPath != "" {
		return o.handoffPath, nil
	}
	if onPath(o.app.getenv("PATH"), "handoff") {
		return "handoff", nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("locate the handoff binary (pass --handoff-path): %w", err)
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	if inBuildCache(exe, o.app.getenv("GOCACHE")) {
		return "", handoff.Errorf(handoff.EINVALID,
			"this handoff runs from Go's build cache (%s, as under 'go run'), which is cleaned away: install it with 'go install ./cmd/handoff' so handoff is on PATH, or pass --handoff-path", exe)
	}
	return exe, nil
}

// onPath reports whether an executable file named name is in one of the
// directories of the PATH list pathList.
func onPath(pathList, name string) bool {
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" {
			continue
		}
		fi, err := os.Stat(filepath.Join(dir, name))
		if err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return true
		}
	}
	return false
}

// inBuildCache reports whether exe lives where the go command puts
// binaries it builds to run: a go-build temporary directory, or the build
// cache.
func inBuildCache(exe, gocache string) bool {
	slash := filepath.ToSlash(exe)
	if strings.Contains(slash, "/go-build") {
		return true
	}
	return gocache != "" && strings.HasPrefix(exe, filepath.Clean(gocache)+string(filepath.Separator))
}

// settingsPath is --settings, else the agent's settings file at the top of
// the git repository holding the current directory (where Claude Code and
// Codex read project settings), else in the current directory.
func (o *hookOptions) settingsPath(ctx context.Context) (string, error) {
	if o.settings != "" {
		return o.settings, nil
	}
	wd, err := workingDir()
	if err != nil {
		return "", err
	}
	root := wd
	out, err := exec.CommandContext(ctx, "git", "-C", wd, "rev-parse", "--show-toplevel").Output()
	if top := strings.TrimSpace(string(out)); err == nil && top != "" {
		root = top
	}
	return filepath.Join(root, o.defaultSettings), nil
}

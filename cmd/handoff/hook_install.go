package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/hooks"
)

// runInstall prints the hooks configuration, or with --write merges it
// into the settings file, keeping every other key and hook as it was.
func (o *hookOptions) runInstall() error {
	a := o.app
	path := o.handoffPath
	if path == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("locate the handoff binary (pass --handoff-path): %w", err)
		}
		if resolved, err := filepath.EvalSymlinks(exe); err == nil {
			exe = resolved
		}
		path = exe
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

	existing, err := os.ReadFile(o.settings)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return handoff.Errorf(handoff.EINVALID, "read %s: %v", o.settings, err)
	}
	merged, err := merge(existing, path)
	if err != nil {
		return fmt.Errorf("%s: %w", o.settings, err)
	}
	if existing != nil && bytes.Equal(merged, existing) {
		a.status("%s already runs handoff's hooks; nothing changed", o.settings)
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(o.settings), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(o.settings), err)
	}
	if err := writeFileAtomic(o.settings, merged); err != nil {
		return err
	}
	a.status("installed handoff's hooks in %s", o.settings)
	return nil
}

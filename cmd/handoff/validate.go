package main

import (
	"errors"
	"io/fs"
	"syscall"

	"github.com/mattn/go-sqlite3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/handoff-cli/handoff"
)

// Checks shared by every command: numeric flags that mean nothing when
// zero or negative, and the classes of failure that come from the machine
// rather than from handoff (a full disk, an unreadable file), so each
// cause has one exit code whichever command meets it.

// countFlags are the numeric flags, by name, with the smallest value that
// means something. A flag whose default is 0 for "not set"
// (--context-window) is checked only when given.
var countFlags = map[string]struct {
	min       int
	onlyIfSet bool
	what      string
	zeroMeans string
}{
	"budget":         {min: 1, what: "a positive number of tokens"},
	"context-window": {min: 1, onlyIfSet: true, what: "a positive number of tokens", zeroMeans: "leave it out to use the model's window"},
	"limit":          {min: 0, what: "zero (no limit) or a positive count"},
	"concurrency":    {min: 1, what: "at least 1"},
}

// checkCountFlags rejects a numeric flag outside its range with EINVALID,
// before the command runs, so a typo like --context-window -5 is never
// silently ignored.
func checkCountFlags(flags *pflag.FlagSet) error {
	var err error
	flags.VisitAll(func(f *pflag.Flag) {
		rule, ok := countFlags[f.Name]
		if !ok || err != nil || (rule.onlyIfSet && !f.Changed) {
			return
		}
		v, gerr := flags.GetInt(f.Name)
		if gerr != nil || v >= rule.min {
			return
		}
		if rule.zeroMeans != "" {
			err = handoff.Errorf(handoff.EINVALID, "--%s must be %s, got %d (%s)", f.Name, rule.what, v, rule.zeroMeans)
			return
		}
		err = handoff.Errorf(handoff.EINVALID, "--%s must be %s, got %d", f.Name, rule.what, v)
	})
	return err
}

// underHook reports whether cmd is `handoff hook …`, whose failures must
// exit 1: Claude Code reads exit 2 as "block the agent".
func underHook(cmd *cobra.Command) bool {
	for c := cmd; c != nil; c = c.Parent() {
		if c.Name() == "hook" && c.Parent() != nil && !c.Parent().HasParent() {
			return true
		}
	}
	return false
}

// classifyMachine gives an unclassified failure the code of its cause
// when the cause is the machine: a full disk is EUNAVAILABLE (free space,
// run again) wherever it is met, opening the database or writing a file.
func classifyMachine(err error) error {
	if err == nil || handoff.ErrorCode(err) != handoff.EINTERNAL {
		return err
	}
	if diskFull(err) {
		return handoff.Errorf(handoff.EUNAVAILABLE, "the disk is full (free space and try again; nothing was stored): %w", err)
	}
	return err
}

// diskFull reports whether err comes from a full disk, as the OS or
// SQLite (a "disk I/O error" whose errno is ENOSPC) says it.
func diskFull(err error) bool {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return true
	}
	var se sqlite3.Error
	if errors.As(err, &se) {
		return se.Code == sqlite3.ErrFull || se.SystemErrno == syscall.ENOSPC || se.SystemErrno == syscall.EDQUOT
	}
	return false
}

// unreadableInput marks a transcript the process may not read as invalid
// input (exit 2), the code watch gives it too: the person must fix the
// file's permissions, or the symlink loop it names, or name another file.
func unreadableInput(err error) error {
	if err != nil && handoff.ErrorCode(err) == handoff.EINTERNAL && (errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.ELOOP)) {
		return handoff.Errorf(handoff.EINVALID, "%w", err)
	}
	return err
}

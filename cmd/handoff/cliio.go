package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/transcript"
)

// The CLI's own input and output: reading a transcript from a file or
// stdin, printing JSON, finding the directory to resolve from, writing a
// file atomically. Shared by the commands; no pipeline logic.

func usageSourceText(s handoff.UsageSource) string {
	if s == handoff.UsageProvider {
		return "provider-reported"
	}
	return "estimated"
}

// readTranscript parses the named file, or standard input when no file is
// given. A terminal on stdin means the user forgot to pipe something in.
func (a *app) readTranscript(ctx context.Context, args []string, opts transcript.Options) (*handoff.Transcript, error) {
	if len(args) == 1 && args[0] != "-" {
		opts.Source = args[0]
		t, err := transcript.ParseFile(ctx, args[0], opts)
		if err != nil {
			return nil, unreadableInput(fmt.Errorf("read %s: %w", args[0], err))
		}
		return t, nil
	}
	if f, ok := a.stdin.(*os.File); ok && isTerminal(f) {
		return nil, handoff.Errorf(handoff.EINVALID, "no transcript: pipe one in (cat session.jsonl | handoff) or name a file")
	}
	opts.Source = "-"
	t, err := transcript.Parse(ctx, a.stdin, opts)
	if err != nil {
		return nil, fmt.Errorf("read standard input: %w", err)
	}
	return t, nil
}

func parseFormatFlag(name string) (transcript.Format, error) {
	if name == "" {
		return "", nil
	}
	return transcript.ParseFormat(name)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write JSON: %w", err)
	}
	return nil
}

// workingDir is the process's current directory, the starting point of
// workflow resolution.
func workingDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find the current directory: %w", err)
	}
	return wd, nil
}

// dirOrWD returns dir made absolute, or the current directory.
func dirOrWD(dir string) (string, error) {
	if dir == "" {
		return workingDir()
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", handoff.Errorf(handoff.EINVALID, "--dir %s: %w", dir, err)
	}
	return abs, nil
}

// stageFile writes data to a new temporary file beside path and syncs
// it. publish renames it over path, so readers see the old file or the
// whole new one, never a part; discard removes it instead. An existing
// file keeps its permissions; a new one gets 0644.
func stageFile(path string, data []byte) (publish func() error, discard func(), err error) {
	perm := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, nil, handoff.Errorf(handoff.EINVALID, "write %s: %w", path, err)
	}
	tmp := f.Name()
	discard = func() { os.Remove(tmp) }
	_, werr := f.Write(data)
	cherr := f.Chmod(perm)
	serr := f.Sync()
	cerr := f.Close()
	if err := firstErr(werr, cherr, serr, cerr); err != nil {
		discard()
		return nil, nil, handoff.Errorf(handoff.EUNAVAILABLE, "write %s: %w", path, err)
	}
	publish = func() error {
		if err := os.Rename(tmp, path); err != nil {
			discard()
			return handoff.Errorf(handoff.EUNAVAILABLE, "write %s: %w", path, err)
		}
		if d, err := os.Open(filepath.Dir(path)); err == nil {
			d.Sync() // best effort: make the rename itself durable
			d.Close()
		}
		return nil
	}
	return publish, discard, nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// writeFileAtomic replaces path with data at once: stageFile, then
// publish.
func writeFileAtomic(path string, data []byte) error {
	publish, _, err := stageFile(path, data)
	if err != nil {
		return err
	}
	return publish()
}

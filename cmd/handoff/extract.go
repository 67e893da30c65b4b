package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/session"
)

// extractOptions are the flags of `handoff extract`.
type extractOptions struct {
	app         *app
	extract     extractorFlags
	concurrency int
	encoding    string
	json        bool
	jsonl       bool
	force       bool
}

func (a *app) newExtractCmd() *cobra.Command {
	o := &extractOptions{app: a}
	cmd := &cobra.Command{
		Use:   "extract [PATH...]",
		Short: "Extract decisions and errors from every session of a history and store them",
		Long: `extract reads every session transcript under PATH (files, directories,
globs; ** matches any depth) — by default the Claude Code and Codex session
folders, ~/.claude/projects/**/*.jsonl and ~/.codex/sessions/**/*.jsonl —
stores a snapshot of each (trigger "extract", dated at the session's last
message) and prints their decisions and errors.

A session already extracted, unchanged and with the same extractor, model
and prompt version is not extracted again, and the LLM's answers are
cached: after an interruption (Ctrl-C) the same command resumes, and a
rerun over an unchanged history makes no model calls. A file that is not a
supported transcript is reported and skipped. Git state is not read: the
working tree today says nothing about a past session.`,
		Example: `  handoff extract
  handoff extract ~/.claude/projects/my-project --extractor heuristic
  handoff extract 'logs/**/*.jsonl' --jsonl > records.jsonl`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd.Context(), args)
		},
	}
	f := cmd.Flags()
	o.extract.add(cmd)
	f.IntVarP(&o.concurrency, "concurrency", "j", 4, "sessions extracted at once (for a single session: its chunks at once)")
	f.StringVar(&o.encoding, "encoding", string(capacity.O200kBase), "tokenizer: o200k_base or cl100k_base")
	f.BoolVar(&o.json, "json", false, "print the records as a JSON array")
	f.BoolVar(&o.jsonl, "jsonl", false, "print one JSON record per line, each session's as soon as it is done")
	f.BoolVar(&o.force, "force", false, "extract sessions again even if already extracted")
	return cmd
}

// extractedRecord is one line of extract's output: a decision or an error
// and the session it came from.
type extractedRecord struct {
	Kind       string `json:"kind"` // decision or error
	Path       string `json:"session_path"`
	SnapshotID string `json:"snapshot_id"`
	WorkflowID string `json:"workflow_id"`
	Record     any    `json:"record"`
}

func (o *extractOptions) run(ctx context.Context, args []string) error {
	a := o.app
	a.syncStderr()
	if o.concurrency < 1 {
		return handoff.Errorf(handoff.EINVALID, "--concurrency must be at least 1, got %d", o.concurrency)
	}
	if o.json && o.jsonl {
		return handoff.Errorf(handoff.EINVALID, "--json and --jsonl exclude each other")
	}
	if len(args) == 0 {
		home := a.getenv("HOME")
		if home == "" {
			return handoff.Errorf(handoff.EINVALID, "no PATH given and no home directory ($HOME) to find sessions in")
		}
		args = []string{filepath.Join(home, ".claude", "projects", "**", "*.jsonl"), filepath.Join(home, ".codex", "sessions", "**", "*.jsonl")}
	}
	files, err := expandPaths(args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return handoff.Errorf(handoff.ENOTFOUND, "no session files found in %s", strings.Join(args, ", "))
	}
	counter, err := capacity.NewCounter(capacity.Encoding(o.encoding))
	if err != nil {
		return err
	}
	s, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	workers := o.concurrency
	chunks := 1
	if len(files) == 1 {
		chunks = o.concurrency
	}
	ex, err := a.newExtractor(o.extract, extractorSetup{cache: s, counter: counter, history: true, concurrency: chunks})
	if err != nil {
		return err
	}

	prog := a.newProgress(len(files))
	rep, err := session.ExtractAll(ctx, s, session.ExtractOptions{
		Files: files, Extractor: ex, Name: ex.name, Version: ex.version, Counter: counter,
		Concurrency: workers, Force: o.force, Logger: a.log(),
		Done: func(out session.Outcome) error {
			if out.Skipped {
				prog.note("skipped %s: %v", out.Path, out.Err)
			}
			prog.done(out)
			if o.jsonl && out.Snapshot != nil {
				return writeRecords(a.stdout, records(out))
			}
			return nil
		},
	})
	prog.finish()
	if err != nil {
		return err
	}
	var all []extractedRecord
	for _, out := range rep.Outcomes {
		if out.Snapshot != nil {
			all = append(all, records(out)...)
		}
	}
	extracted, resumed, skipped := rep.Extracted, rep.Resumed, rep.Skipped
	if !o.jsonl {
		if err := o.print(all); err != nil {
			return err
		}
	}
	a.status("%d session(s) extracted, %d already done, %d skipped of %d · %d decisions, %d errors · %s",
		extracted, resumed, skipped, len(files), countKind(all, "decision"), countKind(all, "error"), prog.totals())
	if err := ctx.Err(); err != nil {
		return handoff.Errorf(handoff.EUNAVAILABLE, "interrupted after %d of %d session(s): run the same command again to resume: %w",
			extracted+resumed+skipped, len(files), err)
	}
	if down, why := fellBack(ex); down {
		a.status("warning: the heuristic stood in for the %s extractor (%v); those sessions are extracted again on the next run", ex.name, why)
	}
	if extracted+resumed == 0 {
		return handoff.Errorf(handoff.EINVALID, "none of the %d file(s) is a supported transcript (see 'handoff formats')", len(files))
	}
	return nil
}

func fellBack(ex *builtExtractor) (bool, error) {
	if ex.fallback == nil {
		return false, nil
	}
	return ex.fallback.FellBack()
}

// records lists a session's decisions and errors as output records.
func records(out session.Outcome) []extractedRecord {
	var list []extractedRecord
	snap := out.Snapshot
	for _, d := range snap.Decisions {
		list = append(list, extractedRecord{Kind: "decision", Path: out.Path, SnapshotID: snap.ID, WorkflowID: snap.WorkflowID, Record: d})
	}
	for _, e := range snap.Errors {
		list = append(list, extractedRecord{Kind: "error", Path: out.Path, SnapshotID: snap.ID, WorkflowID: snap.WorkflowID, Record: e})
	}
	return list
}

func countKind(list []extractedRecord, kind string) int {
	n := 0
	for _, r := range list {
		if r.Kind == kind {
			n++
		}
	}
	return n
}

// writeRecords writes records one JSON object a line.
func writeRecords(w io.Writer, list []extractedRecord) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, r := range list {
		if err := enc.Encode(r); err != nil {
			return fmt.Errorf("write JSON: %w", err)
		}
	}
	return nil
}

// print writes the records as --json or a table.
func (o *extractOptions) print(all []extractedRecord) error {
	w := o.app.stdout
	if o.json {
		if all == nil {
			all = []extractedRecord{}
		}
		return writeJSON(w, all)
	}
	if len(all) == 0 {
		o.app.status("no decisions or errors found")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tKIND\tTYPE\tSTATE\tTEXT")
	for _, r := range all {
		session := shorten(strings.TrimSuffix(filepath.Base(r.Path), filepath.Ext(r.Path)), 24)
		switch v := r.Record.(type) {
		case handoff.Decision:
			state := "current"
			if v.SupersededBy != "" {
				state = "superseded"
			}
			fmt.Fprintf(tw, "%s\tdecision\t%s\t%s\t%s\n", session, v.Type, state, shorten(v.Description, 100))
		case handoff.ErrorRecord:
			fmt.Fprintf(tw, "%s\terror\t%s\t%s\t%s\n", session, v.Type, v.Resolution, shorten(v.Message, 100))
		}
	}
	return tw.Flush()
}

// expandPaths turns PATH arguments into session files: a file as is, a
// directory's *.jsonl and *.json files at any depth, a glob's matches (**
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
			if !d.IsDir() && (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".json")) {
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

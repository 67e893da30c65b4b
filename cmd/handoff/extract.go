package main

import (
	"context"

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
	format      string
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

Each file's format is detected from its content, as compile does (every
format of 'handoff formats'); a file that reads as plain prose, such as a
README, is skipped unless --format plain. A workflow extract creates is
filed as "imported" history: status lists it after the live work, and a
new session in its directory does not join it.

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
	f.StringVar(&o.format, "format", "", "read every file in this format (default: detect each, skipping plain prose; 'plain' reads prose too)")
	return cmd
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
	format, err := parseFormatFlag(o.format)
	if err != nil {
		return err
	}
	files, err := sessionFiles(args, a.getenv("HOME"))
	if err != nil {
		return err
	}
	counter, err := capacity.NewCounter(capacity.Encoding(o.encoding))
	if err != nil {
		return err
	}
	counter.Warm() // extraction counts chunks: build the tokenizer while the store opens
	s, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
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
		Files: files, Format: format, Extractor: ex, Name: ex.name, Version: ex.version, Counter: counter,
		Concurrency: o.concurrency, Force: o.force, Logger: a.log(),
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
	a.status("%d session(s) extracted, %d already done, %d skipped of %d · %d decisions, %d errors · %s · %s",
		extracted, resumed, skipped, len(files), countKind(all, "decision"), countKind(all, "error"), ex.describe(), prog.totals())
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

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/compiler"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/prompts"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/transcript"
)

// compileOptions are the flags of `handoff compile` (and of bare `handoff`).
type compileOptions struct {
	app *app

	format        string
	strict        bool
	budget        int
	encoding      string
	model         string
	contextWindow int
	templatePath  string
	json          bool
	noStore       bool
	noGit         bool
	workflow      string
	extract       extractorFlags
}

func (o *compileOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "", "transcript format (default: detect; see 'handoff formats')")
	f.BoolVar(&o.strict, "strict", false, "fail on a malformed record instead of skipping it with a warning")
	f.IntVar(&o.budget, "budget", 2000, "resume prompt budget in `tokens`; the prompt never exceeds it")
	f.StringVar(&o.encoding, "encoding", string(capacity.O200kBase), "tokenizer: o200k_base or cl100k_base")
	f.StringVar(&o.model, "model", "", "model whose context window to measure against (default: from the transcript)")
	f.IntVar(&o.contextWindow, "context-window", 0, "context window in `tokens`, overriding the model table")
	f.StringVar(&o.templatePath, "template", "", "resume prompt text/template `file` overriding the built-in one")
	f.BoolVar(&o.json, "json", false, "print the snapshot as JSON instead of the resume prompt")
	f.BoolVar(&o.noStore, "no-store", false, "do not save the snapshot in the database")
	f.BoolVar(&o.noGit, "no-git", false, "do not read git state from the session's working directory")
	f.StringVar(&o.workflow, "workflow", "", "workflow `id` to file the snapshot under (default: the session id, else the working directory)")
	o.extract.add(cmd)
}

func (a *app) newCompileCmd() *cobra.Command {
	o := &compileOptions{app: a}
	cmd := &cobra.Command{
		Use:   "compile [FILE]",
		Short: "Compile a transcript (FILE or stdin) into a snapshot and a resume prompt",
		Long: `compile reads a transcript from FILE or standard input, builds a session
snapshot (goal, plan, decisions, errors, files, tests, git, context usage),
stores it, and prints a resume prompt that never exceeds --budget tokens.
What had to be cut is reported on stderr.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd.Context(), args)
		},
	}
	o.addFlags(cmd)
	return cmd
}

func (o *compileOptions) run(ctx context.Context, args []string) error {
	a := o.app
	if o.budget <= 0 {
		return handoff.Errorf(handoff.EINVALID, "--budget must be a positive number of tokens, got %d", o.budget)
	}
	format, err := parseFormatFlag(o.format)
	if err != nil {
		return err
	}
	var tmpl string
	if o.templatePath != "" {
		if tmpl, err = prompts.LoadTemplate(o.templatePath); err != nil {
			return err
		}
	}
	counter, err := capacity.NewCounter(capacity.Encoding(o.encoding))
	if err != nil {
		return err
	}

	t, err := a.readTranscript(ctx, args, transcript.Options{Format: format, Strict: o.strict, Logger: a.log()})
	if err != nil {
		return err
	}
	// The store is opened before extracting: it is the LLM's cache.
	var s *store.Store
	var cache extractor.Cache
	if !o.noStore {
		if s, err = a.openStore(ctx); err != nil {
			return err
		}
		defer s.Close()
		cache = s
	}
	ex, err := a.newExtractor(o.extract, extractorSetup{cache: cache, counter: counter})
	if err != nil {
		return err
	}
	snap, err := session.Build(ctx, t, session.BuildOptions{
		Counter:   counter,
		Extractor: ex,
		Measure:   capacity.MeasureOptions{Model: o.model, ContextWindow: o.contextWindow},
		Trigger:   handoff.TriggerManual,
		ReadGit:   !o.noGit,
		Workflow:  o.workflow,
	})
	if err != nil {
		return err
	}

	if s != nil {
		if err := s.SaveSnapshot(ctx, snap, session.WorkflowInfo(t)); err != nil {
			return fmt.Errorf("save snapshot: %w", err)
		}
	}

	if o.json {
		return writeJSON(a.stdout, snap)
	}
	res, err := compiler.Compile(snap, compiler.Options{Budget: o.budget, Template: tmpl, Counter: counter})
	if err != nil {
		return fmt.Errorf("compile resume prompt: %w", err)
	}
	// The prompt is printed as compiled: the snapshot was redacted before
	// compiling, and redacting again here could push it past the budget.
	if _, err := io.WriteString(a.stdout, res.Prompt); err != nil {
		return fmt.Errorf("write resume prompt: %w", err)
	}
	a.reportCompile(snap, res, t, o.noStore)
	return nil
}

// reportCompile prints what was done, and what had to be cut, on stderr.
func (a *app) reportCompile(snap *handoff.Snapshot, res *compiler.Result, t *handoff.Transcript, noStore bool) {
	u := snap.Usage
	where := "not stored (--no-store)"
	if !noStore {
		where = fmt.Sprintf("snapshot %s (workflow %s, session %d)", snap.ID, snap.WorkflowID, snap.SessionNumber)
	}
	a.status("%s · %s · context %d/%d tokens (%.1f%%, %s) · prompt %d/%d tokens",
		where, t.Session.Format, u.TokensUsed, u.ContextWindow, 100*u.ContextUtilization, usageSourceText(u.Source), res.Tokens, res.Budget)
	if len(res.Dropped) > 0 {
		parts := make([]string, 0, len(res.Dropped))
		for _, d := range res.Dropped {
			parts = append(parts, fmt.Sprintf("%d %s", d.Count, d.Section))
		}
		a.status("budget cut: %s (see 'handoff show %s')", strings.Join(parts, ", "), snap.ID)
	}
	if res.Truncated {
		a.status("budget too small: the prompt was hard-truncated")
	}
	if a.verbose {
		a.status("%s", extractionSummary(u.Extraction))
	}
	if n := len(t.Warnings); n > 0 {
		a.status("skipped or repaired %d record(s); first at line %d: %s", n, t.Warnings[0].Line, t.Warnings[0].Reason)
	}
}

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
			return nil, fmt.Errorf("read %s: %w", args[0], err)
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

package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/compiler"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/gitstate"
	"github.com/handoff-cli/handoff/prompts"
	"github.com/handoff-cli/handoff/redact"
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
	snap, err := buildSnapshot(ctx, t, snapshotInputs{
		counter:   counter,
		extractor: ex,
		measure:   capacity.MeasureOptions{Model: o.model, ContextWindow: o.contextWindow},
		trigger:   handoff.TriggerManual,
		readGit:   !o.noGit,
		workflow:  o.workflow,
	})
	if err != nil {
		return err
	}

	if s != nil {
		if err := s.SaveSnapshot(ctx, snap, workflowInfo(t)); err != nil {
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

// snapshotInputs are the collaborators and settings that turn a parsed
// transcript into a snapshot.
type snapshotInputs struct {
	counter     *capacity.Counter
	extractor   extractor.Extractor
	measure     capacity.MeasureOptions
	trigger     handoff.Trigger
	pauseReason string
	readGit     bool
	workflow    string
	now         func() time.Time
}

// buildSnapshot is the pipeline of DESIGN.md: redact, measure, extract,
// add git state. Redaction runs first so no later stage, store or output
// ever sees a secret.
func buildSnapshot(ctx context.Context, t *handoff.Transcript, in snapshotInputs) (*handoff.Snapshot, error) {
	redact.Transcript(t)
	usage := capacity.Measure(t, in.counter, in.measure)
	snap, err := extractor.Build(ctx, t, in.extractor)
	if err != nil {
		return nil, fmt.Errorf("extract: %w", err)
	}
	extraction := snap.Usage.Extraction
	snap.Usage = usage
	snap.Usage.Extraction = extraction
	snap.SchemaVersion = handoff.SnapshotSchemaVersion
	snap.Trigger = in.trigger
	snap.PauseReason = in.pauseReason
	snap.SessionID = t.Session.ID
	now := time.Now
	if in.now != nil {
		now = in.now
	}
	snap.CreatedAt = now().UTC()
	snap.WorkflowID = in.workflow
	if snap.WorkflowID == "" {
		snap.WorkflowID = workflowID(t)
	}
	snap.Source = handoff.SourceInfo{
		Path:      t.Session.Source,
		Format:    t.Session.Format,
		Agent:     t.Session.Agent,
		Model:     usage.Model,
		CWD:       t.Session.CWD,
		Messages:  len(t.Messages),
		Warnings:  len(t.Warnings),
		GitBranch: t.Session.GitBranch,
		EndedAt:   t.Session.EndedAt,
	}
	if in.readGit {
		snap.GitState = gitstate.Read(ctx, t.Session.CWD)
	}
	redact.Snapshot(snap)
	return snap, nil
}

// workflowID names the workflow a transcript belongs to: the agent's
// session id when it has one (a session that compacts and continues keeps
// it), else a hash of the working directory, else of the source path.
func workflowID(t *handoff.Transcript) string {
	if t.Session.ID != "" {
		return t.Session.ID
	}
	key := t.Session.CWD
	if key == "" {
		if t.Session.Source != "" && t.Session.Source != "-" {
			if abs, err := filepath.Abs(t.Session.Source); err == nil {
				key = abs
			}
		}
	}
	if key == "" {
		return "stdin"
	}
	sum := sha256.Sum256([]byte(key))
	return "wf_" + hex.EncodeToString(sum[:])[:12]
}

func workflowInfo(t *handoff.Transcript) store.WorkflowInfo {
	name := filepath.Base(t.Session.CWD)
	if t.Session.CWD == "" {
		name = filepath.Base(t.Session.Source)
	}
	return store.WorkflowInfo{Name: name, Dir: t.Session.CWD}
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

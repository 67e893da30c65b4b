package main

import (
	"context"
	"fmt"
	"io"

	"github.com/handoff-cli/handoff/extractor/rulebook"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/compiler"
	"github.com/handoff-cli/handoff/extractor/llm"
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
	disableRules  []string
	budget        int
	encoding      string
	model         string
	contextWindow int
	templatePath  string
	json          bool
	noStore       bool
	noGit         bool
	target        targetFlags
	extract       extractorFlags
	latest        bool
	session       string
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
	o.target.add(f, "the session id, else the working directory")
	f.StringSliceVar(&o.disableRules, "disable-rule", nil, "switch off an extractor rule by `id` (the rulebook ablation; repeatable)")
	_ = f.MarkHidden("disable-rule")
	f.BoolVar(&o.latest, "latest", false, "compile the newest agent session of the current directory (or one above it), from every store 'handoff formats' lists")
	f.StringVar(&o.session, "session", "", "session `id` to read from a store that holds many (an OpenCode database or storage directory; default: the newest)")
	o.extract.add(cmd)
}

// newLatestCmd is `handoff latest`: compile --latest.
func (a *app) newLatestCmd() *cobra.Command {
	o := &compileOptions{app: a}
	cmd := &cobra.Command{
		Use:   "latest",
		Short: "Compile the newest agent session of the current directory (compile --latest)",
		Long: `latest finds the most recently written agent session whose working
directory is the current directory (else the nearest directory above it), in
every agent's store handoff knows ('handoff formats' lists where it looks:
Claude Code, Codex CLI, Gemini CLI, OpenCode, Copilot CLI, Crush, pi, Goose,
Kimi CLI, …), and compiles it like 'handoff compile'.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd.Context(), args)
		},
	}
	o.addFlags(cmd)
	// Registering --latest set it to its default: latest always is.
	o.latest = true
	_ = cmd.Flags().MarkHidden("latest")
	return cmd
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
	counter.Warm() // compiling always counts: build the tokenizer while the transcript is read

	if o.latest {
		if len(args) > 0 {
			return handoff.Errorf(handoff.EINVALID, "--latest finds the transcript itself: name no FILE")
		}
		wd, err := workingDir()
		if err != nil {
			return err
		}
		found, err := latestSession(a.getenv("HOME"), wd)
		if err != nil {
			return err
		}
		a.status("latest %s session: %s (written %s)", found.agent, found.path, found.modTime.Local().Format("2006-01-02 15:04"))
		args, o.session = []string{found.path}, found.session
	}

	t, err := a.readTranscript(ctx, args, transcript.Options{Format: format, Strict: o.strict, Session: o.session, Logger: a.log()})
	if err != nil {
		return err
	}
	// The store is opened before extracting: it is the LLM's cache.
	var s cliStore
	var cache llm.Cache
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
	wfID, _, err := o.target.named() // unstored (--no-store): the name as given
	if err != nil {
		return err
	}
	if s != nil {
		if wfID, err = o.target.resolve(ctx, s); err != nil {
			return err
		}
	}
	rules, err := rulebook.Disable(o.disableRules...)
	if err != nil {
		return handoff.Errorf(handoff.EINVALID, "--disable-rule: %v", err)
	}
	build := session.BuildOptions{
		Rules:     rules,
		Counter:   counter,
		Extractor: ex,
		Measure:   capacity.MeasureOptions{Model: o.model, ContextWindow: o.contextWindow},
		Trigger:   handoff.TriggerManual,
		ReadGit:   !o.noGit,
		Workflow:  wfID,
	}
	var snap *handoff.Snapshot
	unchanged := false
	if s == nil {
		snap, err = session.Build(ctx, t, build)
	} else {
		var target session.Store = s
		if !o.json {
			// Render before storing: a --template that fails at run time
			// must leave nothing behind.
			target = renderFirst{Store: s, render: func(snap *handoff.Snapshot) error {
				res, err := compiler.Compile(snap, compiler.Options{Budget: o.budget, Template: tmpl, Counter: counter})
				if err == nil {
					err = tooSmall(res)
				}
				return err
			}}
		}
		var cp *session.Checkpointed
		if cp, err = session.Checkpoint(ctx, target, t, session.CheckpointOptions{Build: build, Logger: a.log()}); cp != nil {
			snap, unchanged = cp.Snapshot, cp.Unchanged
		}
	}
	if err != nil {
		return err
	}

	if o.json {
		if err := writeJSON(a.stdout, snap); err != nil {
			return err
		}
		a.status("%s · %s · %s", storedWhere(snap, o.noStore, unchanged), t.Session.Format, ex.describe())
		return nil
	}
	res, err := compiler.Compile(snap, compiler.Options{Budget: o.budget, Template: tmpl, Counter: counter})
	if err != nil {
		return fmt.Errorf("compile resume prompt: %w", err)
	}
	if err := tooSmall(res); err != nil {
		return err
	}
	// The prompt is printed as compiled: the snapshot was redacted before
	// compiling, and redacting again here could push it past the budget.
	if _, err := io.WriteString(a.stdout, res.Prompt); err != nil {
		return fmt.Errorf("write resume prompt: %w", err)
	}
	a.reportCompile(snap, res, t, o.noStore, unchanged, ex.describe())
	return nil
}

// renderFirst is a session.Store that renders a snapshot's prompt before
// saving it and saves nothing when rendering fails, so compile's output
// and what it stores succeed or fail together. The prompt is rendered
// again after saving, since the store assigns the id the prompt names.
type renderFirst struct {
	session.Store
	render func(*handoff.Snapshot) error
}

func (r renderFirst) SaveSnapshot(ctx context.Context, snap *handoff.Snapshot, wf store.WorkflowInfo) error {
	if err := r.render(snap); err != nil {
		return fmt.Errorf("compile resume prompt: %w", err)
	}
	return r.Store.SaveSnapshot(ctx, snap, wf)
}

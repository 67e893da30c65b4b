package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/hooks"
)

// hookOptions are the flags of `handoff hook claude|codex`.
type hookOptions struct {
	app   *app
	agent string // "claude" or "codex"

	install     bool
	write       bool
	settings    string
	handoffPath string
	mcpInstall  // --mcp: register `handoff mcp` instead (hook_install.go)
	// defaultSettings is the agent's settings file relative to the
	// project root.
	defaultSettings string

	budget        int
	encoding      string
	model         string
	contextWindow int
	warn          float64
	checkpoint    float64
	noGit         bool
}

func (a *app) newHookCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hook",
		Short: "Run as an agent hook (Claude Code, Codex CLI), or install the hooks",
		Long: `hook is what an agent runs on its hook events. It reads the hook's JSON on
stdin and answers on stdout in the agent's hook contract:

  PreCompact              snapshot before the agent compacts its context
  SessionStart            (compact|resume) give the new context the resume prompt
  Stop, PostToolUse,      measure the context; when it first crosses the
  UserPromptSubmit        checkpoint threshold, snapshot, pause the workflow
                          and ask the agent to wrap up

A failure inside handoff never blocks the agent: it is reported on stderr
and the hook exits 1, which agents treat as non-blocking.

Install with: handoff hook claude --install --write`,
		// A mistyped agent (handoff hook claud) in an agent's settings must
		// neither block it (exit 2) nor answer with help text on stdout,
		// which the agent would read as the hook's reply: exit 1, stdout
		// empty.
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			msg := fmt.Sprintf("unknown agent %q for 'handoff hook': use claude or codex", args[0])
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				msg += fmt.Sprintf(" (did you mean %s?)", quoteAll(s))
			}
			return &exitError{code: exitInternal, err: handoff.Errorf(handoff.EINVALID, "%s", msg)}
		},
	}
	cmd.AddCommand(a.newHookAgentCmd("claude", ".claude/settings.json"), a.newHookAgentCmd("codex", ".codex/hooks.json"))
	return cmd
}

func (a *app) newHookAgentCmd(agent, settings string) *cobra.Command {
	o := &hookOptions{app: a, agent: agent, defaultSettings: settings}
	name := map[string]string{"claude": "Claude Code", "codex": "Codex CLI"}[agent]
	cmd := &cobra.Command{
		Use:   agent,
		Short: "Handle one " + name + " hook event (JSON on stdin), or --install the hooks",
		// A mistyped hook command line (a flag an older or newer handoff
		// lacks) must not block the agent either: it fails like any other
		// hook error, with the non-blocking exit.
		Args: func(c *cobra.Command, args []string) error {
			if err := cobra.NoArgs(c, args); err != nil {
				return o.fail(err)
			}
			return nil
		},
		Example: fmt.Sprintf(`  handoff hook %[1]s --install            # print the hooks block
  handoff hook %[1]s --install --write    # merge it into %[2]s`, agent, settings),
		RunE: func(cmd *cobra.Command, _ []string) error {
			// Every failure under hook exits 1, installing included: a
			// script that wires hooks must never see the blocking 2.
			if o.install {
				if err := o.runInstall(cmd.Context()); err != nil {
					return o.fail(err)
				}
				return nil
			}
			if o.write {
				return o.fail(handoff.Errorf(handoff.EINVALID, "--write only goes with --install (handoff hook %s --install --write)", agent))
			}
			if o.mcp {
				return o.fail(handoff.Errorf(handoff.EINVALID, "--mcp only goes with --install"))
			}
			return o.run(cmd.Context())
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return o.fail(err) })
	f := cmd.Flags()
	f.BoolVar(&o.install, "install", false, "print the hooks configuration that runs this command")
	f.BoolVar(&o.write, "write", false, "with --install: merge it into the settings file (atomically, keeping everything else)")
	f.StringVar(&o.settings, "settings", "", "with --install --write: the settings `file` to merge into (default: "+settings+" at the top of the git repository, else in the current directory)")
	f.StringVar(&o.handoffPath, "handoff-path", "", "with --install: the handoff command the hooks run (default: handoff when it is on PATH, else this binary)")
	o.mcpInstall.addFlags(cmd)
	f.IntVar(&o.budget, "budget", 2000, "resume prompt budget in `tokens`")
	f.StringVar(&o.encoding, "encoding", string(capacity.O200kBase), "tokenizer: o200k_base or cl100k_base")
	f.StringVar(&o.model, "model", "", "model whose context window to measure against (default: from the transcript)")
	f.IntVar(&o.contextWindow, "context-window", 0, "context window in `tokens`, overriding the model table")
	f.Float64Var(&o.warn, "warn", capacity.DefaultThresholds().Warn, "warn at this utilization (fraction or percent)")
	f.Float64Var(&o.checkpoint, "checkpoint", capacity.DefaultThresholds().Checkpoint, "checkpoint at this utilization (fraction or percent)")
	f.BoolVar(&o.noGit, "no-git", false, "do not read git state from the session's working directory")
	return cmd
}

// run handles one hook event. Whatever goes wrong, the agent must not be
// steered by it: the error goes to stderr and the exit code is
// hooks.ExitCode's (1, never the blocking 2).
func (o *hookOptions) run(ctx context.Context) (err error) {
	h := &hookRun{o: o}
	defer h.close()
	defer func() {
		// A Go panic exits 2, which Claude Code reads as "block": turn
		// it into an ordinary failure like any other.
		if p := recover(); p != nil {
			err = o.fail(handoff.Errorf(handoff.EINTERNAL, "internal error: %v", p))
		}
	}()
	if err := h.handle(ctx); err != nil {
		return o.fail(err)
	}
	return nil
}

// fail reports a hook failure on stderr and returns the non-blocking exit.
func (o *hookOptions) fail(err error) error {
	fmt.Fprintf(o.app.stderr, "handoff hook %s: %v\n", o.agent, err)
	return &exitError{code: hooks.ExitCode(err), err: err, quiet: true}
}

func (h *hookRun) handle(ctx context.Context) error {
	o, a := h.o, h.o.app
	th := capacity.Thresholds{Warn: fraction(o.warn), Checkpoint: fraction(o.checkpoint)}
	if err := th.Validate(); err != nil {
		return fmt.Errorf("--warn/--checkpoint: %w", err)
	}
	if o.budget <= 0 {
		return handoff.Errorf(handoff.EINVALID, "--budget must be a positive number of tokens, got %d", o.budget)
	}
	in, err := hooks.ParseClaudeInput(a.stdin)
	if err != nil {
		return err
	}
	var t *handoff.Transcript
	var st capacity.Status
	switch in.HookEventName {
	case hooks.EventStop, hooks.EventPostToolUse, hooks.EventUserPromptSubmit:
		if in.TranscriptPath != "" {
			if t, err = h.readTranscript(ctx, in.TranscriptPath); err != nil {
				return err
			}
			if st, err = h.observe(ctx, in.SessionID, t, th); err != nil {
				return err
			}
		}
	}

	plan := hooks.PlanClaude(in, st)
	a.log().Debug("hook plan", "event", in.HookEventName, "session", in.SessionID, "why", plan.Why)
	if plan.Snapshot {
		if t == nil {
			if t, err = h.readTranscript(ctx, plan.TranscriptPath); err != nil {
				return err
			}
		}
		if err := h.snapshot(ctx, in, plan, t); err != nil {
			return err
		}
	}
	if plan.ResumeWorkflow {
		h.resume(ctx, in)
	}
	prompt := ""
	if plan.InjectResume {
		if prompt, err = h.resumePrompt(ctx, in); err != nil {
			return err
		}
	}
	out, err := hooks.ClaudeOutput(in.HookEventName, plan.Reply(prompt))
	if err != nil {
		return err
	}
	if _, err := a.stdout.Write(out); err != nil {
		return fmt.Errorf("write hook output: %w", err)
	}
	return nil
}

package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/compiler"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/hooks"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/transcript"
)

// hookOptions are the flags of `handoff hook claude|codex`.
type hookOptions struct {
	app   *app
	agent string // "claude" or "codex"

	install     bool
	write       bool
	settings    string
	handoffPath string

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
	}
	cmd.AddCommand(a.newHookAgentCmd("claude", ".claude/settings.json"), a.newHookAgentCmd("codex", ".codex/hooks.json"))
	return cmd
}

func (a *app) newHookAgentCmd(agent, settings string) *cobra.Command {
	o := &hookOptions{app: a, agent: agent}
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
			if o.install {
				return o.runInstall()
			}
			if o.write {
				return handoff.Errorf(handoff.EINVALID, "--write only goes with --install")
			}
			return o.run(cmd.Context())
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return o.fail(err) })
	f := cmd.Flags()
	f.BoolVar(&o.install, "install", false, "print the hooks configuration that runs this command")
	f.BoolVar(&o.write, "write", false, "with --install: merge it into the settings file (atomically, keeping everything else)")
	f.StringVar(&o.settings, "settings", settings, "with --install --write: the settings `file` to merge into")
	f.StringVar(&o.handoffPath, "handoff-path", "", "with --install: the handoff binary the hooks run (default: this one)")
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

// hookRun is one hook invocation, holding what it opened.
type hookRun struct {
	o       *hookOptions
	counter *capacity.Counter
	st      *store.Store
}

func (h *hookRun) close() {
	if h.st != nil {
		h.st.Close()
	}
}

// store opens the database once, when first needed: a hook that has
// nothing to do does not touch it.
func (h *hookRun) store(ctx context.Context) (*store.Store, error) {
	if h.st == nil {
		s, err := h.o.app.openStore(ctx)
		if err != nil {
			return nil, err
		}
		h.st = s
	}
	return h.st, nil
}

// tokens builds the Counter once, when first needed: loading a vocabulary
// costs a few hundred milliseconds, which a hook with nothing to count
// (SessionStart startup, an unknown event) should not pay.
func (h *hookRun) tokens() (*capacity.Counter, error) {
	if h.counter == nil {
		c, err := capacity.NewCounter(capacity.Encoding(h.o.encoding))
		if err != nil {
			return nil, err
		}
		h.counter = c
	}
	return h.counter, nil
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

func (h *hookRun) readTranscript(ctx context.Context, path string) (*handoff.Transcript, error) {
	t, err := transcript.ParseFile(ctx, path, transcript.Options{Source: path, Logger: h.o.app.log()})
	if err != nil {
		return nil, fmt.Errorf("read transcript %s: %w", path, err)
	}
	return t, nil
}

// monitorKey is where a session's MonitorState is kept between hook
// processes, so a crossing fires once however many hooks see it.
func monitorKey(sessionID string) string { return "monitor:" + sessionID }

// observe measures the transcript and runs it through the session's
// monitor, resumed from and saved back to the store.
func (h *hookRun) observe(ctx context.Context, sessionID string, t *handoff.Transcript, th capacity.Thresholds) (capacity.Status, error) {
	o := h.o
	counter, err := h.tokens()
	if err != nil {
		return capacity.Status{}, err
	}
	usage := capacity.Measure(t, counter, capacity.MeasureOptions{Model: o.model, ContextWindow: o.contextWindow, Logger: o.app.log()})
	s, err := h.store(ctx)
	if err != nil {
		return capacity.Status{}, err
	}
	// The state is read, advanced and written back in one write
	// transaction, so two hooks of one session firing at once cannot both
	// take the same crossing.
	var st capacity.Status
	err = s.CacheUpdate(ctx, monitorKey(sessionID), func(raw []byte, found bool) ([]byte, error) {
		var state capacity.MonitorState
		if found {
			if err := json.Unmarshal(raw, &state); err != nil {
				// A damaged state only risks one repeated checkpoint.
				o.app.log().Warn("stored monitor state unreadable; starting fresh", "session", sessionID, "err", err)
				state = capacity.MonitorState{}
			}
		}
		mon, err := capacity.NewMonitor(capacity.MonitorOptions{
			Model: o.model, ContextWindow: o.contextWindow, Thresholds: th, State: state, Logger: o.app.log(),
		})
		if err != nil {
			return nil, err
		}
		st = mon.ObserveUsage(usage)
		next, err := json.Marshal(mon.State())
		if err != nil {
			return nil, fmt.Errorf("encode monitor state: %w", err)
		}
		return next, nil
	})
	if err != nil {
		return capacity.Status{}, err
	}
	return st, nil
}

// snapshot checkpoints the session as the plan says: the snapshot, and
// the pause when the plan asks for one, in one transaction. The workflow is the agent's session id, which a compacted or
// resumed session keeps.
func (h *hookRun) snapshot(ctx context.Context, in *hooks.ClaudeInput, plan hooks.Plan, t *handoff.Transcript) error {
	o := h.o
	counter, err := h.tokens()
	if err != nil {
		return err
	}
	s, err := h.store(ctx)
	if err != nil {
		return err
	}
	pause := session.NoPause
	if plan.PauseWorkflow {
		pause = session.PauseIfAllowed
	}
	_, err = session.Checkpoint(ctx, s, t, session.CheckpointOptions{
		Build: session.BuildOptions{
			Counter:     counter,
			Extractor:   extractor.NewHeuristic(o.app.log()),
			Measure:     capacity.MeasureOptions{Model: o.model, ContextWindow: o.contextWindow},
			Trigger:     plan.Trigger,
			PauseReason: plan.PauseReason,
			ReadGit:     !o.noGit,
			Workflow:    in.SessionID,
			Now:         o.app.now,
		},
		Pause:  pause,
		Dir:    in.CWD,
		Logger: o.app.log(),
	})
	return err
}

// resume marks the session's workflow in progress again if it was paused.
// It is bookkeeping: a failure is logged, not fatal to the hook.
func (h *hookRun) resume(ctx context.Context, in *hooks.ClaudeInput) {
	log := h.o.app.log()
	s, err := h.store(ctx)
	if err != nil {
		log.Warn("could not open the database to resume the workflow", "err", err)
		return
	}
	wf, err := session.Resolve(ctx, s, session.Ref{SessionID: in.SessionID})
	if err != nil {
		if handoff.ErrorCode(err) != handoff.ENOTFOUND {
			log.Warn("could not load the workflow", "workflow", in.SessionID, "err", err)
		}
		return
	}
	if wf.Status != handoff.WorkflowPaused {
		return
	}
	if err := s.SetWorkflowStatus(ctx, wf.ID, handoff.WorkflowInProgress, "session started from "+in.Source); err != nil {
		log.Warn("could not resume the workflow", "workflow", wf.ID, "err", err)
	}
}

// resumePrompt compiles the latest snapshot of the session's workflow, or
// of the workflow of its directory (a resumed session can carry a new id),
// or returns "" when there is none.
func (h *hookRun) resumePrompt(ctx context.Context, in *hooks.ClaudeInput) (string, error) {
	s, err := h.store(ctx)
	if err != nil {
		return "", err
	}
	snap, err := session.SnapshotFor(ctx, s, "", session.Ref{SessionID: in.SessionID, Dir: in.CWD})
	if handoff.ErrorCode(err) == handoff.ENOTFOUND {
		h.o.app.log().Debug("no snapshot to resume from", "session", in.SessionID, "cwd", in.CWD)
		return "", nil
	}
	if err != nil {
		return "", err
	}
	counter, err := h.tokens()
	if err != nil {
		return "", err
	}
	res, err := compiler.Compile(snap, compiler.Options{Budget: h.o.budget, Counter: counter})
	if err != nil {
		return "", fmt.Errorf("compile resume prompt: %w", err)
	}
	return res.Prompt, nil
}

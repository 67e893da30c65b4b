package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/postgres"
)

// Exit codes. Scripts and agent hooks branch on these, so they are part of
// the interface and listed in the README.
const (
	exitOK          = 0
	exitInternal    = 1 // a bug or an unclassified failure
	exitInvalid     = 2 // bad flags or unreadable input: fix the input
	exitNotFound    = 3 // no such snapshot, workflow or file
	exitUnavailable = 4 // database locked, endpoint down: try again later
	exitCorrupt     = 5 // stored data is damaged
	exitConflict    = 6 // not allowed in the current state
	exitClaimed     = 7 // resume: another session has claimed the workflow
	// exitCheckpoint: `handoff watch` took a checkpoint (snapshot saved,
	// workflow paused, resume prompt written) and stopped. Not a failure:
	// a wrapper script restarts the agent with the prompt.
	exitCheckpoint = 10
)

// exitError carries an exit code chosen by the command itself rather than
// by the error's class: watch's checkpoint, and a hook's failure, which
// must never be the 2 that Claude Code reads as "block".
type exitError struct {
	code int
	err  error
	// quiet: the command has already said everything; print no error.
	quiet bool
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// exitCode maps an error's class to the process exit code.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	if e, ok := errors.AsType[*exitError](err); ok {
		return e.code
	}
	switch handoff.ErrorCode(err) {
	case handoff.EINVALID:
		return exitInvalid
	case handoff.ENOTFOUND:
		return exitNotFound
	case handoff.EUNAVAILABLE:
		return exitUnavailable
	case handoff.ECORRUPT:
		return exitCorrupt
	case handoff.ECONFLICT:
		return exitConflict
	case handoff.ECLAIMED:
		return exitClaimed
	}
	return exitInternal
}

// app is what every command shares: the process's streams and environment,
// so tests can run commands in-process without touching the real ones.
type app struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string

	// Global flags.
	dbPath  string
	verbose bool
	quiet   bool

	logger *slog.Logger
	// now, when set, stamps the snapshots watch and hook take (tests).
	now func() time.Time
	// outTerm, when set, says whether stdout is a terminal and how wide
	// (tests); else it is asked of stdout itself.
	outTerm func() (bool, int)
	// config is the config file's defaults (never nil once a command runs).
	config *config
}

// configure reads the config file and applies its defaults to cmd's flags.
func (a *app) configure(cmd *cobra.Command) error {
	c, err := a.loadConfig()
	if err != nil {
		return err
	}
	a.config = c
	return c.applyDefaults(cmd.Flags())
}

// run executes the handoff CLI with the given arguments and streams and
// returns the error that decides the exit code. It prints the error itself.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv}
	return a.execute(ctx, args)
}

func (a *app) execute(ctx context.Context, args []string) error {
	root := a.newRootCmd()
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	err := root.ExecuteContext(ctx)
	if e, ok := errors.AsType[*exitError](err); ok && e.quiet {
		return err
	}
	err = classifyMachine(err)
	if err != nil {
		a.printError(err)
	}
	return err
}

func (a *app) newRootCmd() *cobra.Command {
	compileOpts := &compileOptions{app: a}
	root := &cobra.Command{
		Use:   "handoff [FILE]",
		Short: "Turn an agent transcript into a bounded resume prompt",
		Long: `handoff reads an LLM agent's transcript (Claude Code, Codex CLI, Gemini
CLI, Aider, SpecStory, SWE-agent, OpenHands and more: see "handoff formats"),
extracts the goal, plan, decisions, errors and test state, stores the snapshot in SQLite, and prints a resume prompt that fits
a token budget. With no subcommand it runs "handoff compile".`,
		Example: `  cat ~/.claude/projects/<project>/<session>.jsonl | handoff
  handoff compile session.jsonl --budget 4000
  handoff show --decisions`,
		Args:          cobra.MaximumNArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			a.setupLogger()
			err := a.configure(cmd)
			if err == nil {
				err = checkCountFlags(cmd.Flags())
			}
			if err != nil {
				if underHook(cmd) {
					return &exitError{code: exitInternal, err: err}
				}
				return err
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := notACommand(cmd, args); err != nil {
				return err
			}
			return compileOpts.run(cmd.Context(), args)
		},
		Version:                    versionString(),
		SuggestionsMinimumDistance: 2,
	}
	root.SetVersionTemplate("handoff {{.Version}}\n")
	pf := root.PersistentFlags()
	pf.StringVar(&a.dbPath, "db", "", "SQLite database `path` or postgres:// URL of a team store (default $HANDOFF_DB, else $XDG_DATA_HOME/handoff/handoff.db)")
	pf.BoolVarP(&a.verbose, "verbose", "v", false, "log diagnostics to stderr")
	pf.BoolVarP(&a.quiet, "quiet", "q", false, "print only the result, no status line on stderr")
	compileOpts.addFlags(root)

	root.AddCommand(
		a.newCompileCmd(),
		a.newShowCmd(),
		a.newListCmd(),
		a.newFormatsCmd(),
		a.newWatchCmd(),
		a.newHookCmd(),
		a.newPauseCmd(),
		a.newResumeCmd(),
		a.newStatusCmd(),
		a.newDiffCmd(),
		a.newForkCmd(),
		a.newGCCmd(),
		a.newExtractCmd(),
		a.newDecisionsCmd(),
		a.newErrorsCmd(),
		a.newParseCmd(),
		a.newMCPCmd(),
		a.newServeCmd(),
		a.newSyncCmd(),
		a.newSearchCmd(),
		a.newDoctorCmd(),
		a.newLatestCmd(),
		a.newNoteCmd(),
	)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return handoff.Errorf(handoff.EINVALID, "%w", flagValueError(err))
	})
	usageErrorsInvalid(root)
	a.addCompletions(root)
	return root
}

// notACommand catches a mistyped command that bare `handoff FILE` would
// otherwise read as a missing transcript: an argument that names no file
// but is close to a command's name is an unknown command (exit 2), with
// cobra's suggestions.
func notACommand(cmd *cobra.Command, args []string) error {
	if len(args) != 1 || args[0] == "-" {
		return nil
	}
	if _, err := os.Stat(args[0]); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		return handoff.Errorf(handoff.EINVALID, "unknown command %q for %q; did you mean %s?", args[0], cmd.Name(), quoteAll(s))
	}
	if !strings.ContainsAny(args[0], "./\\") {
		return handoff.Errorf(handoff.ENOTFOUND, "%q is neither a command nor a file (see 'handoff --help')", args[0])
	}
	return nil
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, " or ")
}

// usageErrorsInvalid makes cobra's argument checks (a missing or extra
// argument, an unknown subcommand) EINVALID, so a mistyped command line
// exits 2 like a bad flag instead of 1, the code for a bug.
func usageErrorsInvalid(cmd *cobra.Command) {
	if check := cmd.Args; check != nil {
		cmd.Args = func(c *cobra.Command, args []string) error {
			if err := check(c, args); err != nil {
				return handoff.Errorf(handoff.EINVALID, "%w", err)
			}
			return nil
		}
	}
	for _, sub := range cmd.Commands() {
		usageErrorsInvalid(sub)
	}
}

func (a *app) setupLogger() {
	// -q keeps stderr for errors: warnings are what the status line would
	// have said, and a person who asked for quiet does not want them.
	level := slog.LevelWarn
	switch {
	case a.verbose:
		level = slog.LevelDebug
	case a.quiet:
		level = slog.LevelError
	}
	a.logger = slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: level}))
}

// log returns the logger, usable before flags are parsed.
func (a *app) log() *slog.Logger {
	if a.logger == nil {
		a.setupLogger()
	}
	return a.logger
}

// databasePath is the database named by --db, $HANDOFF_DB, the config
// file or the default, and which of them named it: a SQLite path or a
// postgres:// URL.
func (a *app) databasePath() (path, from string, err error) {
	switch {
	case a.dbPath != "":
		return a.dbPath, "--db", nil
	case a.getenv("HANDOFF_DB") != "":
		return a.getenv("HANDOFF_DB"), "HANDOFF_DB", nil
	case a.config != nil && a.config.DB != "":
		return a.config.DB, a.config.path, nil
	}
	p, err := store.DefaultPath()
	if err != nil {
		return "", "", fmt.Errorf("locate the database: %w", err)
	}
	return p, "default", nil
}

// dbTarget is databasePath without saying where it came from.
func (a *app) dbTarget() (string, error) {
	p, _, err := a.databasePath()
	return p, err
}

// openStore opens the database named by --db, $HANDOFF_DB, the config
// file or the default: the local SQLite file, or, for a postgres:// or
// postgresql:// URL, the team's PostgreSQL database. Errors name the
// PostgreSQL database by a label, never by its URL (it may hold a password).
func (a *app) openStore(ctx context.Context) (cliStore, error) {
	path, _, err := a.databasePath()
	if err != nil {
		return nil, err
	}
	if postgres.IsURL(path) {
		s, err := postgres.Open(ctx, path, postgres.Options{Logger: a.log()})
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", postgresLabel, err)
		}
		return s, nil
	}
	s, err := store.Open(ctx, path, store.Options{Logger: a.log()})
	if _, fsErr := errors.AsType[*fs.PathError](err); fsErr && handoff.ErrorCode(err) == handoff.EINTERNAL {
		// The file or its directory cannot be made or opened there (a
		// read-only or missing mount): the place is out of reach, not a bug.
		return nil, handoff.Errorf(handoff.EUNAVAILABLE, "open database %s: %w (choose another place with --db or HANDOFF_DB)", path, err)
	}
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return s, nil
}

// status prints a status line on stderr unless --quiet.
func (a *app) status(format string, args ...any) {
	if a.quiet {
		return
	}
	fmt.Fprintf(a.stderr, "handoff: "+format+"\n", args...)
}

// printError prints one headline a person can act on, then the detail.
func (a *app) printError(err error) {
	hint := ""
	switch handoff.ErrorCode(err) {
	case handoff.EINVALID:
		hint = "fix the input or flags and run again (handoff --help)"
	case handoff.EUNAVAILABLE:
		hint = "try again in a moment"
	case handoff.ECORRUPT:
		hint = "the database may be damaged; use --db to point at another file, or --no-store"
	}
	fmt.Fprintf(a.stderr, "handoff: error: %s\n", err)
	if hint != "" {
		fmt.Fprintf(a.stderr, "handoff: %s\n", hint)
	}
}

// flagValueError words a flag value that does not parse for a person
// (--budget abc: "--budget "abc" is not a whole number"), instead of
// pflag's strconv detail; other flag errors pass through.
func flagValueError(err error) error {
	var bad *pflag.InvalidValueError
	if !errors.As(err, &bad) {
		return err
	}
	want := map[string]string{
		"int": "a whole number", "float64": "a number", "duration": "a duration such as 250ms, 2s or 1m",
		"bool": "true or false", "uint": "a whole number",
	}[bad.GetFlag().Value.Type()]
	if want == "" {
		return err
	}
	_, usage := pflag.UnquoteUsage(bad.GetFlag())
	return fmt.Errorf("--%s %q is not %s (%s)", bad.GetFlag().Name, bad.GetValue(), want, usage)
}

package main

import (
	"context"
	"fmt"
	"net"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/server"
)

// serveOptions are the flags of `handoff serve`.
type serveOptions struct {
	app *app

	addr     string
	token    string
	maxBody  int64
	encoding string
	noGit    bool
}

func (a *app) newServeCmd() *cobra.Command {
	o := &serveOptions{app: a}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the JSON API and the dashboard over the database",
		Long: `serve runs an HTTP server on --addr with the JSON API (/api/, described
at /api/openapi.json) and the dashboard (/): workflows, the session timeline,
snapshots, resume prompts, diffs, and pause and resume.

It listens on loopback by default. Any other address requires a bearer
token (--token or $HANDOFF_TOKEN), or serve refuses to start. SIGINT or
SIGTERM shut it down gracefully.`,
		Example: `  handoff serve
  HANDOFF_TOKEN=$(openssl rand -hex 16) handoff serve --addr 0.0.0.0:7420`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:7420", "`host:port` to listen on")
	f.StringVar(&o.token, "token", "", "bearer token required on every request (default $HANDOFF_TOKEN)")
	f.Int64Var(&o.maxBody, "max-transcript-bytes", server.DefaultMaxTranscriptBytes, "largest transcript POST /api/transcripts accepts")
	f.StringVar(&o.encoding, "encoding", string(capacity.O200kBase), "tokenizer: o200k_base or cl100k_base")
	f.BoolVar(&o.noGit, "no-git", false, "no effect: the server never reads a transcript or git state from its own disk")
	_ = f.MarkDeprecated("no-git", "the server never reads a transcript or git state from its own disk")
	return cmd
}

func (o *serveOptions) run(ctx context.Context) error {
	a := o.app
	token := o.token
	if token == "" {
		token = a.getenv("HANDOFF_TOKEN")
	}
	if err := server.CheckBind(o.addr, token); err != nil {
		return err
	}
	counter, err := capacity.NewCounter(capacity.Encoding(o.encoding))
	if err != nil {
		return err
	}
	counter.Warm()
	s, where, err := a.openServeStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	// Both stores serve the API; the assertion keeps cliStore to what
	// every command needs.
	ss, ok := s.(server.Store)
	if !ok {
		return handoff.Errorf(handoff.EINTERNAL, "serve: %s cannot serve the API", where)
	}
	srv, err := server.New(server.Config{
		Store: ss, Counter: counter, Token: token,
		MaxTranscriptBytes: o.maxBody, Logger: a.log(),
	})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	return server.ListenAndServe(ctx, o.addr, token, srv, a.log(), func(addr net.Addr) {
		a.status("serving %s on http://%s/ (API: /api/openapi.json)", where, addr)
		fmt.Fprintf(a.stdout, "http://%s/\n", addr)
	})
}

// openServeStore opens the database the server runs on: the local SQLite
// file, or, when --db/HANDOFF_DB is a postgres:// URL, the team's
// PostgreSQL database (the team server). It also says which, without
// credentials, for the status line.
func (a *app) openServeStore(ctx context.Context) (cliStore, string, error) {
	s, err := a.openStore(ctx)
	if err != nil {
		return nil, "", err
	}
	return s, storeLabel(s), nil
}

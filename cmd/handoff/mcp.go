package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/mcpserver"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/postgres"
)

// mcpOptions are the flags of `handoff mcp`.
type mcpOptions struct {
	app *app
	dir string
}

func (a *app) newMCPCmd() *cobra.Command {
	o := &mcpOptions{app: a}
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the stored sessions to an agent over MCP (stdio)",
		Long: `mcp runs a Model Context Protocol server on stdin/stdout for an agent
(Claude Code, Codex, any MCP client) to call when a resume prompt left out
what it needs: resume_prompt (any budget, any snapshot), list_workflows,
list_snapshots, decisions, errors, git_changes and search_decisions. Every
tool only reads the database; none pauses or resumes a workflow.

A call that names no workflow uses the workflow of --dir (default: the
directory the server runs in, which is the project the agent launched it
from). Register it with: handoff hook claude --install --mcp --write`,
		Example: `  handoff mcp
  handoff --db ~/work/handoff.db mcp --dir ~/src/project`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.Context())
		},
	}
	cmd.Flags().StringVarP(&o.dir, "dir", "C", "", "the `directory` whose workflow a call without one is about (default: the current directory)")
	return cmd
}

func (o *mcpOptions) run(ctx context.Context) error {
	a := o.app
	dir := o.dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("find the current directory (pass --dir): %w", err)
		}
		dir = wd
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return handoff.Errorf(handoff.EINVALID, "--dir %q: %w", o.dir, err)
	}
	path, err := a.mcpDBPath()
	if err != nil {
		return err
	}
	counter, err := capacity.NewCounter(capacity.O200kBase)
	if err != nil {
		return err
	}
	srv, err := mcpserver.New(mcpserver.Options{
		Dir:     dir,
		Counter: counter,
		Version: buildVersion(),
		Logger:  a.log(),
		// Read-only: the server never writes, so it cannot migrate or
		// create a database another handoff owns.
		// A postgres:// URL opens the team store (migrated by whoever
		// created it; the tools only read).
		Open: func(ctx context.Context) (mcpserver.Store, error) {
			if postgres.IsURL(path) {
				s, err := postgres.Open(ctx, path, postgres.Options{Logger: a.log()})
				if err != nil {
					return nil, fmt.Errorf("open %s: %w", postgresLabel, err)
				}
				return s, nil
			}
			s, err := store.Open(ctx, path, store.Options{Logger: a.log(), ReadOnly: true})
			if err != nil {
				return nil, fmt.Errorf("open database %s: %w", path, err)
			}
			return s, nil
		},
	})
	if err != nil {
		return err
	}
	a.log().Debug("serving MCP on stdio", "db", dbLabel(path), "dir", dir)
	return srv.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(a.stdin), Writer: nopWriteCloser{a.stdout}})
}

// mcpDBPath is the database openStore would open (--db, $HANDOFF_DB, the
// default), for the server's read-only open.
func (a *app) mcpDBPath() (string, error) {
	if a.dbPath != "" {
		return a.dbPath, nil
	}
	if p := a.getenv("HANDOFF_DB"); p != "" {
		return p, nil
	}
	p, err := store.DefaultPath()
	if err != nil {
		return "", fmt.Errorf("locate the database: %w", err)
	}
	return p, nil
}

// buildVersion is the module version the binary was built from, told to
// the client in the handshake.
func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "dev"
}

// nopWriteCloser lets the command's stdout serve as the transport's writer
// without the transport closing the process's stdout.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/hooks"
)

// runInstall prints the hooks configuration, or with --write merges it
// into the settings file, keeping every other key and hook as it was.
func (o *hookOptions) runInstall() error {
	a := o.app
	path := o.handoffPath
	if path == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("locate the handoff binary (pass --handoff-path): %w", err)
		}
		if resolved, err := filepath.EvalSymlinks(exe); err == nil {
			exe = resolved
		}
		path = exe
	}
	if o.mcp {
		return o.runInstallMCP(path)
	}
	merge := hooks.MergeClaudeSettings
	if o.agent == "codex" {
		merge = hooks.MergeCodexHooks
	}
	if !o.write {
		block, err := merge(nil, path)
		if err != nil {
			return err
		}
		_, err = a.stdout.Write(block)
		return err
	}
	return a.mergeInto(o.settings, path, merge, "handoff's hooks")
}

// mergeInto merges what merge makes for the binary at path into file,
// atomically, creating the file and its directory when missing and leaving
// it untouched when merge changes nothing.
func (a *app) mergeInto(file, path string, merge func(existing []byte, path string) ([]byte, error), what string) error {
	existing, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return handoff.Errorf(handoff.EINVALID, "read %s: %v", file, err)
	}
	merged, err := merge(existing, path)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if existing != nil && bytes.Equal(merged, existing) {
		a.status("%s already runs %s; nothing changed", file, what)
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(file), err)
	}
	if err := writeFileAtomic(file, merged); err != nil {
		return err
	}
	a.status("installed %s in %s", what, file)
	return nil
}

// mcpInstall is `hook <agent> --install --mcp`: register `handoff mcp` as
// the agent's MCP server instead of installing the hooks. It is a switch,
// not an addition, so each run prints or writes one file in one format,
// and `--install` alone keeps doing exactly what it did.
type mcpInstall struct {
	mcp bool
	cmd *cobra.Command
}

func (m *mcpInstall) addFlags(cmd *cobra.Command) {
	m.cmd = cmd
	cmd.Flags().BoolVar(&m.mcp, "mcp", false, "with --install: register 'handoff mcp' as an MCP server instead of the hooks (Claude Code: .mcp.json, the default --settings; Codex: prints the config.toml table)")
}

// runInstallMCP prints the MCP server entry, or for Claude Code with
// --write merges it into the project's .mcp.json (or --settings).
func (o *hookOptions) runInstallMCP(path string) error {
	a := o.app
	if o.agent == "codex" {
		if o.write {
			return handoff.Errorf(handoff.EINVALID, "--mcp --write: Codex reads MCP servers from ~/.codex/config.toml, which handoff does not edit; run without --write and add the printed table to it")
		}
		quoted, err := json.Marshal(path) // a JSON string is a TOML basic string
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(a.stdout, "[mcp_servers.%s]\ncommand = %s\nargs = [\"mcp\"]\n", hooks.MCPServerName, quoted)
		return err
	}
	if !o.write {
		block, err := hooks.MergeClaudeMCP(nil, path)
		if err != nil {
			return err
		}
		_, err = a.stdout.Write(block)
		return err
	}
	file := o.settings
	if !o.cmd.Flags().Changed("settings") {
		file = ".mcp.json"
	}
	return a.mergeInto(file, path, hooks.MergeClaudeMCP, "handoff's MCP server")
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/hooks"
)

// runInstall prints the hooks configuration, or with --write merges it
// into the settings file, keeping every other key and hook as it was.
func (o *hookOptions) runInstall(ctx context.Context) error {
	a := o.app
	path, err := o.hookCommand()
	if err != nil {
		return err
	}
	if o.mcp {
		return o.runInstallMCP(ctx, path)
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
	settings, err := o.settingsPath(ctx)
	if err != nil {
		return err
	}
	return a.mergeInto(settings, path, merge, "handoff's hooks")
}

// hookCommand is the program the installed hooks run: --handoff-path,
// else plain "handoff" when a handoff is on PATH (the settings file stays
// valid across upgrades and machines), else this binary's absolute path.
// A binary in Go's build cache (`go run`) is refused: it is deleted when
// the cache is cleaned, and the hooks would then fail on every event.
func (o *hookOptions) hookCommand() (string, error) {
	if o.handoffPath != "" {
		return o.handoffPath, nil
	}
	if onPath(o.app.getenv("PATH"), "handoff") {
		return "handoff", nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("locate the handoff binary (pass --handoff-path): %w", err)
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	if inBuildCache(exe, o.app.getenv("GOCACHE")) {
		return "", handoff.Errorf(handoff.EINVALID,
			"this handoff runs from Go's build cache (%s, as under 'go run'), which is cleaned away: install it with 'go install ./cmd/handoff' so handoff is on PATH, or pass --handoff-path", exe)
	}
	return exe, nil
}

// onPath reports whether an executable file named name is in one of the
// directories of the PATH list pathList.
func onPath(pathList, name string) bool {
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" {
			continue
		}
		fi, err := os.Stat(filepath.Join(dir, name))
		if err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return true
		}
	}
	return false
}

// inBuildCache reports whether exe lives where the go command puts
// binaries it builds to run: a go-build temporary directory, or the build
// cache.
func inBuildCache(exe, gocache string) bool {
	slash := filepath.ToSlash(exe)
	if strings.Contains(slash, "/go-build") {
		return true
	}
	return gocache != "" && strings.HasPrefix(exe, filepath.Clean(gocache)+string(filepath.Separator))
}

// settingsPath is --settings, else the agent's settings file at the top of
// the git repository holding the current directory (where Claude Code and
// Codex read project settings), else in the current directory.
func (o *hookOptions) settingsPath(ctx context.Context) (string, error) {
	if o.settings != "" {
		return o.settings, nil
	}
	wd, err := workingDir()
	if err != nil {
		return "", err
	}
	root := wd
	out, err := exec.CommandContext(ctx, "git", "-C", wd, "rev-parse", "--show-toplevel").Output()
	if top := strings.TrimSpace(string(out)); err == nil && top != "" {
		root = top
	}
	return filepath.Join(root, o.defaultSettings), nil
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
func (o *hookOptions) runInstallMCP(ctx context.Context, path string) error {
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

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff/hooks"
)

// TestHookInstallMCP: --mcp prints or merges the MCP server entry instead
// of the hooks: Claude Code's into .mcp.json in the current directory by
// default (every other server kept, a second run a no-op), Codex's as a
// config.toml table that is only printed.
func TestHookInstallMCP(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")

	r := runCLI(t, db, "", "hook", "claude", "--install", "--mcp", "--handoff-path", handoffBin)
	want, err := hooks.MergeClaudeMCP(nil, handoffBin)
	if err != nil {
		t.Fatal(err)
	}
	if r.err != nil || r.stdout != string(want) || !strings.Contains(r.stdout, `"args": [`) {
		t.Errorf("claude --install --mcp: %v\n%s", r.err, r.stdout)
	}

	r = runCLI(t, db, "", "hook", "codex", "--install", "--mcp", "--handoff-path", handoffBin)
	if r.err != nil || r.stdout != "[mcp_servers.handoff]\ncommand = \""+handoffBin+"\"\nargs = [\"mcp\"]\n" {
		t.Errorf("codex --install --mcp: %v\n%s", r.err, r.stdout)
	}
	for _, args := range [][]string{
		{"hook", "codex", "--install", "--mcp", "--write"},
		{"hook", "claude", "--mcp"},
	} {
		// Every error under hook exits 1: Claude Code reads 2 as "block".
		if r := runCLI(t, db, "", args...); exitCode(r.err) != 1 || r.stdout != "" {
			t.Errorf("%v: exit %d, stdout %q", args, exitCode(r.err), r.stdout)
		}
	}

	// --write with no --settings: .mcp.json in the current directory.
	t.Chdir(dir)
	if err := os.WriteFile(".mcp.json", []byte(`{"mcpServers": {"github": {"command": "gh-mcp"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"hook", "claude", "--install", "--mcp", "--write", "--handoff-path", handoffBin}
	if r := runCLI(t, db, "", args...); r.err != nil || !strings.Contains(r.stderr, "installed handoff's MCP server in .mcp.json") {
		t.Fatalf("--write: %v %q", r.err, r.stderr)
	}
	got := readFile(t, ".mcp.json")
	if !strings.Contains(got, `"github"`) || !strings.Contains(got, `"command": "`+handoffBin+`"`) {
		t.Errorf(".mcp.json:\n%s", got)
	}
	if fi, err := os.Stat(".mcp.json"); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("permissions not kept: %v %v", fi.Mode(), err)
	}
	if r := runCLI(t, db, "", args...); r.err != nil || !strings.Contains(r.stderr, "nothing changed") || readFile(t, ".mcp.json") != got {
		t.Errorf("second --write: %v %q", r.err, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".claude")); !os.IsNotExist(err) {
		t.Errorf("--mcp touched .claude: %v", err)
	}
}

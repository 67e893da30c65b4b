package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPCommand runs `handoff mcp` as main runs it — global --db, the
// command's stdin and stdout as the stdio transport — against a database
// the CLI filled by compiling the sample session, and talks to it as an MCP
// client: the handshake, the tool list, a prompt, the decisions, and a bad
// argument. The tools themselves are tested in package mcpserver.
func TestMCPCommand(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "h.db")
	if r := runCLI(t, db, readFile(t, sampleTranscript), "--no-git", "-q"); r.err != nil {
		t.Fatalf("compile: %v\n%s", r.err, r.stderr)
	}
	clientR, serverW := io.Pipe()
	serverR, clientW := io.Pipe()
	var stderr bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		a := &app{stdin: serverR, stdout: serverW, stderr: &stderr, getenv: func(string) string { return "" }}
		done <- a.execute(ctx, []string{"--db", db, "mcp", "--dir", t.TempDir()})
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: clientR, Writer: clientW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := cs.InitializeResult().ServerInfo.Name; got != "handoff" {
		t.Errorf("server name %q", got)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 9 { // seven retrieval tools, search and handoff_note
		t.Fatalf("tools: %v, %v", tools, err)
	}

	callText := func(name string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}
	// --dir names a directory with no workflow: the prompt is found by
	// listing the workflows first, as an agent would.
	if txt, isErr := callText("resume_prompt", nil); !isErr || !strings.Contains(txt, "not_found (handoff exit code 3)") {
		t.Errorf("resume_prompt for an unknown directory: %v %q", isErr, txt)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_workflows"})
	if err != nil || res.IsError {
		t.Fatalf("list_workflows: %v %v", err, res)
	}
	wf := res.StructuredContent.(map[string]any)["workflows"].([]any)[0].(map[string]any)["id"].(string)
	if txt, isErr := callText("resume_prompt", map[string]any{"workflow": wf, "budget": 1500}); isErr || !strings.Contains(txt, "TestRateLimitBurst") {
		t.Errorf("resume_prompt: %v\n%s", isErr, txt)
	}
	if txt, isErr := callText("search_decisions", map[string]any{"query": "redis"}); isErr || !strings.Contains(txt, "Redis") {
		t.Errorf("search_decisions redis: %v\n%s", isErr, txt)
	}
	if txt, isErr := callText("errors", map[string]any{"workflow": wf, "limit": -1}); !isErr || !strings.Contains(txt, "invalid (handoff exit code 2)") {
		t.Errorf("a negative limit: %v %q", isErr, txt)
	}

	cs.Close() // the client hangs up: the server ends cleanly
	clientW.Close()
	if err := <-done; err != nil {
		t.Errorf("handoff mcp: %v\nstderr: %s", err, stderr.String())
	}
}

package transcript

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealEndSignals checks the end signal of every shared transcript:
// read from the files by hand (the last event of each), "" where the
// session just stops.
func TestRealEndSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	if _, err := os.Stat(sharedDir); err != nil {
		t.Skipf("shared transcripts absent: %v", err)
	}
	want := map[string]string{
		"aider-md/afi-core.aider.chat.history.md":                  EndUserExited, // "#### /exit" last
		"claude-code-console/bookminder-day-013-gemini-cli.txt":    EndUserExited, // "> /quit", then the stats box
		"claude-code/vsla-069508a5-summaries-64lines.jsonl":        EndUserExited, // <command-name>/exit + (no content)
		"claude-code/vsla-2cba43de-thinking-28lines.jsonl":         EndUserExited,
		"claude-code/vsla-5f8cbb78-sidechain-532lines.jsonl":       EndUserExited,
		"claude-code/vsla-9034225e-613lines.jsonl":                 EndUserExited,
		"claude-code/vsla-d7d349f9-241lines.jsonl":                 EndUserExited,
		"claude-code/vsla-paper-0a725fb5-609lines.jsonl":           EndUserExited,
		"codex/devmap-codex-exec1.17.7-rust-review.jsonl":          EndTaskComplete,
		"codex/resting-codex0.120-tui-swift-sandbox-denied.jsonl":  EndTurnRunning, // task_started, a call with no result
		"schema-fixtures/agent-sessions-codex-small-trimmed.jsonl": EndTurnRunning,
		"codex/ship-codex0.114-subagent-fork-coverage.jsonl":       EndTaskComplete,
		"codex/youtube-mcp-codex0.106-exec_command-tdd.jsonl":      EndTaskComplete,
		"openhands-traj/basic.json":                                EndFinished,
		"openhands-traj/basic_gui_mode.json":                       EndAwaitingInput, // agent_state_changed last
		"openhands-traj/wrong_initial_state.json":                  EndFinished,
		"specstory-md/specstory-claude-code-release-audit.md":      EndUserExited,
		"swe-agent-traj/marshmallow-1867-function-calling.traj":    EndSubmitted,
		"swe-agent-traj/pydicom-1458-gpt4.traj":                    EndSubmitted,
	}
	for _, c := range conformance {
		t.Run(c.path, func(t *testing.T) {
			path := filepath.Join(sharedDir, c.path)
			fi, err := os.Stat(path)
			if err != nil {
				t.Skipf("absent: %v", err)
			}
			if raceEnabled && fi.Size() > 512<<10 {
				// TestConformance parses it under -race too; the plain run
				// checks its end signal (see raceEnabled).
				t.Skip("over 512 KiB: its end signal is checked without -race")
			}
			tr, err := ParseFile(context.Background(), path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := tr.Session.EndSignal; got != want[c.path] {
				t.Errorf("end signal %q, want %q", got, want[c.path])
			}
		})
	}
}

func TestOpenHandsEndSignal(t *testing.T) {
	t.Parallel()
	ev := func(s string) string { return s }
	user := ev(`{"id":0,"source":"user","action":"message","args":{"content":"build it"}}`)
	finish := ev(`{"id":1,"source":"agent","action":"finish","message":"Done.","args":{}}`)
	cases := []struct {
		name   string
		events []string
		want   string
	}{
		{"finish last", []string{user, finish}, EndFinished},
		{"finish, then the state change it causes", []string{user, finish, `{"id":2,"source":"environment","observation":"agent_state_changed","extras":{"agent_state":"finished"}}`}, EndFinished},
		{"awaiting input", []string{user, `{"id":1,"source":"agent","action":"message","args":{"content":"Which port?"}}`, `{"id":2,"source":"agent","observation":"null","content":""}`, `{"id":3,"source":"environment","observation":"agent_state_changed","extras":{"agent_state":"awaiting_user_input"}}`}, EndAwaitingInput},
		{"error state", []string{user, `{"id":1,"source":"environment","observation":"agent_state_changed","extras":{"agent_state":"error"}}`}, "agent error"},
		{"finish, then the user asks more", []string{user, finish, `{"id":2,"source":"user","action":"message","args":{"content":"also add tests"}}`}, ""},
		{"running again after awaiting", []string{user, `{"id":1,"source":"environment","observation":"agent_state_changed","extras":{"agent_state":"awaiting_user_input"}}`, `{"id":2,"source":"environment","observation":"agent_state_changed","extras":{"agent_state":"running"}}`}, ""},
	}
	for _, c := range cases {
		in := "[" + strings.Join(c.events, ",") + "]"
		tr, err := Parse(context.Background(), strings.NewReader(in), Options{Format: FormatOpenHands})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if tr.Session.EndSignal != c.want {
			t.Errorf("%s: end signal %q, want %q", c.name, tr.Session.EndSignal, c.want)
		}
	}
}

func TestSWEAgentEndSignal(t *testing.T) {
	t.Parallel()
	traj := func(action, status string) string {
		return `{"trajectory":[],"info":{"exit_status":"` + status + `"},"history":[
{"role":"system","content":"SETTING"},
{"role":"user","content":"fix issue 1"},
{"role":"assistant","content":"","thought":"t","action":"` + action + `"},
{"role":"user","content":"obs"}]}`
	}
	cases := []struct{ action, status, want string }{
		{"submit", "submitted", EndSubmitted},
		{"submit", "", EndSubmitted},
		{"ls", "exit_cost", "exit_cost"},
		{"ls", "submitted (exit_context)", "submitted (exit_context)"},
		{"ls", "", ""},
	}
	for _, c := range cases {
		tr, err := Parse(context.Background(), strings.NewReader(traj(c.action, c.status)), Options{Format: FormatSWEAgent})
		if err != nil {
			t.Fatal(err)
		}
		if tr.Session.EndSignal != c.want {
			t.Errorf("action %q status %q: end signal %q, want %q", c.action, c.status, tr.Session.EndSignal, c.want)
		}
	}
}

func TestConsoleAndAiderExit(t *testing.T) {
	t.Parallel()
	aider := "\n# aider chat started at 2025-01-01 10:00:00\n\n#### fix the bug  \n\nDone.\n\n#### /exit  \n"
	tr, err := Parse(context.Background(), strings.NewReader(aider), Options{Format: FormatAider})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Session.EndSignal != EndUserExited {
		t.Errorf("aider: end signal %q", tr.Session.EndSignal)
	}
	paste := "> fix the bug\n\n⏺ Fixed it.\n\n> /exit\n"
	tr, err = Parse(context.Background(), strings.NewReader(paste), Options{Format: FormatClaudeConsole})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Session.EndSignal != EndUserExited {
		t.Errorf("claude paste: end signal %q", tr.Session.EndSignal)
	}
}

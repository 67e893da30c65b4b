package transcript

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/handoff-cli/handoff"
)

// sharedDir holds the public transcripts the conformance test reads.
const sharedDir = "../../shared/transcripts"

// conformance is what each shared transcript holds, counted independently
// of this package by a python script over the raw files (json module for
// the JSON formats, line rules for the text ones, following each format's
// rules as the parsers' doc comments state them), then cross-checked
// against SOURCES.md and grep:
//
//   - Claude Code: is_error and compaction counts equal SOURCES.md.
//   - SWE-agent: system+user+assistant+tool = SOURCES' history sizes
//     (28, 26); pydicom's 3 failures are the three rejected edits.
//   - OpenHands basic.json: its 4 events are 1 user, 2 agent actions, 1
//     observation; -1 (still running) counts as a failed exit.
//   - SpecStory: 36/11/4 user headings as in SOURCES; 332 tool blocks
//     where SOURCES says 336, which counted four <tool-use-id> lines.
//     Agent headings with nothing under them are not messages (771 → 498).
//   - Claude Code paste: 47/68 prompts as in SOURCES; ⏺ bullets = text
//     turns + tool calls (day-005: 112 + 121 = 233); calls = the bullets
//     "⏺ Name(" (121 and 295), 19 and 4 of them wrapped over indented
//     lines (a long command, "… (ctrl+r to expand))"); failures are the
//     "⎿ Error…" and rejected-call results (the space after ⎿ is U+00A0,
//     which is why a plain grep finds none).
//   - Gemini paste: 40 prompts, 66 ✦ turns plus 8 turns that are only tool
//     runs; a grep finds 87 "│ ✔" lines, 15 of them inside a tool's output
//     (a pasted earlier session), which the parser rightly keeps as output.
//   - Codex rollouts (codex/): counted by a python script over the raw
//     lines. Failed = distinct results with a non-zero exit (header,
//     metadata.exit_code, or exec_command_end when the output had none)
//     or a header-less launch failure ("exec_command failed: SandboxDenied
//     …", "apply_patch verification failed: …"); a process continued by
//     write_stdin counts once, on the exec_command that started it (a
//     grep of non-zero headers finds 15+1 in ship, 12+2 in youtube-mcp).
//     Reasoning with no summary text does not split an assistant turn.
//   - pai-* (Claude Code 2.0.5x): the same script as the other Claude Code
//     files, which it reproduces exactly.
//   - Gemini fixture: the parser first counted two empty "model" records
//     (a cancelled request) as assistant turns; the count was right and
//     the parser now skips them.
//
// Columns: detected format; messages by role (user, assistant, system,
// tool); tool calls; tool results that failed (is_error or a non-zero
// exit code); compaction summaries.
var conformance = []struct {
	path                         string
	format                       Format
	user, assistant, system      int
	tool, calls, failed, compact int
}{
	{"aider-md/afi-core.aider.chat.history.md", FormatAider, 49, 43, 66, 1, 1, 0, 0}, // "!find …" is a shell call with its output
	{"aider-md/mozgoslav.aider.chat.history.md", FormatAider, 21, 16, 26, 0, 0, 0, 0},
	{"claude-code-console/bookminder-day-005.txt", FormatClaudeConsole, 47, 124, 0, 94, 121, 24, 1},
	{"claude-code-console/bookminder-day-010.txt", FormatClaudeConsole, 68, 281, 0, 250, 295, 49, 0},
	{"claude-code-console/bookminder-day-013-gemini-cli.txt", FormatGeminiConsole, 40, 74, 0, 58, 72, 0, 0},
	{"claude-code/ccviewer-mock-orchestrator-todo-app-438lines.jsonl", FormatClaudeCode, 8, 170, 0, 167, 167, 23, 0},
	{"claude-code/pai-703e4528-cc2.0.57-autocompact-askuser-api400.jsonl", FormatClaudeCode, 21, 98, 0, 120, 120, 2, 1},
	{"claude-code/pai-d6a37ffc-cc2.0.58-two-manual-compacts.jsonl", FormatClaudeCode, 28, 90, 0, 88, 89, 3, 2},
	{"claude-code/vsla-069508a5-summaries-64lines.jsonl", FormatClaudeCode, 6, 19, 0, 22, 22, 4, 0},
	{"claude-code/vsla-2cba43de-thinking-28lines.jsonl", FormatClaudeCode, 7, 11, 0, 7, 7, 0, 0},
	{"claude-code/vsla-5f8cbb78-sidechain-532lines.jsonl", FormatClaudeCode, 8, 207, 0, 208, 208, 39, 0},
	{"claude-code/vsla-9034225e-613lines.jsonl", FormatClaudeCode, 15, 229, 2, 219, 219, 18, 1},
	{"claude-code/vsla-d7d349f9-241lines.jsonl", FormatClaudeCode, 8, 90, 1, 85, 85, 8, 0},
	{"claude-code/vsla-gpu-cuda-727lines.jsonl", FormatClaudeCode, 26, 271, 1, 260, 260, 48, 2},
	{"claude-code/vsla-paper-0a725fb5-609lines.jsonl", FormatClaudeCode, 12, 212, 1, 209, 209, 17, 1},
	{"codex/chatbot-ui-codex0.58-shell-lmstudio.jsonl", FormatCodex, 2, 39, 0, 39, 39, 3, 0},
	{"codex/devmap-codex-exec1.17.7-rust-review.jsonl", FormatCodex, 2, 13, 1, 30, 36, 0, 0},
	{"codex/resting-codex0.120-tui-swift-sandbox-denied.jsonl", FormatCodex, 4, 50, 3, 85, 86, 8, 0},
	{"codex/ship-codex0.114-subagent-fork-coverage.jsonl", FormatCodex, 15, 120, 6, 195, 197, 16, 1},
	{"codex/test-framework-codex0.92-shell_command-gitflow.jsonl", FormatCodex, 10, 50, 1, 59, 59, 5, 0},
	{"codex/youtube-mcp-codex0.106-exec_command-tdd.jsonl", FormatCodex, 8, 70, 2, 123, 123, 14, 0},
	{"openhands-traj/basic.json", FormatOpenHands, 1, 2, 0, 1, 2, 0, 0},
	{"openhands-traj/basic_gui_mode.json", FormatOpenHands, 1, 5, 0, 4, 4, 1, 0},
	{"openhands-traj/wrong_initial_state.json", FormatOpenHands, 1, 4, 0, 3, 4, 0, 0},
	{"schema-fixtures/agent-sessions-claude-small-trimmed.jsonl", FormatClaudeCode, 7, 5, 2, 3, 3, 1, 2},
	{"schema-fixtures/agent-sessions-codex-small-trimmed.jsonl", FormatCodex, 7, 7, 3, 6, 7, 0, 6},
	{"schema-fixtures/agent-sessions-gemini-large.json", FormatGemini, 2, 4, 1, 2, 2, 1, 0},
	{"schema-fixtures/agent-sessions-gemini-v040.jsonl", FormatGemini, 1, 2, 0, 1, 1, 0, 0},
	{"specstory-md/specstory-claude-code-ok-lets-start-1.2MB.md", FormatSpecStory, 36, 498, 0, 332, 332, 3, 0},
	{"specstory-md/specstory-claude-code-release-audit.md", FormatSpecStory, 11, 98, 0, 37, 37, 3, 0},
	{"specstory-md/specstory-codex-cli-git-provenance.md", FormatSpecStory, 4, 86, 0, 55, 55, 0, 0},
	{"swe-agent-traj/marshmallow-1867-function-calling.traj", FormatSWEAgent, 1, 13, 1, 13, 13, 0, 0},
	{"swe-agent-traj/pydicom-1458-gpt4.traj", FormatSWEAgent, 1, 12, 2, 12, 12, 3, 0}, // the 12th result is the submit's patch, from info.submission
}

func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	if _, err := os.Stat(sharedDir); err != nil {
		t.Skipf("shared transcripts absent: %v", err)
	}
	listed := map[string]bool{}
	for _, c := range conformance {
		listed[c.path] = true
	}
	// Every file in the corpus must be in the table.
	files, _ := filepath.Glob(filepath.Join(sharedDir, "*", "*"))
	for _, f := range files {
		rel, _ := filepath.Rel(sharedDir, f)
		if !listed[filepath.ToSlash(rel)] {
			t.Errorf("%s is in the corpus but not in the conformance table", rel)
		}
	}
	for _, c := range conformance {
		t.Run(c.path, func(t *testing.T) {
			path := filepath.Join(sharedDir, c.path)
			if _, err := os.Stat(path); err != nil {
				t.Skipf("absent: %v", err)
			}
			if f, err := Detect(readHead(t, path)); err != nil || f != c.format {
				t.Fatalf("Detect = %q, %v; want %q", f, err, c.format)
			}
			tr, err := ParseFile(context.Background(), path, Options{Strict: true})
			if err != nil {
				t.Fatalf("ParseFile: %v", err)
			}
			checkInvariants(t, tr)
			if len(tr.Warnings) > 0 {
				t.Errorf("%d warnings, first %+v", len(tr.Warnings), tr.Warnings[0])
			}
			roles := map[handoff.Role]int{}
			var calls, failed, compact int
			for _, m := range tr.Messages {
				roles[m.Role]++
				calls += len(m.ToolCalls)
				for _, r := range m.ToolResults {
					if r.Failed() {
						failed++
					}
				}
				if m.CompactSummary {
					compact++
				}
			}
			got := [7]int{roles[handoff.RoleUser], roles[handoff.RoleAssistant], roles[handoff.RoleSystem], roles[handoff.RoleTool], calls, failed, compact}
			want := [7]int{c.user, c.assistant, c.system, c.tool, c.calls, c.failed, c.compact}
			if got != want {
				t.Errorf("user/assistant/system/tool/calls/failed/compactions = %v, want %v", got, want)
			}
		})
	}
}

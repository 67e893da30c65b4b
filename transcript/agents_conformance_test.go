package transcript

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// agentSamples are the reconstructed sessions of the agents read from
// their own stores (testdata/, each built from the agent's source as its
// decoder's doc comment cites), with what each holds counted by hand
// from the file: messages by role, tool calls, failed results, results
// left paired with no call, edit calls (a file_path next to content or a
// patch), plan calls, compaction summaries, interruptions, and messages
// that carry the provider's usage.
var agentSamples = []struct {
	path                          string
	format                        Format
	user, assistant, system, tool int
	calls, failed, edits, plans   int
	compact, interrupts, usage    int
}{
	// user: the person's two, a synthetic file read (Meta), the
	// compaction request (Meta) and the summary (a user-role
	// CompactSummary, as in Claude Code); assistant steps: bash+todowrite,
	// read (error)+edit, the aborted step's running bash; the abort.
	{"opencode-export.json", FormatOpenCode, 5, 3, 1, 2, 5, 2, 1, 1, 1, 1, 3},
	// user: two prompts and the compaction summary; system: the abort and
	// the rate-limit error; failed: bash's exit 1 and view's error; the
	// update_todo checklist is the plan; two assistant.usage events.
	{"copilot-events.jsonl", FormatCopilotCLI, 3, 3, 2, 4, 5, 2, 1, 1, 1, 1, 2}, // the second bash was aborted: no result
	// five assistant blocks (two said, three tool blocks), the Info block;
	// failed: bash's exit 1 under ✅ and ❌ view.
	{"copilot-share.md", FormatCopilotShare, 1, 5, 1, 3, 3, 2, 1, 0, 0, 0, 0},
	{"cursor-export.md", FormatCursorExport, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	// user: two prompts and the compaction summary; the overloaded request
	// (stopReason error) is a system message.
	{"pi-session.jsonl", FormatPi, 3, 2, 1, 2, 2, 1, 1, 0, 1, 0, 2},
	// the metadata's tokens are the last assistant message's usage; view
	// of a missing file failed.
	{"goose-session.jsonl", FormatGoose, 1, 3, 0, 2, 3, 1, 1, 0, 0, 0, 1},
	// three _usage lines, each the latest assistant turn's; the
	// "<system>ERROR" result failed.
	{"kimi-context.jsonl", FormatKimi, 1, 3, 0, 2, 2, 1, 1, 0, 0, 0, 3},
	// a turn per tool invocation (terminal, read, the text edit group) and
	// the closing text; the failed second request is a system message.
	{"vscode-chat.json", FormatVSCodeChat, 2, 5, 1, 3, 3, 1, 1, 0, 0, 0, 1},
	// the thinking message is not a turn; the edit's filepath/changes are
	// renamed file_path/diff.
	{"continue-session.json", FormatContinue, 1, 3, 0, 2, 2, 0, 1, 0, 0, 0, 0},
	// Anthropic blocks: the tool_result lines are tool messages.
	{"droid-session.jsonl", FormatDroid, 1, 3, 0, 2, 2, 1, 1, 0, 0, 0, 0},
	// user: two prompts (the file mention kept as @path); system: the
	// canceled call's stop and the Resume; failed: cargo test's exit 101,
	// the missing file, the canceled call; edit_file carries only a path
	// and a description (Zed's edit agent writes the text), so it is not
	// counted here; usage from request_token_usage by user message id.
	{"zed-thread.json", FormatZed, 2, 4, 2, 3, 4, 3, 0, 0, 0, 1, 2},
	// user: two prompts and the info summary (CompactSummary); the
	// cancelled turn's stop said once; failed: npm test exit 1 and the
	// cancelled Bash; edits: create_file and edit_file; todo_write plan.
	{"amp-thread.json", FormatAmp, 3, 3, 1, 3, 6, 2, 2, 1, 1, 1, 3},
	// user: two prompts and the chat_compression summary; failed: pytest
	// exit 1, the edit error, the cancelled run; todo_write is the plan.
	{"qwen-session.jsonl", FormatQwen, 3, 3, 1, 5, 5, 3, 1, 1, 1, 1, 3},
	// the .json sample as a mutation log: the same messages after the
	// retried request is cut away.
	{"vscode-chat.jsonl", FormatVSCodeChatLog, 2, 5, 1, 3, 3, 1, 1, 0, 0, 0, 1},
	// user: two requests and the CHECKPOINT summary; the SYSTEM_MESSAGE
	// is harness text; failed: the first test run's exit code 1; the
	// replace_file_content call is the edit (Cascade's argument names
	// renamed); no usage is recorded.
	{"antigravity-transcript.jsonl", FormatAntigravity, 3, 5, 1, 4, 4, 1, 1, 0, 1, 0, 0},
}

// sampleCounts are the figures agentSamples lists, from a transcript.
func sampleCounts(tr *handoff.Transcript) [11]int {
	roles := map[handoff.Role]int{}
	var calls, failed, edits, plans, compact, interrupts, usage int
	for _, m := range tr.Messages {
		roles[m.Role]++
		calls += len(m.ToolCalls)
		for _, c := range m.ToolCalls {
			var in map[string]any
			_ = json.Unmarshal(c.Input, &in)
			has := func(keys ...string) bool {
				for _, k := range keys {
					if _, ok := in[k]; ok {
						return true
					}
				}
				return false
			}
			_, todos := in["todos"]
			if has("file_path", "path") && has("content", "old_string", "old_str", "new_str", "file_text", "diff", "edits") || has("patch") {
				edits++
			}
			if todos {
				plans++
			}
		}
		for _, r := range m.ToolResults {
			if r.Failed() {
				failed++
			}
		}
		if m.CompactSummary {
			compact++
		}
		if m.Interrupt {
			interrupts++
		}
		if m.Usage != nil {
			usage++
		}
	}
	return [11]int{roles[handoff.RoleUser], roles[handoff.RoleAssistant], roles[handoff.RoleSystem], roles[handoff.RoleTool],
		calls, failed, edits, plans, compact, interrupts, usage}
}

func TestAgentSamples(t *testing.T) {
	t.Parallel()
	for _, c := range agentSamples {
		t.Run(c.path, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join("testdata", c.path)
			if f, err := Detect(readHead(t, path)); err != nil || f != c.format {
				t.Fatalf("Detect = %q, %v; want %q", f, err, c.format)
			}
			tr, err := ParseFile(context.Background(), path, Options{Strict: true})
			if err != nil {
				t.Fatalf("ParseFile: %v", err)
			}
			checkInvariants(t, tr)
			checkPairs(t, tr)
			if len(tr.Warnings) > 0 {
				t.Errorf("%d warnings, first %+v", len(tr.Warnings), tr.Warnings[0])
			}
			want := [11]int{c.user, c.assistant, c.system, c.tool, c.calls, c.failed, c.edits, c.plans, c.compact, c.interrupts, c.usage}
			if got := sampleCounts(tr); got != want {
				t.Errorf("user/assistant/system/tool/calls/failed/edits/plans/compact/interrupts/usage = %v, want %v", got, want)
			}
			if tr.Session.Agent == "" {
				t.Error("no agent named")
			}
		})
	}
}

// checkPairs fails when a tool result names a call id no earlier call
// has.
func checkPairs(tb testing.TB, tr *handoff.Transcript) {
	tb.Helper()
	calls := map[string]bool{}
	for _, m := range tr.Messages {
		for _, c := range m.ToolCalls {
			calls[c.ID] = true
		}
		for _, r := range m.ToolResults {
			if r.CallID != "" && !calls[r.CallID] {
				tb.Errorf("message %d: result for %q has no call before it", m.Index, r.CallID)
			}
			if strings.TrimSpace(r.Name) == "" {
				tb.Errorf("message %d: result for %q has no tool name", m.Index, r.CallID)
			}
		}
	}
}

package facts

import (
	"strings"
	"testing"
)

// TestHarnessWrapperHeadline: a harness's wrapper around a debug struct
// is never the headline: the payload's failing line is, with the
// sandbox's refusal said after it; a wrapper with no payload text gives
// its own words without the struct, and output without a wrapper is
// read as before.
func TestHarnessWrapperHeadline(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, content, want string
	}{
		{
			"codex CreateProcess around a sandbox denial",
			`exec_command failed: CreateProcess { message: "Codex(Sandbox(Denied { output: ExecToolCallOutput { exit_code: 255, stdout: StreamOutput { text: \"\", truncated_after_lines: None }, stderr: StreamOutput { text: \"error: cannot open '.git/FETCH_HEAD': Operation not permitted\\n\", truncated_after_lines: None }, aggregated_output: StreamOutput { text: \"error: cannot open '.git/FETCH_HEAD': Operation not permitted\\n\", truncated_after_lines: None }, duration: 0ns, timed_out: false }, network_policy_decision: None }))" }`,
			"error: cannot open '.git/FETCH_HEAD': Operation not permitted (SandboxDenied)",
		},
		{
			"SandboxDenied message",
			`exec_command failed: SandboxDenied { message: "network access denied: connect 127.0.0.1:5432 (os error 1)" }`,
			"network access denied: connect 127.0.0.1:5432 (os error 1) (SandboxDenied)",
		},
		{
			"wrapper naming the command, multi-line payload",
			"exec_command failed for `/bin/zsh -lc 'make test'`: SandboxDenied { message: \"running tests\\nTraceback (most recent call last):\\n  File \\\"t.py\\\", line 3\\nPermissionError: [Errno 1] Operation not permitted: '/tmp/x'\\n\" }",
			"PermissionError: [Errno 1] Operation not permitted: '/tmp/x' (SandboxDenied)",
		},
		{
			"a payload with no text",
			`exec_command failed: CreateProcess { message: "Codex(Sandbox(Denied { output: ExecToolCallOutput { exit_code: 1, stdout: StreamOutput { text: \"\" }, stderr: StreamOutput { text: \"\" }, aggregated_output: StreamOutput { text: \"\" } } }))" }`,
			"CreateProcess: SandboxDenied",
		},
		{
			"no wrapper",
			"Compiling...\nsrc/a.c:3:1: error: expected ';'\n",
			"src/a.c:3:1: error: expected ';'",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := failingLine(tt.content)
			if got != tt.want {
				t.Errorf("failingLine = %q, want %q", got, tt.want)
			}
			if strings.Contains(got, "{ ") {
				t.Errorf("headline %q holds the wrapper's struct", got)
			}
		})
	}
}

// TestRustString: a debug string literal is read to its closing quote,
// escapes undone; a literal cut before its quote gives what there is.
func TestRustString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		n        int
	}{
		{`"a\"b\\c\nd" rest`, "a\"b\\c\nd", 12},
		{`"caf\u{e9}"`, "café", 11},
		{`"cut short`, "cut short", 10},
		{`no quote`, "", 0},
	}
	for _, tt := range tests {
		got, n := rustString(tt.in)
		if got != tt.want || n != tt.n {
			t.Errorf("rustString(%q) = %q, %d; want %q, %d", tt.in, got, n, tt.want, tt.n)
		}
	}
}

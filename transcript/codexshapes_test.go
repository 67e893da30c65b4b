package transcript

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// parseTestdata parses a synthetic sample in testdata/.
func parseTestdata(t *testing.T, name string) *handoff.Transcript {
	t.Helper()
	tr, err := ParseFile(context.Background(), filepath.Join("testdata", name), Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, tr)
	return tr
}

// results indexes every tool result by call id.
func results(tr *handoff.Transcript) map[string]handoff.ToolResult {
	out := map[string]handoff.ToolResult{}
	for _, m := range tr.Messages {
		for _, r := range m.ToolResults {
			out[r.CallID] = r
		}
	}
	return out
}

func exitOf(r handoff.ToolResult) string {
	if r.ExitCode == nil {
		return "none"
	}
	return itoa(*r.ExitCode)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// A forked child rollout (FORMATS.md "Multi-agent"): two session_meta
// lines, the parent's history replayed up to the spawn call, then the
// child's own task.
func TestCodexSubagentChild(t *testing.T) {
	t.Parallel()
	tr := parseTestdata(t, "codex-subagent-child.jsonl")
	s := tr.Session
	if s.ID != "child-1" || s.Subagent != "Write table tests for parse.go only." || s.EndSignal != EndTaskComplete || s.GitBranch != "feature-x" {
		t.Errorf("session = %+v", s)
	}
	main := tr.MainThread()
	var firstUser string
	for _, m := range main {
		if m.Role == handoff.RoleUser && !m.Meta {
			firstUser = m.Text
			break
		}
	}
	if firstUser != s.Subagent {
		t.Errorf("first request on the main thread = %q, want the child's task", firstUser)
	}
	for _, m := range tr.Messages {
		if m.Line <= 11 && !m.Sidechain {
			t.Errorf("replayed parent line %d is not Sidechain", m.Line)
		}
		if m.Line > 11 && m.Sidechain {
			t.Errorf("child line %d is Sidechain", m.Line)
		}
	}
}

// The code-mode exec tool (FORMATS.md): nested tool calls become calls of
// their own with their own results and exit codes.
func TestCodexCodeMode(t *testing.T) {
	t.Parallel()
	tr := parseTestdata(t, "codex-code-mode.jsonl")
	var names []string
	inputs := map[string]string{}
	for _, m := range tr.Messages {
		for _, c := range m.ToolCalls {
			names = append(names, c.ID+"="+c.Name)
			inputs[c.ID] = string(c.Input)
		}
	}
	want := "call_js1=exec call_js1#1=shell_command call_js1#2=apply_patch call_js1#3=exec_command call_js2=exec call_js2#1=shell_command"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("calls = %s\nwant    %s", got, want)
	}
	var sh struct {
		Command   string `json:"command"`
		TimeoutMS int    `json:"timeout_ms"`
	}
	if err := json.Unmarshal([]byte(inputs["call_js1#1"]), &sh); err != nil || sh.Command != "go test ./..." || sh.TimeoutMS != 60000 {
		t.Errorf("shell_command input %s: %+v %v", inputs["call_js1#1"], sh, err)
	}
	var patch string
	if err := json.Unmarshal([]byte(inputs["call_js1#2"]), &patch); err != nil || !strings.HasPrefix(patch, "*** Begin Patch\n*** Update File: main.go") {
		t.Errorf("apply_patch input = %s", inputs["call_js1#2"])
	}
	if !strings.Contains(inputs["call_js1#3"], `"cmd":"go vet ./..."`) {
		t.Errorf("exec_command input = %s", inputs["call_js1#3"])
	}
	if !strings.Contains(inputs["call_js2#1"], `"code"`) {
		t.Errorf("a computed argument is kept as code: %s", inputs["call_js2#1"])
	}
	res := results(tr)
	for id, want := range map[string]string{"call_js1#1": "1", "call_js1#2": "0", "call_js1#3": "0", "call_js2#1": "2", "call_js1": "none"} {
		if got := exitOf(res[id]); got != want {
			t.Errorf("%s exit = %s, want %s", id, got, want)
		}
	}
	if !strings.Contains(res["call_js1#1"].Content, "main_test.go:9") || strings.Contains(res["call_js1#1"].Content, "Success.") {
		t.Errorf("shell_command result holds another call's output: %q", res["call_js1#1"].Content)
	}
	if !res["call_js2"].IsError || res["call_js1"].IsError {
		t.Errorf("script failure flags: js1 %v js2 %v", res["call_js1"].IsError, res["call_js2"].IsError)
	}
}

// exec_command sessions continued by write_stdin, exec_command_end, launch
// failures, patch verification failures, shell apply_patch and the
// turn_aborted end signal.
func TestCodexUnifiedExec(t *testing.T) {
	t.Parallel()
	tr := parseTestdata(t, "codex-unified-exec.jsonl")
	res := results(tr)
	cases := []struct {
		id, exit string
		isErr    bool
	}{
		{"call_a", "1", false},     // running, then write_stdin reported exit 1: it belongs to the run
		{"call_a2", "none", false}, // still running
		{"call_a3", "none", false}, // moved to call_a: one failed run counts once
		{"call_b", "2", false},     // exec_command_end gave the final status
		{"call_b2", "none", false}, // the same process's exit, already on call_b
		{"call_c", "none", true},   // SandboxDenied launch failure, no header
		{"call_d", "none", true},   // apply_patch verification failed
		{"call_e", "0", false},
		{"call_f", "0", false},
	}
	failed := 0
	for _, c := range cases {
		r, ok := res[c.id]
		if !ok {
			t.Errorf("%s: no result", c.id)
			continue
		}
		if got := exitOf(r); got != c.exit || r.IsError != c.isErr {
			t.Errorf("%s: exit %s error %v, want %s %v", c.id, got, r.IsError, c.exit, c.isErr)
		}
		if r.Failed() {
			failed++
		}
	}
	if failed != 4 {
		t.Errorf("%d failed results, want 4 (npm test, build, sandbox, patch)", failed)
	}
	if !strings.Contains(res["call_a"].Content, "expected 2, got 3") {
		t.Errorf("the continued run's failure text is not on its exec_command: %q", res["call_a"].Content)
	}
	if !strings.Contains(res["call_b"].Content, "TS2304") {
		t.Errorf("exec_command_end's output not attached: %q", res["call_b"].Content)
	}
	var shellPatchCall handoff.ToolCall
	var users []string
	for _, m := range tr.Messages {
		for _, c := range m.ToolCalls {
			if c.ID == "call_e" {
				shellPatchCall = c
			}
		}
		if m.Role == handoff.RoleUser && !m.Meta {
			users = append(users, m.Text)
		}
	}
	var patch string
	if shellPatchCall.Name != "apply_patch" || json.Unmarshal(shellPatchCall.Input, &patch) != nil || !strings.HasSuffix(patch, "*** End Patch") || strings.Contains(patch, "PATCH") {
		t.Errorf("shell apply_patch = %s %s", shellPatchCall.Name, shellPatchCall.Input)
	}
	if strings.Join(users, "|") != "run the suite and fix what fails|and also update the changelog" {
		t.Errorf("user words = %q", users)
	}
	if tr.Session.EndSignal != EndTurnAborted || tr.Session.GitBranch != "fix/flaky" || tr.Session.EndedAt.IsZero() {
		t.Errorf("session = %+v", tr.Session)
	}
}

func TestCodexEndSignalOnlyWhenLast(t *testing.T) {
	t.Parallel()
	base := `{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"s"}}
{"timestamp":"2026-01-01T00:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}}
{"timestamp":"2026-01-01T00:00:02Z","type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted"}}
`
	cases := map[string]string{
		"aborted last":              base,
		"aborted, then token count": base + `{"timestamp":"2026-01-01T00:00:03Z","type":"event_msg","payload":{"type":"token_count","info":null}}` + "\n",
		"aborted, then a new turn": base + `{"timestamp":"2026-01-01T00:00:03Z","type":"event_msg","payload":{"type":"task_started"}}
{"timestamp":"2026-01-01T00:00:04Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"again"}]}}
`,
		"completed": base + `{"timestamp":"2026-01-01T00:00:05Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]}}
{"timestamp":"2026-01-01T00:00:06Z","type":"event_msg","payload":{"type":"task_complete"}}
`,
	}
	want := map[string]string{"aborted last": EndTurnAborted, "aborted, then token count": EndTurnAborted, "aborted, then a new turn": EndTurnRunning, "completed": EndTaskComplete}
	for name, in := range cases {
		tr, err := Parse(context.Background(), strings.NewReader(in), Options{Format: FormatCodex, Strict: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if tr.Session.EndSignal != want[name] {
			t.Errorf("%s: end signal %q, want %q", name, tr.Session.EndSignal, want[name])
		}
	}
}

// The real Codex rollouts: injected text is Meta, the person's words are
// kept, the subagent rollout is resumed as the child's task, and failures
// are flagged.
func TestRealCodexFiles(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(sharedDir, "codex")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared transcripts absent: %v", err)
	}
	type want struct {
		firstUser, lastUser, branch, end, subagentPrefix string
		errorResults                                     int
	}
	files := map[string]want{
		"chatbot-ui-codex0.58-shell-lmstudio.jsonl":            {firstUser: "finish up the users work", lastUser: "finish up the users work", branch: "main"},
		"devmap-codex-exec1.17.7-rust-review.jsonl":            {firstUser: "Perform a rigorous, senior-level code review", lastUser: "Perform a rigorous", branch: "main", end: EndTaskComplete},
		"resting-codex0.120-tui-swift-sandbox-denied.jsonl":    {firstUser: ".agents/skills/speckit-implement", lastUser: ".agents/skills/speckit-git-commit", branch: "001-modernize-public-api", end: EndTurnRunning, errorResults: 1},
		"ship-codex0.114-subagent-fork-coverage.jsonl":         {firstUser: "Implement Batch 2 from the coverage plan", lastUser: "Coordinator update:", branch: "004-optimize-query-flows", end: EndTaskComplete, subagentPrefix: "Implement Batch 2 from the coverage plan"}, // its patch failure is in the replayed parent history
		"test-framework-codex0.92-shell_command-gitflow.jsonl": {firstUser: "CH", lastUser: "SC", branch: "main"},
		"youtube-mcp-codex0.106-exec_command-tdd.jsonl":        {firstUser: "When working on features and building plans", lastUser: "Did you not run the tests", branch: "main", end: EndTaskComplete, errorResults: 2},
	}
	for name, w := range files {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			if _, err := os.Stat(path); err != nil {
				t.Skipf("absent: %v", err)
			}
			tr, err := ParseFile(context.Background(), path, Options{Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			var users []string
			errs := 0
			for _, m := range tr.MainThread() {
				if m.Role == handoff.RoleUser && !m.Meta && !m.CompactSummary {
					users = append(users, m.Text)
					for _, bad := range []string{"<environment_context>", "AGENTS.md instructions", "<turn_aborted>", "You **MUST** consider the user input", "agent-activation"} {
						if strings.Contains(m.Text, bad) {
							t.Errorf("line %d: harness text %q taken as the user's words", m.Line, bad)
						}
					}
				}
				for _, r := range m.ToolResults {
					if r.IsError {
						errs++
					}
				}
			}
			if len(users) == 0 || !strings.HasPrefix(users[0], w.firstUser) || !strings.HasPrefix(users[len(users)-1], w.lastUser) {
				t.Errorf("user words: first %q last %q", first(users), last(users))
			}
			s := tr.Session
			if s.GitBranch != w.branch || s.EndSignal != w.end || !strings.HasPrefix(s.Subagent, w.subagentPrefix) || (w.subagentPrefix == "") != (s.Subagent == "") {
				t.Errorf("session: branch %q end %q subagent %.60q", s.GitBranch, s.EndSignal, s.Subagent)
			}
			if s.EndedAt.IsZero() || s.EndedAt.Before(s.StartedAt) {
				t.Errorf("span %v – %v", s.StartedAt, s.EndedAt)
			}
			if errs != w.errorResults {
				t.Errorf("%d results flagged IsError (launch and patch failures), want %d", errs, w.errorResults)
			}
		})
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func last(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}

// A session cut off between a command's end event and its output: the
// event's status and output become the result, once.
func TestCodexEndEventWithoutOutput(t *testing.T) {
	t.Parallel()
	in := `{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"s"}}
{"timestamp":"2026-01-01T00:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"build"}]}}
{"timestamp":"2026-01-01T00:00:02Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"make\"}","call_id":"c1"}}
{"timestamp":"2026-01-01T00:00:03Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"make test\"}","call_id":"c2"}}
{"timestamp":"2026-01-01T00:00:04Z","type":"event_msg","payload":{"type":"exec_command_end","call_id":"c1","exit_code":0,"aggregated_output":"built"}}
{"timestamp":"2026-01-01T00:00:05Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"Process exited with code 0\nOutput:\nbuilt"}}
{"timestamp":"2026-01-01T00:00:06Z","type":"event_msg","payload":{"type":"exec_command_end","call_id":"c2","exit_code":2,"aggregated_output":"FAIL: x"}}
`
	tr, err := Parse(context.Background(), strings.NewReader(in), Options{Format: FormatCodex, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, tr)
	var got []string
	for _, m := range tr.Messages {
		for _, r := range m.ToolResults {
			got = append(got, r.CallID+":"+exitOf(r)+":"+r.Content)
		}
	}
	want := "c1:0:Process exited with code 0\nOutput:\nbuilt|c2:2:FAIL: x"
	if strings.Join(got, "|") != want {
		t.Errorf("results = %q\nwant %q", strings.Join(got, "|"), want)
	}
}

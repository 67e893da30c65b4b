package transcript

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// codexRollout is a small rollout in the shape Codex CLI 0.4x–0.14x
// writes: metadata first, injected context, the user text twice (response
// item and event), a plan update, a failing shell call whose exit code
// comes in the output and a patch whose failure comes as an event, usage
// events, and a compaction.
const codexRollout = `{"timestamp":"2025-09-01T10:00:00Z","type":"session_meta","payload":{"id":"sess-1","cwd":"/repo","originator":"codex_cli_rs","cli_version":"0.46.0","git":{"branch":"main"}}}
{"timestamp":"2025-09-01T10:00:00Z","type":"turn_context","payload":{"cwd":"/repo","model":"gpt-5-codex"}}
{"timestamp":"2025-09-01T10:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>"}]}}
{"timestamp":"2025-09-01T10:00:02Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Fix the failing test"}]}}
{"timestamp":"2025-09-01T10:00:02Z","type":"event_msg","payload":{"type":"user_message","message":"Fix the failing test","images":[]}}
{"timestamp":"2025-09-01T10:00:03Z","type":"event_msg","payload":{"type":"task_started","model_context_window":272000}}
{"timestamp":"2025-09-01T10:00:04Z","type":"response_item","payload":{"type":"reasoning","summary":[{"type":"summary_text","text":"**Planning** the fix"}],"encrypted_content":"gAAA"}}
{"timestamp":"2025-09-01T10:00:05Z","type":"response_item","payload":{"type":"function_call","name":"update_plan","arguments":"{\"plan\":[{\"step\":\"Run tests\",\"status\":\"in_progress\"},{\"step\":\"Fix bug\",\"status\":\"pending\"}]}","call_id":"call_plan"}}
{"timestamp":"2025-09-01T10:00:05Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_plan","output":"Plan updated"}}
{"timestamp":"2025-09-01T10:00:06Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"go\",\"test\",\"./...\"]}","call_id":"call_1"}}
{"timestamp":"2025-09-01T10:00:07Z","type":"event_msg","payload":{"type":"exec_command_end","call_id":"call_1","exit_code":1,"stdout":"FAIL"}}
{"timestamp":"2025-09-01T10:00:07Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_1","output":"Exit code: 1\nWall time: 0.5 seconds\nOutput:\nFAIL x_test.go:3"}}
{"timestamp":"2025-09-01T10:00:08Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":90000000,"cached_input_tokens":80000000,"output_tokens":500000,"total_tokens":90500000},"last_token_usage":{"input_tokens":20000,"cached_input_tokens":15000,"output_tokens":300,"total_tokens":20300},"model_context_window":272000}}}
{"timestamp":"2025-09-01T10:00:09Z","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch\n*** Update File: x.go\n*** End Patch","call_id":"call_2"}}
{"timestamp":"2025-09-01T10:00:09Z","type":"event_msg","payload":{"type":"patch_apply_end","call_id":"call_2","success":false}}
{"timestamp":"2025-09-01T10:00:09Z","type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"call_2","output":"{\"output\":\"patch rejected\",\"metadata\":{\"exit_code\":1,\"duration_seconds\":0.0}}"}}
{"timestamp":"2025-09-01T10:00:10Z","type":"event_msg","payload":{"type":"token_count","info":null}}
{"timestamp":"2025-09-01T10:00:11Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"The patch did not apply."}]}}
{"timestamp":"2025-09-01T10:00:11Z","type":"event_msg","payload":{"type":"agent_message","message":"The patch did not apply."}}
{"timestamp":"2025-09-01T10:00:12Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":99000000,"output_tokens":600000},"last_token_usage":{"input_tokens":21000,"cached_input_tokens":20000,"output_tokens":40},"model_context_window":272000}}}
{"timestamp":"2025-09-01T10:05:00Z","type":"compacted","payload":{"message":"Summary: tests fail in x_test.go; patch rejected.","replacement_history":[]}}
{"timestamp":"2025-09-01T10:05:01Z","type":"compacted","payload":{"message":"","replacement_history":[{"type":"message","role":"user","content":[{"type":"input_text","text":"Fix the failing test"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"Earlier work: ran tests."}]}]}}
{"timestamp":"2025-09-01T10:05:02Z","type":"event_msg","payload":{"type":"error","message":"stream disconnected"}}
{"timestamp":"2025-09-01T10:05:03Z","type":"response_item","payload":{"type":"mystery_item"}}
`

func TestCodexRollout(t *testing.T) {
	t.Parallel()
	f, err := Detect([]byte(codexRollout))
	if err != nil || f != FormatCodex {
		t.Fatalf("Detect = %q, %v", f, err)
	}
	tr, err := Parse(context.Background(), strings.NewReader(codexRollout), Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, tr)
	s := tr.Session
	if s.ID != "sess-1" || s.CWD != "/repo" || s.Version != "0.46.0" || s.GitBranch != "main" || s.Model != "gpt-5-codex" || s.Agent != "codex" || s.ContextWindow != 272000 {
		t.Errorf("session = %+v", s)
	}
	var roles []string
	for _, m := range tr.Messages {
		roles = append(roles, string(m.Role))
	}
	want := "user user assistant tool assistant tool assistant tool assistant user user system"
	if got := strings.Join(roles, " "); got != want {
		t.Fatalf("roles = %s\nwant    %s", got, want)
	}
	m := tr.Messages
	if !m[0].Meta || m[1].Meta || m[1].Text != "Fix the failing test" {
		t.Errorf("user messages: %+v / %+v", m[0], m[1])
	}
	if m[2].Thinking != "**Planning** the fix" || m[2].ToolCalls[0].Name != "update_plan" {
		t.Errorf("plan message = %+v", m[2])
	}
	var plan struct {
		Plan []struct{ Step, Status string }
	}
	if err := json.Unmarshal(m[2].ToolCalls[0].Input, &plan); err != nil || len(plan.Plan) != 2 || plan.Plan[0].Status != "in_progress" {
		t.Errorf("update_plan input %s: %v", m[2].ToolCalls[0].Input, err)
	}
	r := m[5].ToolResults[0]
	if r.Name != "shell" || r.ExitCode == nil || *r.ExitCode != 1 || !r.Failed() {
		t.Errorf("shell result = %+v", r)
	}
	// Usage is the request's own prompt (last_token_usage), never the
	// cumulative total.
	if u := m[4].Usage; u == nil || u.ContextTokens() != 20000 || u.CacheReadInputTokens != 15000 || u.ContextWindow != 272000 {
		t.Errorf("usage after shell call = %+v", u)
	}
	if c := m[6].ToolCalls[0]; c.Name != "apply_patch" || !strings.HasPrefix(stringValue(c.Input), "*** Begin Patch") {
		t.Errorf("apply_patch call = %+v", c)
	}
	if r := m[7].ToolResults[0]; !r.IsError || r.ExitCode == nil || *r.ExitCode != 1 || !strings.Contains(r.Content, "patch rejected") {
		t.Errorf("apply_patch result = %+v", r)
	}
	if m[8].Text != "The patch did not apply." || m[8].Usage == nil || m[8].Usage.ContextTokens() != 21000 {
		t.Errorf("final answer = %+v", m[8])
	}
	if !m[9].CompactSummary || !strings.Contains(m[9].Text, "patch rejected") {
		t.Errorf("compaction = %+v", m[9])
	}
	if !m[10].CompactSummary || !strings.Contains(m[10].Text, "Earlier work") {
		t.Errorf("compaction from replacement history = %+v", m[10])
	}
	if m[11].Role != handoff.RoleSystem || !m[11].Meta || !strings.Contains(m[11].Text, "stream disconnected") {
		t.Errorf("error event = %+v", m[11])
	}
}

func TestCodexMalformedLine(t *testing.T) {
	t.Parallel()
	in := strings.Replace(codexRollout, `{"timestamp":"2025-09-01T10:00:06Z"`, `{"timestamp":"2025-09-01T10:00:06Z",`, 1)
	tr, err := Parse(context.Background(), strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Warnings) != 1 || tr.Warnings[0].Line != 10 {
		t.Errorf("warnings = %+v", tr.Warnings)
	}
	if _, err := Parse(context.Background(), strings.NewReader(in), Options{Strict: true}); handoff.ErrorCode(err) != handoff.EINVALID || !strings.Contains(err.Error(), "line 10") {
		t.Errorf("strict: %v", err)
	}
}

// TestCodexLegacyRollout reads the envelope-less rollouts early Codex CLI
// versions wrote: a header line, then bare response items.
func TestCodexLegacyRollout(t *testing.T) {
	t.Parallel()
	in := `{"id":"old-1","timestamp":"2025-04-20T10:00:00.000Z","instructions":""}
{"record_type":"state"}
{"type":"message","role":"user","content":[{"type":"input_text","text":"run the tests"}]}
{"type":"reasoning","id":"r1","summary":[{"type":"summary_text","text":"tests first"}]}
{"type":"function_call","name":"shell","arguments":"{\"command\":[\"pytest\"]}","call_id":"c1"}
{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"1 failed\",\"metadata\":{\"exit_code\":1,\"duration_seconds\":0.5}}"}
{"type":"message","role":"assistant","content":[{"type":"output_text","text":"One test fails."}]}
`
	if f, err := Detect([]byte(in)); err != nil || f != FormatCodex {
		t.Fatalf("Detect = %q, %v", f, err)
	}
	tr, err := Parse(context.Background(), strings.NewReader(in), Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range tr.Messages {
		got = append(got, describe(m))
	}
	want := []string{`L3 user text="run the tests"`, `L5 assistant thinking="tests first" call(c1 shell)`, `L6 tool result(c1 shell exit=1)`, `L7 assistant text="One test fails."`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || tr.Session.ID != "old-1" {
		t.Errorf("session %q, got:\n%s\nwant:\n%s", tr.Session.ID, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

package hooks

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/golden")

// golden compares got with testdata/golden/name, rewriting it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run with -update to create): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden\n got: %s\nwant: %s", name, got, want)
	}
}

func readPayload(t *testing.T, name string) *ClaudeInput {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "payloads", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in, err := ParseClaudeInput(f)
	if err != nil {
		t.Fatalf("ParseClaudeInput(%s): %v", name, err)
	}
	return in
}

func status(level capacity.Decision, fired bool, used, window int) capacity.Status {
	return capacity.Status{
		Level: level, Fired: fired, Utilization: float64(used) / float64(window),
		TokensUsed: used, TokensRemaining: window - used, ContextWindow: window, Source: handoff.UsageProvider,
	}
}

// resumePrompt quotes code on purpose: <, > and & must come out unescaped.
const resumePrompt = "# Resume: shop checkout\n\nGoal: make `go test ./...` pass.\nNext step: fix `if n < 0 && total > max` in cart.go.\n"

// TestClaudeHookGolden runs each recorded payload through parse, plan and
// output, and compares the plan and the exact stdout with golden files.
func TestClaudeHookGolden(t *testing.T) {
	var (
		none        = capacity.Status{}
		warnFired   = status(capacity.Warn, true, 144_000, 200_000)
		cpFired     = status(capacity.Checkpoint, true, 172_000, 200_000)
		cpQuiet     = status(capacity.Checkpoint, false, 176_000, 200_000)
		belowAll    = status(capacity.Continue, false, 20_000, 200_000)
		codexFilled = status(capacity.Checkpoint, true, 240_000, 272_000)
	)
	tests := []struct {
		name    string
		payload string
		status  capacity.Status
		// wantStdout says whether the hook prints anything.
		wantStdout bool
	}{
		{"precompact_auto", "precompact_auto.json", none, false},
		{"precompact_manual", "precompact_manual.json", none, false},
		{"sessionstart_compact", "sessionstart_compact.json", none, true},
		{"sessionstart_resume", "sessionstart_resume.json", none, true},
		{"sessionstart_startup", "sessionstart_startup.json", none, false},
		{"sessionstart_clear", "sessionstart_clear.json", none, false},
		{"stop_checkpoint_fired", "stop_active_false.json", cpFired, true},
		{"stop_checkpoint_fired_hook_active", "stop_active_true.json", cpFired, true},
		{"stop_after_wrap_up", "stop_active_true.json", cpQuiet, false},
		{"stop_checkpoint_already_handled", "stop_active_false.json", cpQuiet, false},
		{"stop_warn_fired", "stop_active_false.json", warnFired, true},
		{"stop_below_thresholds", "stop_active_false.json", belowAll, false},
		{"posttooluse_checkpoint_fired", "posttooluse_bash.json", cpFired, true},
		{"posttooluse_warn_fired", "posttooluse_bash.json", warnFired, true},
		{"posttooluse_quiet", "posttooluse_bash.json", cpQuiet, false},
		{"userpromptsubmit_checkpoint_fired", "userpromptsubmit.json", cpFired, true},
		{"userpromptsubmit_quiet", "userpromptsubmit.json", cpQuiet, false},
		{"subagentstop", "subagentstop.json", cpFired, false},
		{"unknown_event", "unknown_event.json", cpFired, false},
		{"codex_precompact", "codex_precompact.json", none, false},
		{"codex_stop_null_transcript", "codex_stop_null_transcript.json", codexFilled, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := readPayload(t, tc.payload)
			plan := PlanClaude(in, tc.status)
			prompt := ""
			if plan.InjectResume {
				prompt = resumePrompt
			}
			out, err := ClaudeOutput(in.HookEventName, plan.Reply(prompt))
			if code := ExitCode(err); code != 0 {
				t.Fatalf("exit code %d: %v", code, err)
			}
			if (len(out) > 0) != tc.wantStdout {
				t.Errorf("stdout %q, want output=%v", out, tc.wantStdout)
			}
			if len(out) > 0 {
				if !json.Valid(out) || out[len(out)-1] != '\n' || bytes.Count(out, []byte("\n")) != 1 {
					t.Errorf("stdout is not one line of JSON: %q", out)
				}
			}
			planJSON, err := json.MarshalIndent(plan, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name+".plan.json", append(planJSON, '\n'))
			golden(t, tc.name+".stdout", out)
		})
	}
}

// TestPlanInvariants checks the rules that keep the hooks safe whatever
// the status: never block a Stop when a stop hook is already active (that
// is how a hook keeps Claude running forever), never block anything but
// Stop, never snapshot without a transcript, never pause without a
// snapshot.
func TestPlanInvariants(t *testing.T) {
	payloads, err := filepath.Glob(filepath.Join("testdata", "payloads", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var statuses []capacity.Status
	for _, level := range []capacity.Decision{capacity.Continue, capacity.Warn, capacity.Checkpoint} {
		for _, fired := range []bool{false, true} {
			statuses = append(statuses, status(level, fired, 150_000, 200_000))
		}
	}
	for _, path := range payloads {
		in := readPayload(t, filepath.Base(path))
		for _, st := range statuses {
			p := PlanClaude(in, st)
			if p.BlockStop && (in.HookEventName != EventStop || in.StopHookActive) {
				t.Errorf("%s %+v: blocks a stop it must not block", path, st)
			}
			if p.Snapshot && p.TranscriptPath == "" {
				t.Errorf("%s %+v: snapshot without a transcript", path, st)
			}
			if p.PauseWorkflow && !p.Snapshot {
				t.Errorf("%s %+v: pause without a snapshot", path, st)
			}
			if p.Snapshot && !p.Trigger.Valid() {
				t.Errorf("%s %+v: invalid trigger %q", path, st, p.Trigger)
			}
			if p.Why == "" {
				t.Errorf("%s %+v: plan without a reason", path, st)
			}
			if _, err := ClaudeOutput(in.HookEventName, p.Reply(resumePrompt)); err != nil {
				t.Errorf("%s %+v: plan renders an invalid output: %v", path, st, err)
			}
		}
	}
}

func TestParseClaudeInputKnownEvents(t *testing.T) {
	tests := []struct {
		payload string
		event   string
		known   bool
	}{
		{"precompact_auto.json", EventPreCompact, true},
		{"sessionstart_compact.json", EventSessionStart, true},
		{"stop_active_true.json", EventStop, true},
		{"posttooluse_bash.json", EventPostToolUse, true},
		{"userpromptsubmit.json", EventUserPromptSubmit, true},
		{"subagentstop.json", EventSubagentStop, false},
		{"unknown_event.json", "PostCompact", false},
	}
	for _, tc := range tests {
		in := readPayload(t, tc.payload)
		if in.HookEventName != tc.event || in.Known() != tc.known {
			t.Errorf("%s: event %q known %v, want %q %v", tc.payload, in.HookEventName, in.Known(), tc.event, tc.known)
		}
	}
	post := readPayload(t, "posttooluse_bash.json")
	if post.ToolName != "Bash" || !json.Valid(post.ToolInput) || !json.Valid(post.ToolResponse) {
		t.Errorf("PostToolUse fields: %+v", post)
	}
	codex := readPayload(t, "codex_stop_null_transcript.json")
	if codex.TranscriptPath != "" || codex.Model != "gpt-5-codex" || codex.TurnID == "" || codex.LastAssistantMessage != "All tests pass." {
		t.Errorf("Codex fields: %+v", codex)
	}
}

func TestParseClaudeInputErrors(t *testing.T) {
	const base = `"session_id":"s1","transcript_path":"/t.jsonl"`
	tests := []struct {
		name  string
		input string
		want  string // substring of the error
	}{
		{"empty", "", "empty"},
		{"blank", " \n\t", "empty"},
		{"not JSON", "PreCompact auto", "not a JSON object"},
		{"array", `[{"hook_event_name":"Stop"}]`, "not a JSON object"},
		{"truncated", `{"session_id":"s1","hook_event_name":"Stop"`, "not a JSON object"},
		{"trailing data", `{` + base + `,"hook_event_name":"Stop"} {}`, "data after"},
		{"wrong type", `{` + base + `,"hook_event_name":"Stop","stop_hook_active":"yes"}`, "not a JSON object"},
		{"no event", `{` + base + `}`, "missing hook_event_name"},
		{"no session", `{"transcript_path":"/t.jsonl","hook_event_name":"Stop"}`, "Stop input is missing session_id"},
		{"no transcript key", `{"session_id":"s1","hook_event_name":"Stop"}`, "missing transcript_path"},
		{"precompact without trigger", `{` + base + `,"hook_event_name":"PreCompact"}`, "PreCompact input is missing trigger"},
		{"sessionstart without source", `{` + base + `,"hook_event_name":"SessionStart"}`, "missing source"},
		{"posttooluse without tool", `{` + base + `,"hook_event_name":"PostToolUse"}`, "missing tool_name"},
		{"several missing", `{"hook_event_name":"PreCompact"}`, "missing session_id, transcript_path and trigger"},
		{"null", `null`, "missing hook_event_name, session_id and transcript_path"},
	}
	for _, tc := range tests {
		_, err := ParseClaudeInput(strings.NewReader(tc.input))
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if handoff.ErrorCode(err) != handoff.EINVALID || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v (code %s), want EINVALID containing %q", tc.name, err, handoff.ErrorCode(err), tc.want)
		}
	}
}

func TestParseClaudeInputBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	big := `{"session_id":"s1","transcript_path":"/t","hook_event_name":"PostToolUse","tool_name":"Read","tool_response":"` +
		strings.Repeat("x", MaxInputBytes) + `"}`
	_, err := ParseClaudeInput(strings.NewReader(big))
	if handoff.ErrorCode(err) != handoff.EINVALID || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("oversized input: %v", err)
	}
	// A reader that fails is reported as it is, not as bad input.
	_, err = ParseClaudeInput(iotest.ErrReader(os.ErrClosed))
	if err == nil || handoff.ErrorCode(err) == handoff.EINVALID {
		t.Errorf("failing reader: %v", err)
	}
}

func TestClaudeOutput(t *testing.T) {
	tests := []struct {
		name  string
		event string
		reply Reply
		want  string // exact stdout; "" for none
		err   bool
	}{
		{"nothing to say", EventStop, Reply{}, "", false},
		{"session start context", EventSessionStart, Reply{Context: "a < b && c > d"},
			`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"a < b && c > d"}}` + "\n", false},
		{"stop block", EventStop, Reply{BlockReason: "wrap up"}, `{"decision":"block","reason":"wrap up"}` + "\n", false},
		{"subagent stop block", EventSubagentStop, Reply{BlockReason: "wrap up"}, `{"decision":"block","reason":"wrap up"}` + "\n", false},
		{"post tool use both", EventPostToolUse, Reply{Context: "c", BlockReason: "r", SystemMessage: "m"},
			`{"decision":"block","reason":"r","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"c"},"systemMessage":"m"}` + "\n", false},
		{"system message anywhere", EventPreCompact, Reply{SystemMessage: "saved"}, `{"systemMessage":"saved"}` + "\n", false},
		{"no context on stop", EventStop, Reply{Context: "x"}, "", true},
		{"no context on precompact", EventPreCompact, Reply{Context: "x"}, "", true},
		{"no block on session start", EventSessionStart, Reply{BlockReason: "x"}, "", true},
		{"no block on precompact", EventPreCompact, Reply{BlockReason: "x"}, "", true},
	}
	for _, tc := range tests {
		got, err := ClaudeOutput(tc.event, tc.reply)
		if (err != nil) != tc.err {
			t.Errorf("%s: err = %v, want error %v", tc.name, err, tc.err)
			continue
		}
		if err != nil && handoff.ErrorCode(err) != handoff.EINVALID {
			t.Errorf("%s: code %s", tc.name, handoff.ErrorCode(err))
		}
		if string(got) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

func TestExitCode(t *testing.T) {
	if ExitCode(nil) != 0 || ExitCode(handoff.Errorf(handoff.EUNAVAILABLE, "database is locked")) != 1 {
		t.Error("ExitCode must be 0 on success and 1 (never 2) on error")
	}
}

func TestFillPhrase(t *testing.T) {
	tests := []struct {
		st   capacity.Status
		want string
	}{
		{status(capacity.Checkpoint, true, 172_000, 200_000), "86% full (172,000 of 200,000 tokens)"},
		{status(capacity.Warn, true, 700, 1000), "70% full (700 of 1,000 tokens)"},
		{status(capacity.Checkpoint, true, 1_234_567, 1_000_000), "123% full (1,234,567 of 1,000,000 tokens)"},
	}
	for _, tc := range tests {
		if got := fillPhrase(tc.st); got != tc.want {
			t.Errorf("fillPhrase = %q, want %q", got, tc.want)
		}
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/transcript"
)

const codexSample = `{"timestamp":"2025-09-01T10:00:00Z","type":"session_meta","payload":{"id":"sess-1","cwd":"/repo","cli_version":"0.46.0"}}
{"timestamp":"2025-09-01T10:00:01Z","type":"turn_context","payload":{"model":"gpt-5-codex"}}
{"timestamp":"2025-09-01T10:00:02Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"deploy with key sk-proj-FAKEfakeFAKEfake1234567890abcdefABCDEF"}]}}
{"timestamp":"2025-09-01T10:00:03Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"make\"]}","call_id":"c1"}}
{"timestamp":"2025-09-01T10:00:04Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"Exit code: 2\nOutput:\nmake: *** no rule"}}
{"timestamp":"2025-09-01T10:00:05Z","type":"response_item",
{"timestamp":"2025-09-01T10:00:06Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"make failed"}]}}
`

func TestParseJSON(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "rollout.jsonl")
	if err := os.WriteFile(path, []byte(codexSample), 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "h.db")
	r := runCLI(t, db, "", "parse", path, "--json")
	if r.err != nil {
		t.Fatalf("parse: %v\n%s", r.err, r.stderr)
	}
	var tr handoff.Transcript
	if err := json.Unmarshal([]byte(r.stdout), &tr); err != nil {
		t.Fatalf("stdout is not a transcript: %v\n%s", err, r.stdout)
	}
	if tr.Session.Format != "codex" || tr.Session.ID != "sess-1" || tr.Session.Model != "gpt-5-codex" || tr.Session.Source != path {
		t.Errorf("session = %+v", tr.Session)
	}
	var roles []string
	for _, m := range tr.Messages {
		roles = append(roles, string(m.Role))
	}
	if got := strings.Join(roles, " "); got != "user assistant tool assistant" {
		t.Errorf("roles = %s", got)
	}
	if res := tr.Messages[2].ToolResults; len(res) != 1 || res[0].ExitCode == nil || *res[0].ExitCode != 2 || res[0].Name != "shell" {
		t.Errorf("tool result = %+v", res)
	}
	if len(tr.Warnings) != 1 || tr.Warnings[0].Line != 6 {
		t.Errorf("warnings = %+v", tr.Warnings)
	}
	if strings.Contains(r.stdout, "sk-proj-FAKE") {
		t.Error("the API key was printed")
	}
	if !strings.Contains(r.stderr, "parsed 4 messages as codex, 1 warnings, 1 secrets redacted") {
		t.Errorf("stderr = %q", r.stderr)
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("parse touched the database")
	}
}

func TestParseTableAndErrors(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "h.db")
	r := runCLI(t, db, codexSample, "parse", "--format", "rollout")
	if r.err != nil {
		t.Fatalf("parse: %v\n%s", r.err, r.stderr)
	}
	for _, want := range []string{"format codex  session sess-1", "tool", "result shell failed", "call shell", "warning: line 6:"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, r.stdout)
		}
	}

	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		msg   string
	}{
		{"strict fails on the bad record", codexSample, []string{"parse", "--strict"}, exitInvalid, "line 6"},
		{"unknown format lists the supported ones", codexSample, []string{"parse", "--format", "wat"}, exitInvalid, "(supported: auto, "},
		{"missing file", "", []string{"parse", "/nonexistent/x.jsonl"}, exitNotFound, "does not exist"},
		{"unrecognised JSON", `{"hello":"world"}`, []string{"parse"}, exitInvalid, "unrecognised JSON transcript"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, db, tt.stdin, tt.args...)
			if exitCode(r.err) != tt.code || !strings.Contains(r.stderr, tt.msg) || r.stdout != "" {
				t.Errorf("exit %d (%v), stderr %q, stdout %q; want exit %d mentioning %q", exitCode(r.err), r.err, r.stderr, r.stdout, tt.code, tt.msg)
			}
		})
	}
}

func TestFormatsJSON(t *testing.T) {
	t.Parallel()
	r := runCLI(t, filepath.Join(t.TempDir(), "h.db"), "", "formats", "--json")
	if r.err != nil {
		t.Fatal(r.err)
	}
	var got []transcript.FormatInfo
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(transcript.Formats()) {
		t.Fatalf("%d formats printed, %d supported", len(got), len(transcript.Formats()))
	}
	table := runCLI(t, filepath.Join(t.TempDir(), "h.db"), "", "formats")
	for _, f := range got {
		if !strings.Contains(table.stdout, string(f.Name)) {
			t.Errorf("table lacks %s", f.Name)
		}
	}
}

// TestParseSharedCorpus runs parse on one real file per directory of the
// shared corpus, when present.
func TestParseSharedCorpus(t *testing.T) {
	t.Parallel()
	dirs, _ := filepath.Glob("../../../shared/transcripts/*")
	if len(dirs) == 0 {
		t.Skip("shared transcripts absent")
	}
	for _, d := range dirs {
		files, _ := filepath.Glob(filepath.Join(d, "*"))
		if len(files) == 0 {
			continue
		}
		r := runCLI(t, filepath.Join(t.TempDir(), "h.db"), "", "parse", files[0], "--json", "--strict")
		if r.err != nil {
			t.Errorf("%s: %v\n%s", files[0], r.err, r.stderr)
			continue
		}
		var tr handoff.Transcript
		if err := json.Unmarshal([]byte(r.stdout), &tr); err != nil || len(tr.Messages) == 0 {
			t.Errorf("%s: %v, %d messages", files[0], err, len(tr.Messages))
		}
	}
}

// TestCodexPlanReachesSnapshot checks end to end that a Codex update_plan
// call becomes the snapshot's task list and that the context usage comes
// from last_token_usage against model_context_window.
func TestCodexPlanReachesSnapshot(t *testing.T) {
	t.Parallel()
	rollout := `{"timestamp":"2025-09-01T10:00:00Z","type":"session_meta","payload":{"id":"sess-2","cwd":"/repo"}}
{"timestamp":"2025-09-01T10:00:01Z","type":"turn_context","payload":{"model":"gpt-5-codex"}}
{"timestamp":"2025-09-01T10:00:02Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Add retries to the HTTP client"}]}}
{"timestamp":"2025-09-01T10:00:03Z","type":"response_item","payload":{"type":"function_call","name":"update_plan","arguments":"{\"plan\":[{\"step\":\"Write retry wrapper\",\"status\":\"completed\"},{\"step\":\"Add backoff tests\",\"status\":\"in_progress\"}]}","call_id":"p1"}}
{"timestamp":"2025-09-01T10:00:03Z","type":"response_item","payload":{"type":"function_call_output","call_id":"p1","output":"Plan updated"}}
{"timestamp":"2025-09-01T10:00:04Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":50000000,"output_tokens":10},"last_token_usage":{"input_tokens":136000,"cached_input_tokens":100000,"output_tokens":10},"model_context_window":272000}}}
{"timestamp":"2025-09-01T10:00:05Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Wrapper done; writing backoff tests next."}]}}
`
	r := runCLI(t, filepath.Join(t.TempDir(), "h.db"), rollout, "compile", "--no-store", "--no-git", "--json")
	if r.err != nil {
		t.Fatalf("compile: %v\n%s", r.err, r.stderr)
	}
	var snap handoff.Snapshot
	if err := json.Unmarshal([]byte(r.stdout), &snap); err != nil {
		t.Fatal(err)
	}
	if len(snap.Tasks) != 2 || snap.Tasks[1].Content != "Add backoff tests" || snap.Tasks[1].Status != handoff.TaskInProgress {
		t.Errorf("tasks = %+v", snap.Tasks)
	}
	// 136000 prompt tokens of the last request, plus the reply after it;
	// never the 50M cumulative total.
	if u := snap.Usage; u.ContextWindow != 272000 || u.TokensUsed < 136000 || u.TokensUsed > 137000 || u.Source != "provider" {
		t.Errorf("usage = %+v, want about 136000 of 272000 from the provider", u)
	}
}

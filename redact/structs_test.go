package redact

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestTranscriptRedactsEveryField(t *testing.T) {
	exit := 1
	tr := &handoff.Transcript{
		Session: handoff.SessionInfo{
			ID:        "s1",
			Format:    "claude-code",
			Source:    "/tmp/" + fakeGitHub + ".jsonl",
			CWD:       "/home/dev/app",
			GitBranch: "fix/" + fakeAWSID,
		},
		Warnings: []handoff.ParseWarning{{Line: 3, Reason: "bad line: password=hunter22"}},
		Messages: []handoff.Message{
			{Index: 0, Role: handoff.RoleUser, Text: "here is my key " + fakeOpenAI},
			{Index: 1, Role: handoff.RoleAssistant, Thinking: "the user gave " + fakeOpenAI, Text: "ok",
				ToolCalls: []handoff.ToolCall{
					{ID: "c1", Name: "Bash", Input: json.RawMessage(`{"command":"curl -H 'Authorization: Bearer abcdef0123456789ABCDEF' https://api.example.com <x> & y","description":"call api"}`)},
					{ID: "c2", Name: "Write", Input: json.RawMessage(`{"file_path":".env","content":"DB_PASSWORD=correcthorse9\n","env":{"GITHUB_TOKEN":"plainvalue99","count":3}}`)},
					{ID: "c3", Name: "apply_patch", Input: json.RawMessage(`"*** Add File: k.pem\n+` + strings.ReplaceAll(fakePEM, "\n", `\n+`) + `"`)},
					{ID: "c4", Name: "Broken", Input: json.RawMessage(`{"command": "echo ` + fakeStripe + `"`)},
					{ID: "c5", Name: "Read", Input: json.RawMessage(`{"file_path":"/a/b.go","limit":20}`)},
				}},
			{Index: 2, Role: handoff.RoleTool, ToolResults: []handoff.ToolResult{
				{CallID: "c1", Content: `{"access_token":"` + fakeJWT + `"}`, ExitCode: &exit},
			}},
		},
	}
	n := Transcript(tr)
	if n < 10 {
		t.Errorf("Transcript redacted %d secrets, want at least 10", n)
	}
	all, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{fakeGitHub, fakeAWSID, "hunter22", fakeOpenAI, "abcdef0123456789ABCDEF", "correcthorse9", "plainvalue99", "MIIEowIBAAKCAQEA", fakeStripe, fakeJWT} {
		if strings.Contains(string(all), secret) {
			t.Errorf("secret %q survived in %s", secret, all)
		}
	}
	for i, c := range tr.Messages[1].ToolCalls {
		if !json.Valid(c.Input) {
			t.Errorf("tool call %d input is not valid JSON after redaction: %s", i, c.Input)
		}
	}
	var bash struct{ Command, Description string }
	if err := json.Unmarshal(tr.Messages[1].ToolCalls[0].Input, &bash); err != nil {
		t.Fatal(err)
	}
	if want := "curl -H 'Authorization: Bearer [redacted:bearer]' https://api.example.com <x> & y"; bash.Command != want {
		t.Errorf("bash command = %q, want %q", bash.Command, want)
	}
	if got := string(tr.Messages[1].ToolCalls[4].Input); got != `{"file_path":"/a/b.go","limit":20}` {
		t.Errorf("input without secrets was rewritten: %s", got)
	}
	var broken string
	if err := json.Unmarshal(tr.Messages[1].ToolCalls[3].Input, &broken); err != nil || !strings.Contains(broken, "[redacted:stripe]") {
		t.Errorf("invalid JSON input should become a redacted JSON string, got %s (%v)", tr.Messages[1].ToolCalls[3].Input, err)
	}
	if tr.Session.CWD != "/home/dev/app" || tr.Messages[1].Text != "ok" {
		t.Error("text without secrets changed")
	}
}

func TestSnapshotRedactsEveryStringField(t *testing.T) {
	s := &handoff.Snapshot{
		Goal:     "deploy with " + fakeOpenAI,
		NextStep: "run with password=hunter22",
		Tasks:    []handoff.Task{{ID: "1", Content: "rotate " + fakeGitHub, Status: handoff.TaskPending}},
		Decisions: []handoff.Decision{{ID: "d1", Description: "use key " + fakeAnthropic,
			Alternatives: []string{"the " + fakeSlackBot + " bot"}}},
		Errors:        []handoff.ErrorRecord{{ID: "e1", Message: "401 for Bearer abcdef0123456789ABCDEF", Command: "curl https://admin:s3cretPw@x.io"}},
		TestState:     &handoff.TestState{Command: "go test", Summary: "FAIL " + fakeAWSID},
		GitState:      &handoff.GitState{Branch: "b-" + fakeGoogle, Modified: []string{"x"}},
		FilesModified: []handoff.FileChange{{Path: "/tmp/" + fakeStripe}},
		Usage:         handoff.Usage{Model: "m", Extraction: &handoff.ExtractionUsage{Model: fakeOpenAIOld}},
	}
	n := Snapshot(s)
	if n != 11 {
		t.Errorf("Snapshot redacted %d, want 11", n)
	}
	all, _ := json.Marshal(s)
	for _, secret := range []string{fakeOpenAI, "hunter22", fakeGitHub, fakeAnthropic, fakeSlackBot, "abcdef0123456789ABCDEF", fakeAWSID, fakeGoogle, fakeStripe, fakeOpenAIOld, "s3cretPw"} {
		if strings.Contains(string(all), secret) {
			t.Errorf("secret %q survived", secret)
		}
	}
	if Snapshot(nil) != 0 || Transcript(nil) != 0 {
		t.Error("nil input should redact nothing")
	}
}

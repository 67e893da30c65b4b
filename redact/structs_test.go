package redact

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestTranscriptRedactsEveryField(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// fillStrings sets every settable string reachable from v (exported
// fields, one element per slice, one entry per map, allocated pointers) to
// a text holding secret, and json.RawMessage fields to a JSON object
// holding it. It returns how many it set.
func fillStrings(v reflect.Value, secret string, depth int) int {
	if depth > 8 {
		return 0
	}
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString("note " + secret + " end")
			return 1
		}
	case reflect.Pointer:
		if v.IsNil() && v.CanSet() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		if !v.IsNil() {
			return fillStrings(v.Elem(), secret, depth+1)
		}
	case reflect.Struct:
		n := 0
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				n += fillStrings(v.Field(i), secret, depth+1)
			}
		}
		return n
	case reflect.Slice:
		if v.Type() == rawMessageType {
			v.SetBytes([]byte(`{"command":"echo ` + secret + `","n":1}`))
			return 1
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return 0
		}
		s := reflect.MakeSlice(v.Type(), 1, 1)
		n := fillStrings(s.Index(0), secret, depth+1)
		v.Set(s)
		return n
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k := reflect.New(v.Type().Key()).Elem()
		n := fillStrings(k, secret, depth+1)
		val := reflect.New(v.Type().Elem()).Elem()
		n += fillStrings(val, secret, depth+1)
		m.SetMapIndex(k, val)
		v.Set(m)
		return n
	}
	return 0
}

// collectStrings returns every string reachable from v, map keys and
// raw JSON included.
func collectStrings(v reflect.Value, out *[]string) {
	switch v.Kind() {
	case reflect.String:
		*out = append(*out, v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			collectStrings(v.Elem(), out)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				collectStrings(v.Field(i), out)
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			*out = append(*out, string(v.Bytes()))
			return
		}
		for i := 0; i < v.Len(); i++ {
			collectStrings(v.Index(i), out)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			collectStrings(k, out)
			collectStrings(v.MapIndex(k), out)
		}
	}
}

// TestEveryStringFieldIsRedacted fills every string field of Snapshot
// and Transcript — whatever fields they have today or gain later — with a
// secret, redacts, and checks that none remains anywhere. A new field
// that redaction skipped would fail here without this test changing.
func TestEveryStringFieldIsRedacted(t *testing.T) {
	t.Parallel()
	secret := "ghp_" + "Zq8Lm2Nx4Vb6Tc1Rk9Jh3Gf5Dd7Ss0Aa2Pq4"
	for _, tt := range []struct {
		name string
		ptr  any
	}{
		{"Snapshot", &handoff.Snapshot{}},
		{"Transcript", &handoff.Transcript{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := reflect.ValueOf(tt.ptr).Elem()
			filled := fillStrings(v, secret, 0)
			if filled < 5 {
				t.Fatalf("filled only %d string fields", filled)
			}
			var n int
			switch p := tt.ptr.(type) {
			case *handoff.Snapshot:
				n = Snapshot(p)
			case *handoff.Transcript:
				n = Transcript(p)
			}
			if n < filled {
				t.Errorf("redacted %d secrets in %d filled fields", n, filled)
			}
			var all []string
			collectStrings(v, &all)
			for _, s := range all {
				if strings.Contains(s, secret[:16]) || strings.Contains(s, secret[20:]) {
					t.Errorf("secret survived in a field: %q", s)
				}
			}
			if _, err := json.Marshal(tt.ptr); err != nil {
				t.Errorf("redacted %s does not marshal: %v", tt.name, err)
			}
		})
	}
}

// TestSnapshotNewFields names the snapshot fields added for where a
// session stopped, so their redaction is checked by name as well.
func TestSnapshotNewFields(t *testing.T) {
	t.Parallel()
	s := &handoff.Snapshot{}
	v := reflect.ValueOf(s).Elem()
	for _, name := range []string{"LatestRequest", "Requests", "Constraints", "EndState", "Commits", "Recent", "Source"} {
		if !v.FieldByName(name).IsValid() {
			t.Errorf("Snapshot has no field %s", name)
		}
	}
	fillStrings(v, "sk-"+"proj-Zq8Lm2Nx4Vb6Tc1Rk9Jh3Gf5Dd7Ss0Aa2Pq4", 0)
	Snapshot(s)
	out, _ := json.Marshal(s)
	if strings.Contains(string(out), "Zq8Lm2Nx4Vb6Tc1Rk9Jh3") {
		t.Errorf("secret survived: %s", out)
	}
}

package hooks

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

const testHandoffPath = "/usr/local/bin/handoff"

func readSettings(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "settings", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decodeAny(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("merged settings are not JSON: %v\n%s", err, b)
	}
	return v
}

// handoffCommands lists, per event, the hook commands that run handoff.
func handoffCommands(t *testing.T, settings []byte, agent string) map[string][]string {
	t.Helper()
	var v struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(settings, &v); err != nil {
		t.Fatalf("settings: %v", err)
	}
	out := map[string][]string{}
	for event, groups := range v.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if isHandoffHook(h.Command, agent) {
					out[event] = append(out[event], g.Matcher+" => "+h.Command)
				}
			}
		}
	}
	return out
}

func TestClaudeSettingsGolden(t *testing.T) {
	claude, err := ClaudeSettings(testHandoffPath)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "claude_settings.json", claude)
	codex, err := CodexHooks(testHandoffPath)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "codex_hooks.json", codex)

	want := map[string][]string{
		EventPreCompact:   {" => /usr/local/bin/handoff hook claude"},
		EventSessionStart: {"compact|resume => /usr/local/bin/handoff hook claude"},
		EventStop:         {" => /usr/local/bin/handoff hook claude"},
	}
	if got := handoffCommands(t, claude, "claude"); !reflect.DeepEqual(got, want) {
		t.Errorf("installed hooks = %v, want %v", got, want)
	}
	if got := handoffCommands(t, codex, "codex"); len(got) != 3 {
		t.Errorf("codex hooks = %v", got)
	}
}

func TestMergeClaudeSettings(t *testing.T) {
	fresh, err := ClaudeSettings(testHandoffPath)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		existing []byte
		golden   string // "" when the result must equal fresh
		// unchanged: the merge must return the input byte for byte.
		unchanged bool
	}{
		{"nil", nil, "", false},
		{"empty file", []byte("  \n"), "", false},
		{"empty object", []byte("{}"), "", false},
		{"hooks null", readSettings(t, "hooks_null.json"), "", false},
		{"unrelated keys and hooks", readSettings(t, "unrelated.json"), "merge_unrelated.json", false},
		{"already installed", fresh, "", true},
		{"installed in another form", readSettings(t, "installed_elsewhere.json"), "merge_installed_elsewhere.json", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := MergeClaudeSettings(tc.existing, testHandoffPath)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.unchanged:
				if !bytes.Equal(got, tc.existing) {
					t.Errorf("already-installed settings were rewritten:\n%s", got)
				}
			case tc.golden == "":
				if !bytes.Equal(got, fresh) {
					t.Errorf("got\n%s\nwant\n%s", got, fresh)
				}
			default:
				golden(t, tc.golden, got)
			}

			// Idempotent: merging again changes nothing, byte for byte.
			again, err := MergeClaudeSettings(got, testHandoffPath)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, got) {
				t.Errorf("second merge differs:\n%s\nvs\n%s", again, got)
			}

			// Exactly one handoff hook per installed event, unless the
			// person already had one of their own there.
			for event, cmds := range handoffCommands(t, got, "claude") {
				if len(cmds) != 1 {
					t.Errorf("%s has %d handoff hooks: %v", event, len(cmds), cmds)
				}
			}
			if n := len(handoffCommands(t, got, "claude")); n != 3 {
				t.Errorf("handoff runs on %d events, want 3", n)
			}
		})
	}
}

// TestMergeKeepsEverythingElse: every key, event and hook of the original
// survives the merge unchanged, and top-level keys keep their order.
func TestMergeKeepsEverythingElse(t *testing.T) {
	orig := readSettings(t, "unrelated.json")
	merged, err := MergeClaudeSettings(orig, testHandoffPath)
	if err != nil {
		t.Fatal(err)
	}
	before, after := decodeAny(t, orig), decodeAny(t, merged)
	for key, v := range before {
		if key == "hooks" {
			continue
		}
		if !reflect.DeepEqual(after[key], v) {
			t.Errorf("key %q changed: %v -> %v", key, v, after[key])
		}
	}
	beforeHooks, afterHooks := before["hooks"].(map[string]any), after["hooks"].(map[string]any)
	if !reflect.DeepEqual(afterHooks["PostToolUse"], beforeHooks["PostToolUse"]) {
		t.Errorf("PostToolUse hooks changed")
	}
	stop := afterHooks["Stop"].([]any)
	if len(stop) != 2 || !reflect.DeepEqual(stop[0], beforeHooks["Stop"].([]any)[0]) {
		t.Errorf("the existing Stop hook must stay first and unchanged: %v", stop)
	}
	order := func(b []byte) []string {
		obj, err := parseObject(b)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, m := range obj {
			keys = append(keys, m.key)
		}
		return keys
	}
	if got, want := order(merged), order(orig); !reflect.DeepEqual(got, want) {
		t.Errorf("top-level key order %v, want %v", got, want)
	}
	if !bytes.Contains(merged, []byte(`gofmt -l . && go vet ./... > /tmp/vet.log`)) {
		t.Errorf("shell operators were escaped:\n%s", merged)
	}
}

func TestMergeQuotesPaths(t *testing.T) {
	tests := []struct {
		path    string
		command string
	}{
		{"/usr/local/bin/handoff", "/usr/local/bin/handoff hook claude"},
		{"handoff", "handoff hook claude"},
		{"/Users/Jane Doe/bin/handoff", `'/Users/Jane Doe/bin/handoff' hook claude`},
		{"/opt/it's/handoff", `'/opt/it'\''s/handoff' hook claude`},
		{`C:\Tools\handoff.exe`, `'C:\Tools\handoff.exe' hook claude`},
	}
	for _, tc := range tests {
		got, err := ClaudeSettings(tc.path)
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		cmds := handoffCommands(t, got, "claude")
		if len(cmds[EventStop]) != 1 || cmds[EventStop][0] != " => "+tc.command {
			t.Errorf("%s: Stop hook %v, want %q", tc.path, cmds[EventStop], tc.command)
		}
		if words := shellWords(tc.command); words[0] != tc.path {
			t.Errorf("%s: the quoted command splits to %q", tc.path, words)
		}
		// Re-merging recognises the quoted form as installed.
		again, err := MergeClaudeSettings(got, "/other/handoff")
		if err != nil || !bytes.Equal(again, got) {
			t.Errorf("%s: re-merge with another path changed the file (err %v)", tc.path, err)
		}
	}
}

func TestMergeCodexLeavesClaudeHooksAlone(t *testing.T) {
	claude, err := ClaudeSettings(testHandoffPath)
	if err != nil {
		t.Fatal(err)
	}
	both, err := MergeCodexHooks(claude, testHandoffPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(handoffCommands(t, both, "claude")) != 3 || len(handoffCommands(t, both, "codex")) != 3 {
		t.Errorf("claude and codex hooks should sit side by side:\n%s", both)
	}
}

func TestMergeRejectsMalformedSettings(t *testing.T) {
	tests := []struct {
		name     string
		existing string
		path     string
		want     string
	}{
		{"not JSON", `{"model": "opus",`, testHandoffPath, "not a JSON object"},
		{"array", `[]`, testHandoffPath, "not a JSON object"},
		{"trailing data", `{} {}`, testHandoffPath, "not a JSON object"},
		{"comments", "{\n// mine\n\"model\": \"opus\"}", testHandoffPath, "not a JSON object"},
		{"hooks is a list", `{"hooks": []}`, testHandoffPath, `"hooks" is not a JSON object`},
		{"event is an object", `{"hooks": {"Stop": {"hooks": []}}}`, testHandoffPath, `"hooks.Stop" is not a list`},
		{"group is a string", `{"hooks": {"PreCompact": ["handoff hook claude"]}}`, testHandoffPath, `"hooks.PreCompact": matcher group 1`},
		{"empty path", `{}`, " ", "path of the handoff binary is empty"},
		{"newline in path", `{}`, "/bin/handoff\nrm -rf ~", "line break"},
	}
	for _, tc := range tests {
		_, err := MergeClaudeSettings([]byte(tc.existing), tc.path)
		if handoff.ErrorCode(err) != handoff.EINVALID || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want EINVALID containing %q", tc.name, err, tc.want)
		}
	}
}

func TestIsHandoffHook(t *testing.T) {
	tests := []struct {
		command string
		agent   string
		want    bool
	}{
		{"handoff hook claude", "claude", true},
		{"/usr/local/bin/handoff hook claude", "claude", true},
		{`"/opt/my tools/handoff" hook claude --db /tmp/h.db`, "claude", true},
		{`'C:\Tools\handoff.exe' hook claude`, "claude", true},
		{"handoff --db x.db hook claude", "claude", true},
		{"handoff hook codex", "claude", false},
		{"handoff compile", "claude", false},
		{"echo handoff hook claude", "claude", false},
		{"my-handoff-wrapper hook claude", "claude", false},
		{"", "claude", false},
	}
	for _, tc := range tests {
		if got := isHandoffHook(tc.command, tc.agent); got != tc.want {
			t.Errorf("isHandoffHook(%q, %s) = %v, want %v", tc.command, tc.agent, got, tc.want)
		}
	}
}

// TestMergeMinimalDiff: a hand-laid-out settings file keeps every line
// (the line before an insertion may gain a comma) and its indentation
// style; only handoff's hooks are added, indented like their neighbours.
func TestMergeMinimalDiff(t *testing.T) {
	tests := []struct {
		name, unit, doc string
	}{
		{"two spaces, unrelated", "  ", string(readSettings(t, "unrelated.json"))},
		{"four spaces, no hooks", "    ", "{\n    \"model\": \"opus\",\n    \"env\": {\"A\": \"1\"}\n}\n"},
		{"tabs, other events", "\t", "{\n\t\"hooks\": {\n\t\t\"PostToolUse\": []\n\t},\n\t\"z\": 1\n}"},
		{"empty hooks object", "  ", "{\n  \"hooks\": {},\n  \"model\": \"opus\"\n}\n"},
		{"event null", "  ", "{\n  \"hooks\": {\n    \"Stop\": null\n  }\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			merged, err := MergeClaudeSettings([]byte(tt.doc), testHandoffPath)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(handoffCommands(t, merged, "claude")); n != 3 {
				t.Errorf("handoff runs on %d events, want 3:\n%s", n, merged)
			}
			orig := strings.Split(tt.doc, "\n")
			got := strings.Split(string(merged), "\n")
			j := 0
			for _, l := range got {
				if j < len(orig) && (l == orig[j] || l == orig[j]+"," || l == strings.TrimSuffix(strings.Replace(orig[j], "{}", "{", 1), ",") || strings.Contains(orig[j], "null") && strings.HasPrefix(l, strings.TrimSuffix(orig[j], "null"))) {
					j++
					continue
				}
				// An added line: indented with the file's own unit.
				indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
				if strings.ReplaceAll(indent, tt.unit, "") != "" {
					t.Errorf("added line %q is not indented with %q", l, tt.unit)
				}
			}
			if j != len(orig) {
				t.Errorf("original line %d %q is gone or changed:\n%s", j+1, orig[j], merged)
			}
			if strings.HasSuffix(tt.doc, "\n") != bytes.HasSuffix(merged, []byte("\n")) {
				t.Error("the trailing newline changed")
			}
		})
	}
}

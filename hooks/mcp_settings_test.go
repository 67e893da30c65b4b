package hooks

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestMergeClaudeMCP(t *testing.T) {
	const bin = "/opt/handoff dir/handoff"
	ours := `"handoff": {
      "type": "stdio",
      "command": "/opt/handoff dir/handoff",
      "args": [
        "mcp"
      ]
    }`
	tests := []struct {
		name, existing string
		want           string // "" means: unchanged
		code           string
	}{
		{"no file", "", "{\n  \"mcpServers\": {\n    " + ours + "\n  }\n}\n", ""},
		{"other servers and keys kept in order", `{"z": 1, "mcpServers": {"github": {"command": "gh-mcp"}}}`,
			"{\n  \"z\": 1,\n  \"mcpServers\": {\n    \"github\": {\n      \"command\": \"gh-mcp\"\n    },\n    " + ours + "\n  }\n}\n", ""},
		{"null servers", `{"mcpServers": null}`, "{\n  \"mcpServers\": {\n    " + ours + "\n  }\n}\n", ""},
		{"a handoff entry of the person's own", `{"mcpServers": {"handoff": {"command": "/usr/bin/handoff", "args": ["--db", "/x.db", "mcp"]}}}`, "", ""},
		{"handoff mcp under another name", `{"mcpServers": {"sessions": {"command": "C:\\bin\\Handoff.exe", "args": ["mcp", "--dir", "."]}}}`, "", ""},
		{"not an object", `[1]`, "", handoff.EINVALID},
		{"servers not an object", `{"mcpServers": []}`, "", handoff.EINVALID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MergeClaudeMCP([]byte(tt.existing), bin)
			if tt.code != "" {
				if handoff.ErrorCode(err) != tt.code {
					t.Fatalf("err = %v, want code %s", err, tt.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			if want == "" {
				want = tt.existing
			}
			if string(got) != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
			if !json.Valid(got) {
				t.Errorf("not JSON: %s", got)
			}
			again, err := MergeClaudeMCP(got, bin)
			if err != nil || string(again) != string(got) {
				t.Errorf("merging twice changed it: %v\n%s", err, again)
			}
		})
	}
	if _, err := MergeClaudeMCP(nil, "  "); handoff.ErrorCode(err) != handoff.EINVALID || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty path: %v", err)
	}
}

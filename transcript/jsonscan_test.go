package transcript

import (
	"encoding/json"
	"testing"
)

// TestObjectMembersMatchesUnmarshal walks objects with the values that
// trip a hand-written scanner (escaped quotes and backslashes, nested
// containers holding quotes and brackets, white space, literals) and
// checks each member against encoding/json's reading of the same object.
func TestObjectMembersMatchesUnmarshal(t *testing.T) {
	t.Parallel()
	objects := []string{
		`{}`,
		` { "a" : 1 , "b":"x" } `,
		`{"stdout":"say \"hi\" \\","exitCode":2,"n":null}`,
		`{"s":"\\\\","t":"\\\"","u":"}]\"{["}`,
		`{"nested":{"k":["a","]",{"q":"\"}"}]},"isError":true,"z":-1.5e3}`,
		"{\"w\":\n\t[1, 2 ,3]\r\n,\"e\":false}",
	}
	for _, obj := range objects {
		var want map[string]json.RawMessage
		if err := json.Unmarshal([]byte(obj), &want); err != nil {
			t.Fatalf("bad test object %s: %v", obj, err)
		}
		got := map[string]string{}
		objectMembers([]byte(obj), func(key, value []byte) {
			got[string(key)] = string(value)
		})
		if len(got) != len(want) {
			t.Errorf("%s: %d members, want %d (%v)", obj, len(got), len(want), got)
		}
		for k, v := range want {
			if got[k] != string(v) {
				t.Errorf("%s: member %s = %q, want %q", obj, k, got[k], v)
			}
		}
	}
}

// TestToolUseResultFields reads the fields ccToolUseResult takes from
// toolUseResult objects, strings and odd shapes.
func TestToolUseResultFields(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw     string
		isError bool
		code    int // -1: none
	}{
		{`{"stdout":"ok \"exitCode\":3","stderr":"","interrupted":false}`, false, -1},
		{`{"stdout":"x","exitCode":2}`, false, 2},
		{`{"returnCode":5,"exit_code":4,"exitCode":"n/a"}`, false, 4},
		{`{"ExitCode":7,"IsError":true}`, true, 7},
		{`{"is_error":"true","stdout":"a\\"}`, true, -1},
		{`"Error: command failed"`, true, -1},
		{`["not","an","object"]`, false, -1},
	}
	for _, tc := range tests {
		var r ccToolUseResult
		if err := r.UnmarshalJSON([]byte(tc.raw)); err != nil {
			t.Fatalf("%s: %v", tc.raw, err)
		}
		code := -1
		if r.exitCode != nil {
			code = *r.exitCode
		}
		if r.isError != tc.isError || code != tc.code {
			t.Errorf("%s: isError %v, exit code %d; want %v, %d", tc.raw, r.isError, code, tc.isError, tc.code)
		}
	}
}

// TestContentBlocksMatchUnmarshal reads message content arrays with the
// one-pass reader and with encoding/json into the same fields, and
// compares: names matched case-insensitively, the last duplicate wins,
// escapes decoded, null and absent fields empty, type errors reported.
func TestContentBlocksMatchUnmarshal(t *testing.T) {
	t.Parallel()
	type mirror struct {
		Type      string          `json:"type"`
		Text      string          `json:"text"`
		Thinking  string          `json:"thinking"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
		ToolUseID string          `json:"tool_use_id"`
		Content   json.RawMessage `json:"content"`
		IsError   json.RawMessage `json:"is_error"`
	}
	arrays := []string{
		`[]`,
		`[{"type":"text","text":"plain"}]`,
		`[{"type":"text","text":"say \"hi\"\n\u00e9\\"},{"type":"thinking","thinking":"hmm","signature":"x"}]`,
		`[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"echo \"}]\""}}]`,
		`[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"ok"}],"is_error":true}]`,
		`[{"Type":"text","TEXT":"upper","text":"last wins"}, {"type":"image","source":{"data":"AAAA"}}]`,
		`[ {"type" : "text" , "text" : null } ]`,
	}
	for _, arr := range arrays {
		var want []mirror
		if err := json.Unmarshal([]byte(arr), &want); err != nil {
			t.Fatalf("bad test array %s: %v", arr, err)
		}
		var got ccContent
		if err := got.UnmarshalJSON([]byte(arr)); err != nil {
			t.Fatalf("%s: %v", arr, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d blocks, want %d", arr, len(got), len(want))
		}
		for i, w := range want {
			g := got[i]
			if g.Type != w.Type || g.Text != w.Text || g.Thinking != w.Thinking || g.ID != w.ID || g.Name != w.Name ||
				g.ToolUseID != w.ToolUseID || string(g.Input) != string(w.Input) || string(g.Content) != string(w.Content) || string(g.IsError) != string(w.IsError) {
				t.Errorf("%s block %d:\ngot  %+v\nwant %+v", arr, i, g, w)
			}
		}
	}
	for _, bad := range []string{`[{"type":5}]`, `["text"]`, `{"type":"text"}`} {
		var c ccContent
		if err := c.UnmarshalJSON([]byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

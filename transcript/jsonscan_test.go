package transcript

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
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

// TestUnquoteValidMatchesUnmarshal checks the one-pass unquoting of valid
// string literals against encoding/json: every escape, surrogate pairs,
// lone, reversed and truncated surrogates, and random text marshalled by
// encoding/json itself (with and without HTML escaping).
func TestUnquoteValidMatchesUnmarshal(t *testing.T) {
	lits := []string{
		`""`, `"plain"`, `"a\"b\\c\/d"`, `"\b\f\n\r\t"`, `"\u00e9\u4e2d"`, `"\u0000x"`,
		`"\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`, `"\ude00\ud83d"`, `"\ud83d\u0041"`,
		`"\ud83d\ud83d\ude00"`, `"end\\"`, `"\uD83D\uDE00 upper"`, `"é 中 😀 raw"`,
		`"\ud83d\n"`, `"x\u0041"`,
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(40) {
			switch rng.IntN(6) {
			case 0:
				b.WriteRune(rune(rng.IntN(0x20)))
			case 1:
				b.WriteString(`"\/<>&` + "\u2028")
			case 2:
				b.WriteRune(rune(rng.IntN(0x10FFFF)))
			default:
				b.WriteRune(rune(0x20 + rng.IntN(0x60)))
			}
		}
		m, _ := json.Marshal(b.String())
		lits = append(lits, string(m))
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(b.String())
		lits = append(lits, strings.TrimSuffix(buf.String(), "\n"))
	}
	for _, lit := range lits {
		var want string
		if err := json.Unmarshal([]byte(lit), &want); err != nil {
			t.Fatalf("test literal %s: %v", lit, err)
		}
		got, ok := unquoteValid([]byte(lit))
		if !ok || got != want {
			t.Errorf("unquoteValid(%s) = %q, %v; encoding/json %q", lit, got, ok, want)
		}
	}
}

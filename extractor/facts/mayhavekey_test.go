package facts

import (
	"encoding/json"
	"testing"
)

// TestMayHaveKey checks the screen PlanTasks and patchText run before
// decoding an input: it may say yes to an object without the key, never
// no to one with it.
func TestMayHaveKey(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want bool
	}{
		{`{"todos":[]}`, true},
		{`{"command":"ls"}`, false},
		{`{"step":"plan"}`, true}, // a value: decoded, found absent
		{`{"\u0074odos":[{"content":"x"}]}`, true},
		{`["todos"]`, false}, // no object
		{` {"todos":[]}`, false},
		{``, false},
	} {
		if got := mayHaveKey(json.RawMessage(c.raw), `"todos"`, `"plan"`); got != c.want {
			t.Errorf("mayHaveKey(%s) = %v, want %v", c.raw, got, c.want)
		}
	}
}

// FuzzMayHaveKey checks the screen against the decoder it saves: when it
// says no, the decoded object has none of the keys.
func FuzzMayHaveKey(f *testing.F) {
	for _, s := range []string{`{"todos":[]}`, `{"\u0070lan":[]}`, `{"patch":"x"}`, `{"a":1}`, `"x"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		keys := []string{"todos", "plan", "input", "patch", "diff"}
		if mayHaveKey(json.RawMessage(raw), `"todos"`, `"plan"`, `"input"`, `"patch"`, `"diff"`) {
			return
		}
		in := DecodeObject(json.RawMessage(raw))
		for _, k := range keys {
			if _, ok := in[k]; ok {
				t.Fatalf("mayHaveKey(%q) = false, but the object has %q", raw, k)
			}
		}
	})
}

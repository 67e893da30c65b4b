package transcript

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzUserWords: any text is classified without panicking; a Meta turn
// keeps its text, and the words kept are never longer than the input.
func FuzzUserWords(f *testing.F) {
	for _, s := range []string{
		"<command-name>/x</command-name><command-args>a</command-args>",
		"## User Input\n\n```text\nhi\n```\n\n## Outline\n",
		"<agent-activation CRITICAL=\"TRUE\">\n1\n</agent-activation>",
		"<environment_context></environment_context>", "a < b", "<a>", "#", "<INSTRUCTIONS>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, meta := userWords(s)
		if meta && words != s {
			t.Fatalf("Meta turn's text changed: %q → %q", s, words)
		}
		if len(words) > len(s)+1 {
			t.Fatalf("words %q longer than input %q", words, s)
		}
	})
}

// FuzzCodeModeCalls: any script yields calls whose inputs are valid JSON
// and whose ids are distinct.
func FuzzCodeModeCalls(f *testing.F) {
	for _, s := range []string{
		`await tools.shell_command({command: "ls", workdir: '/r', n: [1, {a: 2},],})`,
		"tools.apply_patch(`*** Begin Patch\n*** End Patch`)",
		`tools.exec_command({cmd: x})`, `tools.a(`, `tools.b("\"`, `tools.c({'k': 'it\'s'})`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		seen := map[string]bool{}
		for _, c := range codeModeCalls("id", script) {
			if !json.Valid(c.Input) {
				t.Fatalf("invalid input %q from %q", c.Input, script)
			}
			if seen[c.ID] || !strings.HasPrefix(c.ID, "id#") {
				t.Fatalf("bad id %q", c.ID)
			}
			seen[c.ID] = true
		}
	})
}

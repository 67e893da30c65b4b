package compiler

import (
	"testing"
	"unicode/utf8"
)

func TestCompactProse(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain text is unchanged", "Fixed the parser; tests pass.", "Fixed the parser; tests pass."},
		{"bold and heading marks go", "## 🎯 **Updated STATUS.md**", "Updated STATUS.md"},
		{"bold inside a list item", "1. **❌ No cuFFT**: from scratch", "1. ❌ No cuFFT: from scratch"},
		{"status marks stay", "✅ done ❌ failed ⚠ careful ☐ todo ☒ done 🔴 red", "✅ done ❌ failed ⚠ careful ☐ todo ☒ done 🔴 red"},
		{"pictograph after an opening quote", "“🚀 Next: ship it”", "“Next: ship it”"},
		{"pictograph with selector and joiner", "🧑‍💻 coder ⚖️ fair", "coder fair"},
		{"dot leader", "ruff-format........Failed", "ruff-format…Failed"},
		{"rule of equals", "===== 3 failed in 0.2s =====", "… 3 failed in 0.2s …"},
		{"a line of equals is a rule", "Title\n=====", "Title"},
		{"three dots stay", "wait... what", "wait... what"},
		{"glob is not emphasis", "rg -g '**/*.go' pattern", "rg -g '**/*.go' pattern"},
		{"dunder is not emphasis", "edit pkg/__init__.py and __main__", "edit pkg/__init__.py and __main__"},
		{"snake case is unchanged", "call read_file_fast now", "call read_file_fast now"},
		{"hash without space stays", "#include <stdio.h> and #123", "#include <stdio.h> and #123"},
		{"unclosed bold stays", "a **b c", "a **b c"},
		{"per line", "## A\n**b**\n- c", "A\nb\n- c"},
		{"fences and rules go", "Run:\n```bash\ngo test ./...\n```\n---\nDone", "Run:\ngo test ./...\nDone"},
		{"a line that only starts like a fence stays", "```go func``` inline", "```go func``` inline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := compactProse(tt.in); got != tt.want {
				t.Errorf("compactProse(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzCompactProse: compacting never grows text and never breaks UTF-8.
func FuzzCompactProse(f *testing.F) {
	for _, s := range []string{"## **x**", "a....b", "🎯 **x**", "__a__b", "**/*.go **y**", "#\n##"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := compactProse(s)
		if len(got) > len(s) {
			t.Fatalf("compactProse grew %q to %q", s, got)
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("compactProse(%q) = %q: invalid UTF-8", s, got)
		}
	})
}

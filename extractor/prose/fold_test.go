package prose

import (
	"strings"
	"testing"
)

// foldTextBefore is foldText's earlier, obvious definition, which the
// one-pass fold must match on every input.
func foldTextBefore(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

func TestFoldTextMatchesDefinition(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"", "   ", "Hello  World", "\tTabs\tand\nNew\r\nLines ", "ÀÉÎ İstanbul ΣΊΣΥΦΟΣ",
		"invalid \xff\xfe utf8", "\u00a0non-breaking\u2003space\u3000ideographic", "MiXeD-Case_ID 42",
		"trailing space   ", "   leading", "a\u0085b", "Straße ǅ",
	} {
		if got, want := FoldText(s), foldTextBefore(s); got != want {
			t.Errorf("foldText(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzFoldText(f *testing.F) {
	f.Add("Hello  World\n")
	f.Add("invalid \xff utf8 İ")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := FoldText(s), foldTextBefore(s); got != want {
			t.Errorf("foldText(%q) = %q, want %q", s, got, want)
		}
	})
}

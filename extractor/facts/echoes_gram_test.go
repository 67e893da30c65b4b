package facts

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestGramSetHoldsEverySubstring: the gram set is a filter in front of
// strings.Contains, so it must never deny a string the text holds, and a
// string holding a gram the text lacks must be denied.
func TestGramSetHoldsEverySubstring(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for b.Len() < 1<<18 {
		b.WriteString([]string{"go test ./... ", "ok  \tpkg\t0.1s\n", "error: ", "file.go:12: ", "x", "\n"}[rng.IntN(6)])
	}
	text := b.String()
	g := newGramSet(text)
	for range 2000 {
		i := rng.IntN(len(text) - 64)
		s := text[i : i+gramLen+rng.IntN(56)]
		if !g.mayHold(s) {
			t.Fatalf("mayHold(%q) = false for a substring of the text", s)
		}
	}
	tests := []struct {
		s    string
		want bool
	}{
		{"zzzzzzzzzzzzzzzzzz", false},
		{"go test ./... qqqqqqqq", false},
		{text[100:140], true},
	}
	for _, tt := range tests {
		if got := g.mayHold(tt.s); got != tt.want {
			t.Errorf("mayHold(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
	if newGramSet("short").mayHold("shortshortshort!") {
		t.Error("a text shorter than a gram holds no string of one")
	}
}

package compiler

import (
	"regexp"
	"testing"

	"github.com/handoff-cli/handoff/internal/lazyre"
)

// TestLazyPatternsCompile compiles every pattern the package's source
// hands to lazyre.New: they compile on first use, so a bad one would
// otherwise panic only when a compile first reaches it.
func TestLazyPatternsCompile(t *testing.T) {
	t.Parallel()
	patterns, dynamic, err := lazyre.Sources(".", map[string]int{"lazyre.New": 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range dynamic {
		t.Errorf("%s: pattern is not a constant string", at)
	}
	for _, p := range patterns {
		if _, err := regexp.Compile(p.Pattern); err != nil {
			t.Errorf("%s: %v", p.At, err)
		}
	}
	if len(patterns) < 7 {
		t.Errorf("found %d patterns; the package hands lazyre.New at least seven", len(patterns))
	}
}

package transcript

import (
	"regexp"
	"testing"

	"github.com/handoff-cli/handoff/internal/lazyre"
)

// TestLazyPatternsCompile compiles every pattern the package's source
// hands to lazyRE: they compile on first use, so a bad one would
// otherwise panic only when a transcript of its format first reaches it.
func TestLazyPatternsCompile(t *testing.T) {
	t.Parallel()
	patterns, dynamic, err := lazyre.Sources(".", map[string]int{"lazyRE": 1})
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
	if len(patterns) < 30 {
		t.Errorf("found %d patterns; the package declares about forty", len(patterns))
	}
}

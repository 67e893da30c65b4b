package compiler

import (
	"testing"

	"github.com/handoff-cli/handoff/internal/lazyre"
)

// TestLazyPatternsCompile compiles every pattern the package's source
// hands to lazyre.New: they compile on first use, so a bad one would
// otherwise panic only when a compile first reaches it.
func TestLazyPatternsCompile(t *testing.T) {
	t.Parallel()
	n, errs := lazyre.Check(".", map[string]int{"lazyre.New": 1})
	for _, err := range errs {
		t.Error(err)
	}
	if n < 7 {
		t.Errorf("found %d patterns; the package hands lazyre.New at least seven", n)
	}
}

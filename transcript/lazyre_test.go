package transcript

import (
	"testing"

	"github.com/handoff-cli/handoff/internal/lazyre"
)

// TestLazyPatternsCompile compiles every pattern the package's source
// hands to lazyRE: they compile on first use, so a bad one would
// otherwise panic only when a transcript of its format first reaches it.
func TestLazyPatternsCompile(t *testing.T) {
	t.Parallel()
	n, errs := lazyre.Check(".", map[string]int{"lazyRE": 1})
	for _, err := range errs {
		t.Error(err)
	}
	if n < 30 {
		t.Errorf("found %d patterns; the package declares about forty", n)
	}
}

package redact

import (
	"testing"

	"github.com/handoff-cli/handoff/internal/secretsamples"
)

// TestOwnRules holds this package's own rules to their samples, as
// TestGitleaksCatalogue does gitleaks'.
func TestOwnRules(t *testing.T) {
	checkRules(t, ownRules(), secretsamples.Own(), nil)
}

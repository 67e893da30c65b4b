package redact

// gitleaks_rules.go and ../internal/secretsamples/gitleaks.go are generated from a
// gitleaks snapshot (fetch github.com/gitleaks/gitleaks, then point
// GITLEAKS_SRC at the checkout or bare git directory):
//
//go:generate go run ./internal/gitleaksgen -src ${GITLEAKS_SRC} -out . -samples ../internal/secretsamples

// Package secretsamples holds secret-shaped text for tests: gitleaks'
// true- and false-positive samples for each of its rules (gitleaks.go,
// generated) and samples for redact's own rules (own.go). Only tests
// import it, so none of it reaches the binary.
package secretsamples

// Samples are a rule's samples: each true positive holds a secret the
// rule finds, no false positive holds one.
type Samples struct{ TPs, FPs []string }

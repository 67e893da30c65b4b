// Package secretsamples holds secret-shaped text for tests: gitleaks'
// true- and false-positive samples for each of its rules (gitleaks.go,
// generated) and samples for redact's own rules (own.go). Only tests
// import it, so none of it reaches the binary.
package secretsamples

// Samples are a rule's samples: each true positive holds a secret the
// rule finds, no false positive holds one. Keeps are pieces of a true
// positive that are no secret and must survive its redaction (a presigned
// URL's bucket, date and expiry around its signature).
type Samples struct{ TPs, FPs, Keeps []string }

//go:build !race

package redact

// raceEnabled: see race_on_test.go.
const raceEnabled = false

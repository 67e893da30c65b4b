//go:build !race

package redact

// raceEnabled: see race_on_test.go.
const raceEnabled = false

// raceCutStride: see race_on_test.go (unused without -race).
const raceCutStride = 1

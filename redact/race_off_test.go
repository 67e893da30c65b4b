//go:build !race

package redact

// raceEnabled: see race_on_test.go.
const raceEnabled = false

// raceMiddleCuts: see race_on_test.go (unused without -race).
const raceMiddleCuts = 1

// raceEdgeCuts: see race_on_test.go (unused without -race).
const raceEdgeCuts = 1

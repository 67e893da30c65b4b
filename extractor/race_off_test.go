//go:build !race

package extractor

// raceEnabled: see race_on_test.go.
const raceEnabled = false

//go:build !race

package transcript

// raceEnabled: see race_on_test.go.
const raceEnabled = false

//go:build !race

package capacity

// raceEnabled: see race_on_test.go.
const raceEnabled = false

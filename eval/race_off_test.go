//go:build !race

package eval

// raceEnabled: see race_on_test.go.
const raceEnabled = false

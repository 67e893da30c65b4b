//go:build !race

package compiler

// raceEnabled: see race_on_test.go.
const raceEnabled = false

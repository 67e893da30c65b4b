//go:build !race

package llm

// raceEnabled: see race_on_test.go.
const raceEnabled = false

// raceStride is how sparsely raceSample keeps items under the race
// detector: without it, every item.
const raceStride = 1

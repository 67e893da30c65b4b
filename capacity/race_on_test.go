//go:build race

package capacity

// raceEnabled cuts the whole-corpus property test to a sample under the
// race detector, which makes tokenizing ten times slower; the race test
// is about concurrency, and the plain run checks every byte.
const raceEnabled = true

//go:build race

package transcript

// raceEnabled cuts the slow exhaustive tests to a sample under the race
// detector, which makes them ten times slower; the race run is about
// concurrency, and the plain run checks every case.
const raceEnabled = true

//go:build race

package redact

// raceEnabled cuts the every-cut-length sweep of TestShapesNeverLeak to a
// sample under the race detector, which makes it ten times slower; the
// race run is about concurrency, and the plain run checks every length.
const raceEnabled = true

// raceMiddleCuts is about how many cut lengths TestShapesNeverLeak tries
// between a line's first and last 16 under the race detector.
const raceMiddleCuts = 24

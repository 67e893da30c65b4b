//go:build race

package redact

// raceEnabled cuts the every-cut-length sweep of TestShapesNeverLeak to a
// sample under the race detector, which makes it ten times slower; the
// race run is about concurrency, and the plain run checks every length.
const raceEnabled = true

// raceMiddleCuts is about how many cut lengths TestShapesNeverLeak tries
// between a line's first and last 16 under the race detector.
const raceMiddleCuts = 8

// raceEdgeCuts is how many of a line's first and last cut lengths
// TestShapesNeverLeak tries under the race detector: the cuts that keep
// or drop a secret's first or last few bytes.
const raceEdgeCuts = 8

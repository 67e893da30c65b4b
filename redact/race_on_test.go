//go:build race

package redact

// raceEnabled cuts the every-cut-length sweep of TestShapesNeverLeak to a
// sample under the race detector, which makes it ten times slower; the
// race run is about concurrency, and the plain run checks every length.
const raceEnabled = true

// raceCutStride is how sparsely TestShapesNeverLeak samples the cut
// lengths between a line's first and last 64 under the race detector.
const raceCutStride = 41

//go:build race

package eval

// raceEnabled cuts the score.py agreement test to one labelled set under
// the race detector: it checks no concurrency (its cost is score.py's
// runs), and the plain run (go test ./..., which .ci/run also runs for
// this package) compares every set.
const raceEnabled = true

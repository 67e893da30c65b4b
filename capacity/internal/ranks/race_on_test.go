//go:build race

package ranks

// raceEnabled samples the whole-vocabulary sweeps under the race
// detector: they have no concurrency to race, and the plain run sweeps
// everything.
const raceEnabled = true

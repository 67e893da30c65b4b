//go:build race

package compiler

// raceEnabled cuts the budget sweeps to a sample under the race detector,
// which makes each compile of the huge snapshot ten times slower: the
// race run is there for the counter the parallel subtests share, and
// .ci/run's plain run (go test ./..., no -race) checks every budget.
const raceEnabled = true

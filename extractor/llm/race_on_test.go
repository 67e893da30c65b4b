//go:build race

package llm

// raceEnabled cuts the real-corpus sweeps to a sample under the race
// detector, which makes computing facts ten times slower: they have no
// concurrency to check, and .ci/run's plain run (go test ./..., no -race)
// sweeps the whole corpus.
const raceEnabled = true

// raceStride is how sparsely raceSample keeps items under the race
// detector: one in 40 (one in 10 cost the race run 50 CPU-seconds in
// these sweeps alone; the plain run checks every item).
const raceStride = 40

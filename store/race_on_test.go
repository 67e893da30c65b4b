//go:build race

package store

// raceEnabled shortens the multi-process writers' runs under the race
// detector, where each child is the race-built test binary writing ten
// times slower: the processes still contend for the one database, and the
// plain run (go test ./..., which CI also runs) writes the whole 8 × 300.
const raceEnabled = true

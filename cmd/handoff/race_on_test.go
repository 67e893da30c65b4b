//go:build race

package main

// raceEnabled lets the slow quality test step aside under the race
// detector, which makes each compile several times slower: it has no
// concurrency to check, and .ci/run runs it without -race.
const raceEnabled = true

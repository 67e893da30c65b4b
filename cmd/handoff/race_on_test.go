//go:build race

package main

// raceEnabled lets the slow tests with no concurrency to check (the
// quality sweep, the all-paths redaction test) step aside under the race
// detector, which makes each compile several times slower, and the
// real-corpus goldens and batch shrink to a sample: .ci/run runs every
// test without -race too (go test ./...), so nothing goes unchecked.
const raceEnabled = true

// Package sessiontest builds transcripts message by message for the
// extractor's tests: numbered, time-stamped, with call ids paired to
// results.
package sessiontest

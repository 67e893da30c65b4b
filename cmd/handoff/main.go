// Command handoff turns an LLM agent's transcript into a session snapshot
// and a token-bounded resume prompt, stores every snapshot in SQLite, and
// lets a later session (or another agent, or a person) pick the work up.
//
// main only wires the process to run, so every command can be driven from
// tests with its own arguments, input, output and environment.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

// softMemoryLimit bounds the heap the garbage collector lets grow before
// it works harder. handoff runs inside agent hooks beside the agent
// itself; on a 100 MB transcript the collector's default (twice the live
// heap) made the peak grow with the file while the live data did not.
// Below the limit nothing changes, so small compiles pay nothing. A
// GOMEMLIMIT in the environment wins.
const softMemoryLimit = 48 << 20

func main() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(softMemoryLimit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err))
}

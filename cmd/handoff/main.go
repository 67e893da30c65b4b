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

// gcPercent is the collector's growth target under that limit (GOGC=200:
// collect when the heap has grown to three times the live data, not two).
// A compile's live heap is a few MB early on (the tokenizer's tables, the
// parsed transcript), so the default collected four or five times on the
// largest shared Claude Code file, most of them while the tables were
// still being built; at 200 it collects twice, and gctrace's GC CPU for
// that compile fell from 32-58 ms to 7-26 ms (three runs each, a loaded
// machine). The soft limit still bounds the heap, so the
// peak RSS on a 100 MB transcript stays at ~68 MiB either way. A GOGC in
// the environment wins.
const gcPercent = 200

func main() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(softMemoryLimit)
	}
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err))
}

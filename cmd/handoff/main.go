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
//
// It was 48 MiB while the tokenizer's full tables (~13 MiB) sat in every
// compile's heap. With the tables filled on demand the heap of a 25 MB
// synthetic transcript fell and the limit no longer held the peak at 100
// MB: RSS 47.9 → 70.0 MiB, 0.30 MiB per MB of file (issue 12's bar is
// 0.3). At 32 MiB: 47.3 → 55.6 MiB, 0.11 MiB per MB, for 3% more CPU on
// the largest shared compile (within noise) and 8% more on the 100 MB one
// (one run each, same machine; 40 MiB gave 0.20 MiB per MB).
const softMemoryLimit = 32 << 20

// gcPercent is the collector's growth target under that limit (GOGC=200:
// collect when the heap has grown to three times the live data, not two).
// A compile's live heap is a few MB early on (the tokenizer's tables, the
// parsed transcript), so the default collected four or five times on the
// largest shared Claude Code file, most of them while the tables were
// still being built; at 200 it collects twice, and gctrace's GC CPU for
// that compile fell from 32-58 ms to 7-26 ms (three runs each, a loaded
// machine). With the tables on demand 200 still saves ~6% of that
// compile's CPU against 100. The soft limit still bounds the heap on
// large transcripts. A GOGC in the environment wins.
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

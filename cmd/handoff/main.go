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
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err))
}

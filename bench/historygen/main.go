// Command historygen writes a history database for bench/history.sh: n
// snapshots, ten sessions in each of n/10 workflows, every one a copy of
// the snapshot session.Build makes of one real transcript (the layout of
// cmd/handoff's BenchmarkHistoryQueries, as a file the real binary opens).
// It prints a word of the first decision, for decisions --grep.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/transcript"
)

func main() {
	n := flag.Int("n", 10000, "snapshots to save")
	src := flag.String("transcript", "", "transcript the snapshot is built from")
	flag.Parse()
	if flag.NArg() != 1 || *src == "" {
		fmt.Fprintln(os.Stderr, "usage: historygen -transcript FILE [-n N] OUT.db")
		os.Exit(2)
	}
	word, err := generate(context.Background(), *src, *n, flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "historygen:", err)
		os.Exit(1)
	}
	fmt.Println(word)
}

// generate fills a new database at out and returns the grep word.
func generate(ctx context.Context, src string, n int, out string) (string, error) {
	t, err := transcript.ParseFile(ctx, src, transcript.Options{})
	if err != nil {
		return "", fmt.Errorf("parse %s: %w", src, err)
	}
	counter, err := capacity.NewCounter(capacity.O200kBase)
	if err != nil {
		return "", fmt.Errorf("token counter: %w", err)
	}
	snap, err := session.Build(ctx, t, session.BuildOptions{Trigger: handoff.TriggerManual, Counter: counter,
		Extractor: extractor.NewHeuristic(slog.New(slog.DiscardHandler))})
	if err != nil {
		return "", fmt.Errorf("build snapshot: %w", err)
	}
	s, err := store.Open(ctx, out, store.Options{})
	if err != nil {
		return "", fmt.Errorf("open %s: %w", out, err)
	}
	for i := range n {
		c := *snap
		c.ID = ""
		c.WorkflowID = fmt.Sprintf("wf-%05d", i/10)
		if err := s.SaveSnapshot(ctx, &c, store.WorkflowInfo{Session: fmt.Sprintf("s-%06d", i)}); err != nil {
			s.Close()
			return "", fmt.Errorf("save snapshot %d: %w", i, err)
		}
	}
	if err := s.Close(); err != nil {
		return "", fmt.Errorf("close %s: %w", out, err)
	}
	word := "the"
	if len(snap.Decisions) > 0 {
		if f := strings.Fields(snap.Decisions[0].Description); len(f) > 0 {
			word = f[0]
		}
	}
	return word, nil
}

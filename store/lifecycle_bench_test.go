package store

import (
	"context"
	"sync"
	"testing"

	handoff "github.com/handoff-cli/handoff"
)

// BenchmarkPauseSnapshot measures the atomic pause (snapshot, status move
// and two events in one transaction) against SaveSnapshot, its baseline.
func BenchmarkPauseSnapshot(b *testing.B) {
	ctx := context.Background()
	template := fullSnapshot("bench")
	b.Run("baseline=SaveSnapshot", func(b *testing.B) {
		s := openTest(b, tempDB(b))
		for b.Loop() {
			snap := *template
			if err := s.SaveSnapshot(ctx, &snap, WorkflowInfo{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("PauseSnapshot", func(b *testing.B) {
		s := openTest(b, tempDB(b))
		for b.Loop() {
			snap := *template
			snap.Trigger = handoff.TriggerPause
			if err := s.PauseSnapshot(ctx, &snap, WorkflowInfo{}, "bench"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkContendedSaves measures saves from 8 writers, each with its
// own handle as separate processes would have, against one writer: the
// per-save cost of queueing on SQLite's single write lock (with BUSY
// retries) rather than writing.
func BenchmarkContendedSaves(b *testing.B) {
	ctx := context.Background()
	for _, writers := range []int{1, 8} {
		name := "writers=8"
		if writers == 1 {
			name = "baseline=writers=1"
		}
		b.Run(name, func(b *testing.B) {
			path := tempDB(b)
			stores := make([]*Store, writers)
			for i := range stores {
				stores[i] = openTest(b, path)
			}
			b.ResetTimer()
			var wg sync.WaitGroup
			per := b.N / writers
			for i, s := range stores {
				n := per
				if i == 0 {
					n += b.N % writers
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range n {
						if err := s.SaveSnapshot(ctx, fullSnapshot("bench"), WorkflowInfo{}); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
		})
	}
}

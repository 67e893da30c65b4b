package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/storetest"
)

// benchStore opens a store on a fresh file in tb's temp dir.
func benchStore(tb testing.TB) *store.Store {
	tb.Helper()
	s, err := store.Open(context.Background(), filepath.Join(tb.TempDir(), "bench.db"), store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// cpuPerOp reports the process's CPU time per operation beside the wall
// time: on a shared machine the wall time measures the load as much as
// the code. Call it before the loop; the returned func after it.
func cpuPerOp(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
}

// cpuTime is this process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSearch10k times handoff search over 10,000 snapshots (10,000
// workflows of one snapshot, the worst case for one hit per session) on a
// real SQLite file, at three selectivities: a word in 1% of the
// snapshots, in 10%, and in all of them. The bound is 50 ms.
func BenchmarkSearch10k(b *testing.B) {
	ctx := context.Background()
	s := benchStore(b)
	storetest.Fill(b, s, 10000, 1)
	for _, q := range []string{storetest.RareWord, storetest.MidWord, storetest.CommonWord, storetest.MidWord + " connection refused"} {
		b.Run(q, func(b *testing.B) {
			defer cpuPerOp(b)()
			for b.Loop() {
				hits, err := s.Search(ctx, store.SearchQuery{Text: q})
				if err != nil || len(hits) == 0 {
					b.Fatalf("search %q: %d hits, %v", q, len(hits), err)
				}
			}
		})
	}
}

// BenchmarkOverviewPage times the first page (50) of the workflow list at
// 1,000 and 10,000 workflows: flat, since it reads columns from an index
// walk instead of decoding every workflow's latest snapshot.
func BenchmarkOverviewPage(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{1000, 10000} {
		s := benchStore(b)
		storetest.Fill(b, s, n, 1)
		b.Run(fmt.Sprintf("workflows=%d", n), func(b *testing.B) {
			defer cpuPerOp(b)()
			for b.Loop() {
				page, err := s.OverviewPage(ctx, store.OverviewFilter{Limit: 50})
				if err != nil || len(page.Workflows) != 50 {
					b.Fatalf("page: %v", err)
				}
			}
		})
		b.Run(fmt.Sprintf("baseline=Overview/workflows=%d", n), func(b *testing.B) {
			defer cpuPerOp(b)()
			for b.Loop() {
				if _, _, err := s.Overview(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

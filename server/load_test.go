package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/transcript"
)

// load runs readers concurrent API reads (each one GET of a rotating
// endpoint) against f while writers compile the sample transcript into the
// same database file, each through its own Store (its own connections, as
// a separate `handoff compile` process would have). It returns every
// read's latency and the number of snapshots the writers stored.
func load(t testing.TB, f *fixture, readers, readsEach, writers int) ([]time.Duration, int) {
	t.Helper()
	paths := []string{
		"/api/workflows",
		"/api/workflows/" + sampleWF,
		"/api/workflows/" + sampleWF + "/snapshots",
		"/api/workflows/" + sampleWF + "/events",
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var (
		wg      sync.WaitGroup
		written int
		mu      sync.Mutex
		errs    []error
	)
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	data := readSample(t)
	for w := range writers {
		st, err := store.Open(ctx, f.store.Path(), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				tr, err := transcript.Parse(ctx, bytes.NewReader(data), transcript.Options{Source: "-"})
				if err != nil {
					if ctx.Err() == nil {
						fail(fmt.Errorf("writer %d: %w", w, err))
					}
					return
				}
				_, err = session.Checkpoint(ctx, st, tr, session.CheckpointOptions{Build: session.BuildOptions{
					Counter: testCounter(t), Extractor: extractor.NewHeuristic(nil),
					Trigger: handoff.TriggerManual, Workflow: fmt.Sprintf("wf_writer_%d", w),
				}})
				if err != nil && ctx.Err() == nil {
					fail(fmt.Errorf("writer %d: %w", w, err))
					return
				}
				if err == nil {
					mu.Lock()
					written++
					mu.Unlock()
				}
			}
		}()
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: readers}}
	lat := make([]time.Duration, readers*readsEach)
	var rg sync.WaitGroup
	for r := range readers {
		rg.Add(1)
		go func() {
			defer rg.Done()
			for i := range readsEach {
				path := paths[(r+i)%len(paths)]
				start := time.Now()
				resp, err := client.Get(f.srv.URL + path)
				if err != nil {
					fail(err)
					return
				}
				_, err = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				lat[r*readsEach+i] = time.Since(start)
				if err != nil || resp.StatusCode != 200 {
					fail(fmt.Errorf("GET %s: %d %v", path, resp.StatusCode, err))
				}
			}
		}()
	}
	rg.Wait()
	stop()
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	return lat, written
}

func percentile(lat []time.Duration, p float64) time.Duration {
	s := slices.Clone(lat)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

// TestConcurrentReadsWhileWriting: 200 concurrent readers and 4 writers on
// one database file, and not one failed request or write.
func TestConcurrentReadsWhileWriting(t *testing.T) {
	if testing.Short() {
		t.Skip("load test in -short mode")
	}
	f := newFixture(t, nil)
	f.checkpoint("")
	f.checkpoint("")
	lat, written := load(t, f, 200, 2, 4)
	t.Logf("%d reads with %d snapshots written meanwhile: p50 %v, p99 %v", len(lat), written, percentile(lat, 0.50), percentile(lat, 0.99))
}

// BenchmarkConcurrentReads measures read latency under 200 concurrent
// readers, alone and with 4 writers compiling into the same file; compare
// the two p50/p99 figures of one run.
func BenchmarkConcurrentReads(b *testing.B) {
	for _, writers := range []int{0, 4} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			f := newFixture(b, nil)
			f.checkpoint("")
			f.checkpoint("")
			var all []time.Duration
			for b.Loop() {
				lat, _ := load(b, f, 200, 5, writers)
				all = append(all, lat...)
			}
			b.ReportMetric(float64(percentile(all, 0.50).Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(percentile(all, 0.99).Microseconds())/1000, "p99-ms")
		})
	}
}

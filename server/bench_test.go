package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/handoff-cli/handoff/store/storetest"
)

// BenchmarkListAndIndex times GET /api/workflows (a page of 100) and the
// dashboard's index (a page of 50) at 1,000 and 10,000 workflows, each
// with a latest snapshot: the cost is flat in the number of workflows,
// since a page reads summary columns from an index walk and decodes no
// snapshot. Requests go straight to the handler, so the figures are the
// server's work, not the network's.
func BenchmarkListAndIndex(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		f := newFixture(b, nil)
		storetest.Fill(b, f.store, n, 1)
		s, err := New(Config{Store: f.store, Counter: testCounter(b)})
		if err != nil {
			b.Fatal(err)
		}
		for _, path := range []string{"/api/workflows", "/"} {
			b.Run(fmt.Sprintf("%s/workflows=%d", path, n), func(b *testing.B) {
				start := cpuTime()
				for b.Loop() {
					w := httptest.NewRecorder()
					req := httptest.NewRequest(http.MethodGet, path, nil)
					req.Host = "127.0.0.1" // without a token only loopback names are served
					s.ServeHTTP(w, req)
					if w.Code != http.StatusOK {
						b.Fatalf("GET %s: %d", path, w.Code)
					}
				}
				b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

// cpuTime is this process's user+system CPU time: on a shared machine
// the wall time measures the load as much as the code.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

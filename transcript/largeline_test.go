package transcript

import (
	"context"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"
)

// repeatReader yields n copies of one byte without holding them, so a
// test can feed a huge line whose memory is the parser's alone.
type repeatReader struct {
	b byte
	n int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n)
	for i := range p[:k] {
		p[i] = r.b
	}
	r.n -= k
	return k, nil
}

// hugeToolResult is a Claude Code transcript whose second line holds one
// tool result of size bytes.
func hugeToolResult(size int) io.Reader {
	return io.MultiReader(
		strings.NewReader(ccUser("u1", `"run the big command"`)+"\n"),
		strings.NewReader(`{"type":"user","sessionId":"s","uuid":"u2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"`),
		&repeatReader{b: 'x', n: size},
		strings.NewReader(`"}]}}`+"\n"),
		strings.NewReader(ccUser("u3", `"thanks"`)+"\n"),
	)
}

// measureHeap runs f and reports the bytes it allocated in all
// (deterministic: an upper bound on what it can have held at once) and
// the peak of the sampled live heap above the starting point (for the
// log: a concurrent GC leaves floating garbage in it now and then).
func measureHeap(f func()) (allocated, peak uint64) {
	old := debug.SetGCPercent(1)
	defer debug.SetGCPercent(old)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var s runtime.MemStats
		for {
			runtime.ReadMemStats(&s)
			if s.HeapAlloc > before.HeapAlloc {
				peak = max(peak, s.HeapAlloc-before.HeapAlloc)
			}
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	})
	f()
	close(done)
	wg.Wait()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, peak
}

func TestHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("50 MB line skipped in -short mode")
	}
	// 50 MB, or 16 MB under the race detector, whose slower allocator
	// changes nothing the test checks: the ratios to the line's size.
	size := 50 << 20
	if raceEnabled {
		size = 16 << 20
	}
	t.Run("default limit parses it and clips the output", func(t *testing.T) {
		var err error
		var msgs int
		var original, kept int
		allocated, peak := measureHeap(func() {
			got, perr := Parse(context.Background(), hugeToolResult(size), Options{})
			err = perr
			if perr == nil {
				msgs = len(got.Messages)
				r := got.Messages[1].ToolResults[0]
				original, kept = r.OriginalBytes, len(r.Content)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if msgs != 3 || original != size || kept > DefaultMaxToolOutputBytes+64 {
			t.Errorf("%d messages, result kept %d of %d bytes", msgs, kept, original)
		}
		t.Logf("%d MB line: allocated %.2f×, sampled live peak %.2f×", size>>20, float64(allocated)/float64(size), float64(peak)/float64(size))
		// The line gathered in segments, joined once, decoded to one
		// string: three copies made, at most two of them live at once.
		if allocated > uint64(13*size/4) {
			t.Errorf("parsing allocated %.2f× the line; want ≤ 3.25×", float64(allocated)/float64(size))
		}
	})
	t.Run("smaller limit drains and skips it", func(t *testing.T) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		tr, err := Parse(context.Background(), hugeToolResult(size), Options{MaxLineBytes: 1 << 20, Strict: true})
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Messages) != 2 || len(tr.Warnings) != 1 || tr.Warnings[0].Line != 2 || !strings.Contains(tr.Warnings[0].Reason, "over the 1048576-byte limit") {
			t.Errorf("%d messages, warnings %+v", len(tr.Messages), tr.Warnings)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
			t.Errorf("skipping allocated %d bytes; the line must be drained, not kept", alloc)
		}
	})
}

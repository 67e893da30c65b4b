package session

import (
	"context"
	"sync"
	"testing"

	"github.com/handoff-cli/handoff/capacity"
)

// TestObserveFiresOnce: many observers of one session at once (hooks in
// separate processes, here goroutines on one real database) see the
// crossing fire exactly once, and a damaged stored state starts over.
func TestObserveFiresOnce(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	tr := sample(t)
	used := capacity.Measure(tr, testCounter(t), capacity.MeasureOptions{}).TokensUsed
	opts := ObserveOptions{
		Counter:       testCounter(t),
		ContextWindow: used + used/10, // ~91% full: past the default checkpoint
		Thresholds:    capacity.DefaultThresholds(),
	}
	const observers = 6
	var wg sync.WaitGroup
	fired := make(chan bool, observers)
	for range observers {
		wg.Go(func() {
			st, err := Observe(ctx, s, "sess-1", tr, opts)
			if err != nil {
				t.Error(err)
				return
			}
			if st.Action() != capacity.Checkpoint && st.Fired {
				t.Errorf("fired at %+v", st)
			}
			fired <- st.Fired
		})
	}
	wg.Wait()
	close(fired)
	n := 0
	for f := range fired {
		if f {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the crossing fired %d times, want once", n)
	}

	if err := s.CachePut(ctx, monitorKey("sess-1"), []byte("{not json")); err != nil {
		t.Fatal(err)
	}
	st, err := Observe(ctx, s, "sess-1", tr, opts)
	if err != nil || !st.Fired {
		t.Errorf("after a damaged state: %+v, %v; want a fresh monitor that fires", st, err)
	}
	if st, err := Observe(ctx, s, "sess-2", tr, opts); err != nil || !st.Fired {
		t.Errorf("another session: %+v, %v; want its own monitor", st, err)
	}
}

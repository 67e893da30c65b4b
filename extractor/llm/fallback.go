package llm

import (
	"context"
	"errors"
	"sync"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor"
)

// Fallback is an Extractor that asks Primary (an LLM) and, when it is
// unavailable — an EUNAVAILABLE error after its retries: endpoint down,
// rate-limited past the deadline, refused or truncated answers — asks
// Secondary (the offline heuristic) instead, so the main job still
// produces a snapshot. Other errors (a bad key or model name, which retry
// cannot fix, and cancellation) are returned: the person has to act.
//
// Once Primary was unavailable, later calls go straight to Secondary, so a
// batch over many sessions does not wait out the retries of a dead
// endpoint for each one. It is safe for concurrent use.
type Fallback struct {
	Primary, Secondary extractor.Extractor
	// OnFallback, if set, is called with Primary's error each time
	// Secondary answers instead (the first time with down false, after
	// that with down true); it may be called concurrently.
	OnFallback func(err error, down bool)

	mu   sync.Mutex
	down error
}

// Name implements Extractor: Primary's name. The result's Usage names the
// extractor that actually answered.
func (f *Fallback) Name() string { return f.Primary.Name() }

// Extract implements Extractor.
func (f *Fallback) Extract(ctx context.Context, msgs []handoff.Message) (*extractor.Result, error) {
	f.mu.Lock()
	down := f.down
	f.mu.Unlock()
	if down == nil {
		res, err := f.Primary.Extract(ctx, msgs)
		if err == nil || !Unavailable(ctx, err) {
			return res, err
		}
		f.mu.Lock()
		if f.down == nil {
			f.down = err
		}
		f.mu.Unlock()
		if f.OnFallback != nil {
			f.OnFallback(err, false)
		}
	} else if f.OnFallback != nil {
		f.OnFallback(down, true)
	}
	res, err := f.Secondary.Extract(ctx, msgs)
	if err != nil {
		return nil, err
	}
	if res != nil && res.Usage == nil {
		res.Usage = &handoff.ExtractionUsage{Extractor: f.Secondary.Name()}
	}
	return res, nil
}

// FellBack reports whether Primary was found unavailable, and why.
func (f *Fallback) FellBack() (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.down != nil, f.down
}

// Unavailable reports whether err means the model could not be reached or
// could not answer (EUNAVAILABLE), as opposed to a configuration mistake
// or ctx's own cancellation.
func Unavailable(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil || errors.Is(err, context.Canceled) {
		return false
	}
	return handoff.ErrorCode(err) == handoff.EUNAVAILABLE
}

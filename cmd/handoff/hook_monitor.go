package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/store"
)

// One hook invocation's lazily opened resources, and the context monitor
// whose state persists between hook processes.

// hookRun is one hook invocation, holding what it opened.
type hookRun struct {
	o       *hookOptions
	counter *capacity.Counter
	st      *store.Store
}

func (h *hookRun) close() {
	if h.st != nil {
		h.st.Close()
	}
}

// store opens the database once, when first needed: a hook that has
// nothing to do does not touch it.
func (h *hookRun) store(ctx context.Context) (*store.Store, error) {
	if h.st == nil {
		s, err := h.o.app.openStore(ctx)
		if err != nil {
			return nil, err
		}
		h.st = s
	}
	return h.st, nil
}

// tokens builds the Counter once, when first needed: loading a vocabulary
// costs a few hundred milliseconds, which a hook with nothing to count
// (SessionStart startup, an unknown event) should not pay.
func (h *hookRun) tokens() (*capacity.Counter, error) {
	if h.counter == nil {
		c, err := capacity.NewCounter(capacity.Encoding(h.o.encoding))
		if err != nil {
			return nil, err
		}
		h.counter = c
	}
	return h.counter, nil
}

// monitorKey is where a session's MonitorState is kept between hook
// processes, so a crossing fires once however many hooks see it.
func monitorKey(sessionID string) string { return "monitor:" + sessionID }

// observe measures the transcript and runs it through the session's
// monitor, resumed from and saved back to the store.
func (h *hookRun) observe(ctx context.Context, sessionID string, t *handoff.Transcript, th capacity.Thresholds) (capacity.Status, error) {
	o := h.o
	counter, err := h.tokens()
	if err != nil {
		return capacity.Status{}, err
	}
	usage := capacity.Measure(t, counter, capacity.MeasureOptions{Model: o.model, ContextWindow: o.contextWindow, Logger: o.app.log()})
	s, err := h.store(ctx)
	if err != nil {
		return capacity.Status{}, err
	}
	// The state is read, advanced and written back in one write
	// transaction, so two hooks of one session firing at once cannot both
	// take the same crossing.
	var st capacity.Status
	err = s.CacheUpdate(ctx, monitorKey(sessionID), func(raw []byte, found bool) ([]byte, error) {
		var state capacity.MonitorState
		if found {
			if err := json.Unmarshal(raw, &state); err != nil {
				// A damaged state only risks one repeated checkpoint.
				o.app.log().Warn("stored monitor state unreadable; starting fresh", "session", sessionID, "err", err)
				state = capacity.MonitorState{}
			}
		}
		mon, err := capacity.NewMonitor(capacity.MonitorOptions{
			Model: o.model, ContextWindow: o.contextWindow, Thresholds: th, State: state, Logger: o.app.log(),
		})
		if err != nil {
			return nil, err
		}
		st = mon.ObserveUsage(usage)
		next, err := json.Marshal(mon.State())
		if err != nil {
			return nil, fmt.Errorf("encode monitor state: %w", err)
		}
		return next, nil
	})
	if err != nil {
		return capacity.Status{}, err
	}
	return st, nil
}

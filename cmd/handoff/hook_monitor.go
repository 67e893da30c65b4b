package main

import (
	"context"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/session"
)

// One hook invocation's lazily opened resources.

// hookRun is one hook invocation, holding what it opened.
type hookRun struct {
	o       *hookOptions
	counter *capacity.Counter
	st      cliStore
}

func (h *hookRun) close() {
	if h.st != nil {
		h.st.Close()
	}
}

// store opens the database once, when first needed: a hook that has
// nothing to do does not touch it.
func (h *hookRun) store(ctx context.Context) (cliStore, error) {
	if h.st == nil {
		s, err := h.o.app.openStore(ctx)
		if err != nil {
			return nil, err
		}
		h.st = s
	}
	return h.st, nil
}

// tokens returns the hook's Counter, made once. The Counter builds its
// tables only when something is counted, so a hook that answers from
// provider usage never pays for them.
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

// observe measures the transcript and runs it through the session's
// monitor, whose state the store keeps between hook processes.
func (h *hookRun) observe(ctx context.Context, sessionID string, t *handoff.Transcript, th capacity.Thresholds) (capacity.Status, error) {
	o := h.o
	counter, err := h.tokens()
	if err != nil {
		return capacity.Status{}, err
	}
	s, err := h.store(ctx)
	if err != nil {
		return capacity.Status{}, err
	}
	return session.Observe(ctx, s, sessionID, t, session.ObserveOptions{
		Counter: counter, Model: o.model, ContextWindow: o.contextWindow, Thresholds: th, Logger: o.app.log(),
	})
}

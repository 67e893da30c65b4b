package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
)

// onceHandler passes each distinct log record (message and attributes)
// on once and drops its repeats: a watch measures every line, and a
// notice such as "unknown model; assuming the default context window"
// says nothing new the second time.
type onceHandler struct {
	next slog.Handler
	mu   *sync.Mutex
	seen map[string]bool
}

func newOnceHandler(next slog.Handler) *onceHandler {
	return &onceHandler{next: next, mu: &sync.Mutex{}, seen: map[string]bool{}}
}

func (h *onceHandler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *onceHandler) Handle(ctx context.Context, r slog.Record) error {
	var key strings.Builder
	fmt.Fprintf(&key, "%d\x00%s", r.Level, r.Message)
	r.Attrs(func(a slog.Attr) bool {
		fmt.Fprintf(&key, "\x00%s=%v", a.Key, a.Value)
		return true
	})
	h.mu.Lock()
	dup := h.seen[key.String()]
	h.seen[key.String()] = true
	h.mu.Unlock()
	if dup {
		return nil
	}
	return h.next.Handle(ctx, r)
}

// WithAttrs and WithGroup keep one memory of what was logged: records
// differ by their own attributes, the derived handler's are the same.
func (h *onceHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &onceHandler{next: h.next.WithAttrs(as), mu: h.mu, seen: h.seen}
}

func (h *onceHandler) WithGroup(name string) slog.Handler {
	return &onceHandler{next: h.next.WithGroup(name), mu: h.mu, seen: h.seen}
}

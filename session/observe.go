package session

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
)

// ObserveOptions configure Observe.
type ObserveOptions struct {
	// Counter counts what no provider figure covers; required.
	Counter *capacity.Counter
	// Model and ContextWindow override the transcript's, as in
	// capacity.MeasureOptions.
	Model         string
	ContextWindow int
	// Thresholds are where the monitor warns and checkpoints.
	Thresholds capacity.Thresholds
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// monitorKey is where a session's MonitorState is kept between processes,
// so a crossing fires once however many observers see it.
func monitorKey(sessionID string) string { return "monitor:" + sessionID }

// Observe measures t and runs the figure through agent session
// sessionID's context monitor, whose state is kept in the store between
// processes (every agent hook is a new one). The state is read, advanced
// and written back in one write transaction, so two observers of one
// session at once cannot both take the same crossing: Status.Fired is true
// for exactly one of them.
func Observe(ctx context.Context, s Store, sessionID string, t *handoff.Transcript, opts ObserveOptions) (capacity.Status, error) {
	log := logger(opts.Logger)
	usage := capacity.Measure(t, opts.Counter, capacity.MeasureOptions{Model: opts.Model, ContextWindow: opts.ContextWindow, Logger: opts.Logger})
	var st capacity.Status
	err := s.CacheUpdate(ctx, monitorKey(sessionID), func(raw []byte, found bool) ([]byte, error) {
		var state capacity.MonitorState
		if found {
			if err := json.Unmarshal(raw, &state); err != nil {
				// A damaged state only risks one repeated checkpoint.
				log.Warn("stored monitor state unreadable; starting fresh", "session", sessionID, "err", err)
				state = capacity.MonitorState{}
			}
		}
		mon, err := capacity.NewMonitor(capacity.MonitorOptions{
			Model: opts.Model, ContextWindow: opts.ContextWindow, Thresholds: opts.Thresholds, State: state, Logger: opts.Logger,
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
		return capacity.Status{}, fmt.Errorf("observe session %s: %w", sessionID, err)
	}
	return st, nil
}

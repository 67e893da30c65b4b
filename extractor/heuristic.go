package extractor

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/handoff-cli/handoff"
)

// Heuristic is the offline, deterministic Extractor: sentence patterns
// over what the assistant said (and choices the user stated) find
// decisions; the assistant's words just before a failing call give the
// error its context. It needs no network and no key, so the main job
// always runs.
type Heuristic struct {
	logger *slog.Logger
	pat    decisionPatterns
}

// NewHeuristic returns the heuristic extractor. A nil logger discards
// diagnostics.
func NewHeuristic(logger *slog.Logger) *Heuristic {
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Heuristic{logger: logger, pat: compileDecisionPatterns()}
}

// Name implements Extractor.
func (h *Heuristic) Name() string { return "heuristic" }

// Extract implements Extractor. Decisions come only from the assistant's
// visible text and the user's own requests: never from tool results,
// reasoning, or text the harness injected.
func (h *Heuristic) Extract(ctx context.Context, msgs []handoff.Message) (*Result, error) {
	ds := decisionSet{pat: &h.pat}
	reverts := newRevertTracker()
	var currentTask string
	echoes := newToolEchoes(msgs)
	for i, m := range msgs {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("heuristic extract: %w", err)
			}
		}
		if m.Sidechain || m.Meta || m.CompactSummary {
			continue
		}
		reverts.see(&ds, m, currentTask)
		ds.confirm(i, m)
		switch m.Role {
		case handoff.RoleAssistant:
			text, labelled := ds.labelledDecisions(m, echoes.strip(withoutThinking(m.Text)), currentTask)
			for _, c := range labelled {
				ds.add(c)
			}
			ds.scan(i, m, text, false, currentTask)
			ds.scanWritten(m, currentTask)
		case handoff.RoleUser:
			req := userRequest(m.Text)
			if req != "" {
				ds.scan(i, m, req, true, currentTask)
			}
			if cleanRequest(req) != "" {
				ds.lastUser = i
			}
		}
		for _, c := range m.ToolCalls {
			if tasks, ok := planTasks(c, nil); ok {
				currentTask, _ = currentAndNext(tasks)
			}
		}
	}
	unconfirmed := len(ds.pending)
	ds.addUnconfirmed()
	h.logger.Debug("heuristic extraction", "messages", len(msgs), "decisions", len(ds.list), "unconfirmed", unconfirmed)
	return &Result{
		Decisions: ds.list,
		Usage:     &handoff.ExtractionUsage{Extractor: h.Name()},
	}, nil
}

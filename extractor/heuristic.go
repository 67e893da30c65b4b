package extractor

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/decisions"
	"github.com/handoff-cli/handoff/extractor/facts"
)

// Heuristic is the offline, deterministic Extractor: sentence patterns
// over what the assistant said (and choices the user stated) find
// decisions; the assistant's words just before a failing call give the
// error its context. It needs no network and no key, so the main job
// always runs.
type Heuristic struct {
	logger *slog.Logger
	pat    decisions.Patterns
}

// NewHeuristic returns the heuristic extractor. A nil logger discards
// diagnostics.
func NewHeuristic(logger *slog.Logger) *Heuristic {
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Heuristic{logger: logger, pat: decisions.CompilePatterns()}
}

// Name implements Extractor.
func (h *Heuristic) Name() string { return "heuristic" }

// Extract implements Extractor. Decisions come only from the assistant's
// visible text and the user's own requests: never from tool results,
// reasoning, or text the harness injected.
func (h *Heuristic) Extract(ctx context.Context, msgs []handoff.Message) (*Result, error) {
	return h.extract(ctx, msgs, facts.NewHeadlines())
}

// extract is Extract reading call inputs through heads, the memo BuildWith
// has already filled: each input is then decoded once per build.
func (h *Heuristic) extract(ctx context.Context, msgs []handoff.Message, heads *facts.Headlines) (*Result, error) {
	ds := decisions.Set{Pat: &h.pat, Heads: heads}
	reverts := decisions.NewRevertTracker()
	var currentTask string
	echoes := facts.NewToolEchoes(msgs)
	for i, m := range msgs {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("heuristic extract: %w", err)
			}
		}
		if m.Sidechain || m.Meta || m.CompactSummary {
			continue
		}
		reverts.See(&ds, m, currentTask)
		ds.Confirm(i, m)
		switch m.Role {
		case handoff.RoleAssistant:
			text, labelled := ds.LabelledDecisions(m, echoes.Strip(facts.WithoutThinking(m.Text)), currentTask)
			for _, c := range labelled {
				ds.Add(c)
			}
			ds.Scan(i, m, text, false, currentTask)
			ds.ScanWritten(i, m, currentTask)
		case handoff.RoleUser:
			req := facts.UserRequest(m.Text)
			if req != "" {
				ds.Scan(i, m, req, true, currentTask)
			}
			if conversation.CleanRequest(req) != "" {
				ds.LastUser = i
			}
		}
		for _, c := range m.ToolCalls {
			if tasks, ok := facts.PlanTasks(c, heads); ok {
				currentTask, _ = facts.CurrentAndNext(tasks)
			}
		}
	}
	unconfirmed := len(ds.Pending)
	ds.AddUnconfirmed()
	h.logger.Debug("heuristic extraction", "messages", len(msgs), "decisions", len(ds.List), "unconfirmed", unconfirmed)
	return &Result{
		Decisions: ds.List,
		Usage:     &handoff.ExtractionUsage{Extractor: h.Name()},
	}, nil
}

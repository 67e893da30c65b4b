package llm

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/extractor/decisions"
	"github.com/handoff-cli/handoff/extractor/prose"
)

// ExtractHistory extracts a whole history, not just its latest window: the
// main-thread messages are cut into chunks of at most ChunkTokens that
// overlap by ChunkOverlap messages, up to Concurrency chunks are extracted
// at once, and the results are merged: duplicates from the overlaps folded,
// decisions that a later one reverses marked SupersededBy. Each chunk has
// its own Timeout. The first failing chunk cancels the rest.
func (l *Client) ExtractHistory(ctx context.Context, msgs []handoff.Message) (*extractor.Result, error) {
	return l.extractHistory(ctx, l.Name(), msgs)
}

// History returns an Extractor that reads the whole history with
// ExtractHistory, for batch extraction over past sessions, where Extract
// reads only the checkpoint window.
func (l *Client) History() extractor.Extractor {
	return historyExtractor{name: l.Name(), run: func(ctx context.Context, msgs []handoff.Message) (*extractor.Result, error) {
		return l.extractHistory(ctx, l.Name(), msgs)
	}}
}

// History returns an Extractor that sends, over the whole history, only
// the messages Select keeps, chunked and merged like LLM.ExtractHistory.
func (h *Hybrid) History() extractor.Extractor {
	return historyExtractor{name: h.Name(), run: func(ctx context.Context, msgs []handoff.Message) (*extractor.Result, error) {
		picked := h.Select(msgs)
		h.logger.Debug("hybrid selection over the history", "messages", len(msgs), "selected", len(picked))
		return h.llm.extractHistory(ctx, h.Name(), picked)
	}}
}

// historyExtractor adapts a whole-history extraction to Extractor.
type historyExtractor struct {
	name string
	run  func(ctx context.Context, msgs []handoff.Message) (*extractor.Result, error)
}

func (x historyExtractor) Name() string { return x.name }

func (x historyExtractor) Extract(ctx context.Context, msgs []handoff.Message) (*extractor.Result, error) {
	return x.run(ctx, msgs)
}

func (l *Client) extractHistory(ctx context.Context, name string, msgs []handoff.Message) (*extractor.Result, error) {
	chunks := l.historyChunks(msgs)
	parts := make([]records, len(chunks))
	stats := make([]callStats, len(chunks))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	sem := make(chan struct{}, l.cfg.Concurrency)
	for i, chunk := range chunks {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			cctx, ccancel := context.WithTimeout(ctx, l.cfg.Timeout)
			defer ccancel()
			recs, err := l.extractWindow(cctx, chunk, &stats[i])
			if err != nil {
				errOnce.Do(func() {
					firstErr = fmt.Errorf("extract history: chunk %d of %d (messages %d–%d): %w", i+1, len(chunks), chunk[0].Index, chunk[len(chunk)-1].Index, err)
					cancel()
				})
				return
			}
			parts[i] = recs
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("extract history: %w", err)
	}
	l.logger.Debug("history extracted", "messages", len(msgs), "chunks", len(chunks))
	return l.Result(name, parts, stats), nil
}

// historyChunks cuts the sendable messages into chunks that fit
// ChunkTokens, each starting ChunkOverlap messages before the previous one
// ended. A single message larger than the limit is a chunk of its own (its
// parts are cut when rendered).
func (l *Client) historyChunks(msgs []handoff.Message) [][]handoff.Message {
	var eligible []handoff.Message
	for _, m := range msgs {
		if sendable(m) {
			eligible = append(eligible, m)
		}
	}
	sizes := make([]int, len(eligible))
	for i, m := range eligible {
		sizes[i] = l.countTokens(renderMessage(m))
	}
	var chunks [][]handoff.Message
	for start := 0; start < len(eligible); {
		end, tokens := start, 0
		for end < len(eligible) && (end == start || tokens+sizes[end] <= l.cfg.ChunkTokens) {
			tokens += sizes[end]
			end++
		}
		chunks = append(chunks, eligible[start:end])
		if end == len(eligible) {
			break
		}
		start = max(end-l.cfg.ChunkOverlap, start+1)
	}
	return chunks
}

// mergeRecords joins windows' records in transcript order. A decision that
// repeats a current one (the same message and type, or nearly the same
// words) is folded into it; a decision whose alternatives name what an
// earlier decision chose reverses it, and the earlier one is marked
// superseded. Errors cited twice (from overlapping chunks) are folded.
// Constraints are joined without repeats. Current work and the next step
// come from the last window only: parts are in transcript order, and only
// the last one reaches the session's end, where both are stated.
func mergeRecords(parts []records) records {
	out := mergeDecisionsAndErrors(parts)
	seen := map[string]bool{}
	for _, p := range parts {
		for _, c := range p.Constraints {
			key := strings.ToLower(strings.Join(strings.Fields(c.Text), " "))
			if !seen[key] {
				seen[key] = true
				out.Constraints = append(out.Constraints, c)
			}
		}
	}
	sort.SliceStable(out.Constraints, func(i, j int) bool { return out.Constraints[i].Source.Index < out.Constraints[j].Source.Index })
	if n := len(parts); n > 0 {
		out.CurrentWork, out.NextStep = parts[n-1].CurrentWork, parts[n-1].NextStep
	}
	return out
}

// mergeDecisionsAndErrors is mergeRecords' part for decisions and errors.
func mergeDecisionsAndErrors(parts []records) records {
	var ds []decisionRecord
	var es []handoff.ErrorRecord
	for _, p := range parts {
		ds = append(ds, p.Decisions...)
		es = append(es, p.Errors...)
	}
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].Decision.Source.Index < ds[j].Decision.Source.Index })
	sort.SliceStable(es, func(i, j int) bool { return es[i].Source.Index < es[j].Source.Index })

	var out records
	for _, d := range ds {
		if i := findDuplicate(out.Decisions, d); i >= 0 {
			prev := &out.Decisions[i].Decision
			if prev.Rationale == "" {
				prev.Rationale = d.Decision.Rationale
			}
			if len(prev.Alternatives) == 0 {
				prev.Alternatives = d.Decision.Alternatives
			}
			continue
		}
		d.Decision.ID = "d" + strconv.Itoa(len(out.Decisions)+1)
		d.Decision.SupersededBy = ""
		for i := range out.Decisions {
			prev := &out.Decisions[i]
			if prev.Decision.SupersededBy == "" && reverses(d, *prev) {
				prev.Decision.SupersededBy = d.Decision.ID
			}
		}
		out.Decisions = append(out.Decisions, d)
	}
	for _, e := range es {
		dup := false
		for i := range out.Errors {
			prev := &out.Errors[i]
			if prev.Source.Index == e.Source.Index && prose.Jaccard(prose.WordSet(prev.Message), prose.WordSet(e.Message)) >= 0.5 {
				if prev.Context == "" {
					prev.Context = e.Context
				}
				if prev.ResolutionNotes == "" {
					prev.ResolutionNotes = e.ResolutionNotes
				}
				dup = true
				break
			}
		}
		if !dup {
			e.ID = "e" + strconv.Itoa(len(out.Errors)+1)
			out.Errors = append(out.Errors, e)
		}
	}
	return out
}

// findDuplicate returns the index of a current decision d repeats, or -1.
func findDuplicate(list []decisionRecord, d decisionRecord) int {
	words := prose.WordSet(d.Decision.Description)
	for i, prev := range list {
		if prev.Decision.SupersededBy != "" {
			continue
		}
		sim := prose.Jaccard(words, prose.WordSet(prev.Decision.Description))
		sameSource := prev.Decision.Source.Index == d.Decision.Source.Index && prev.Decision.Type == d.Decision.Type
		if sim >= 0.8 || (sameSource && sim >= 0.4) {
			return i
		}
	}
	return -1
}

// reverses reports whether later moves away from what earlier chose: one
// of its alternatives names the earlier choice, and it does not choose the
// same thing again.
func reverses(later, earlier decisionRecord) bool {
	if later.Decision.Source.Index <= earlier.Decision.Source.Index {
		return false
	}
	chosen := earlier.Chosen
	if strings.TrimSpace(chosen) == "" {
		return false
	}
	if later.Chosen != "" && decisions.Overlaps([]string{later.Chosen}, []string{chosen}) {
		return false
	}
	return decisions.Overlaps(later.Decision.Alternatives, []string{chosen})
}

package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// Benchmark words: every snapshot mentions Common, one in ten Mid, one in
// a hundred Rare, so a search can be timed at each selectivity.
const (
	CommonWord = "cache"
	MidWord    = "kafka"
	RareWord   = "zeppelin"
)

// TeamSnap is snapshot i of a team's history, the size of a real one:
// three decisions, two errors, three requests, five files and a next step.
func TeamSnap(wf string, i int) *handoff.Snapshot {
	word := func(every int, w, otherwise string) string {
		if i%every == 0 {
			return w
		}
		return otherwise
	}
	mid, rare := word(10, MidWord, "rabbitmq"), word(100, RareWord, "balloon")
	return &handoff.Snapshot{
		WorkflowID: wf,
		SessionID:  fmt.Sprintf("sess-%d", i),
		Trigger:    handoff.TriggerPause,
		CreatedAt:  time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute),
		Goal:       fmt.Sprintf("Ship feature %d: move the %s layer behind %s", i, CommonWord, mid),
		Requests: []handoff.Request{
			{Text: fmt.Sprintf("Please move the %s layer to %s and keep the API stable (ticket %d)", CommonWord, mid, i)},
			{Text: "Run the tests before you commit, and do not touch the migrations"},
			{Text: fmt.Sprintf("Also check the %s dashboard numbers", rare)},
		},
		Decisions: []handoff.Decision{
			{ID: "d1", Type: handoff.DecisionArchitecture, Description: fmt.Sprintf("Put the %s behind an interface so %s can replace it", CommonWord, mid),
				Rationale: "the team wants to swap backends without touching callers", Alternatives: []string{"a global singleton", "build tags"}},
			{ID: "d2", Type: handoff.DecisionLibrary, Description: fmt.Sprintf("Use the %s client library v%d", mid, i%7), Rationale: "it supports context cancellation"},
			{ID: "d3", Type: handoff.DecisionWorkaround, Description: fmt.Sprintf("Retry %s publishes three times with backoff", rare)},
		},
		Errors: []handoff.ErrorRecord{
			{ID: "e1", Message: fmt.Sprintf("dial tcp 10.0.%d.%d:9092: connection refused", i%256, i%200), Command: "go test ./internal/...", Resolution: handoff.ResolutionUnresolved},
			{ID: "e2", Message: "panic: nil map assignment in cache warmup", Context: "seen once after the refactor", Resolution: handoff.ResolutionFixed},
		},
		FilesModified: []handoff.FileChange{
			{Path: fmt.Sprintf("internal/%s/client.go", CommonWord), Edits: 3}, {Path: "internal/queue/publish.go", Edits: 1},
			{Path: fmt.Sprintf("cmd/svc%d/main.go", i%50), Edits: 1}, {Path: "docs/ARCHITECTURE.md", Edits: 2}, {Path: "go.mod", Edits: 1},
		},
		NextStep: fmt.Sprintf("Rerun go test ./internal/... once %s is reachable", mid),
		Usage:    handoff.Usage{ContextUtilization: float64(i%100) / 100},
	}
}

// Fill stores workflows × perWorkflow TeamSnaps (snapshot i of workflow
// w is TeamSnap number w*perWorkflow+i) through SaveSnapshot.
func Fill(tb testing.TB, s interface {
	SaveSnapshot(ctx context.Context, snap *handoff.Snapshot, wf store.WorkflowInfo) error
}, workflows, perWorkflow int) {
	tb.Helper()
	ctx := context.Background()
	for w := range workflows {
		wf := fmt.Sprintf("wf_bench_%05d", w)
		for i := range perWorkflow {
			n := w*perWorkflow + i
			if err := s.SaveSnapshot(ctx, TeamSnap(wf, n), store.WorkflowInfo{Name: wf, Dir: "/src/" + wf}); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

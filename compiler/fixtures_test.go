package compiler

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
)

// counter is the real o200k counter, built once: building one parses a
// large vocabulary. Its counts are remembered across tests (see
// memoCounter).
var counter = sync.OnceValues(func() (memoCounter, error) {
	c, err := capacity.NewCounter(capacity.O200kBase)
	return memoCounter{c: c, counts: &sync.Map{}}, err
})

// memoCounter is the shared o200k counter with its counts remembered: the
// budget sweeps compile the same snapshots at many budgets and count the
// same pieces each time; the same text gets the same count, tokenized
// once.
type memoCounter struct {
	c      *capacity.Counter
	counts *sync.Map // text → its count
}

func (m memoCounter) Count(text string) int {
	if n, ok := m.counts.Load(text); ok {
		return n.(int)
	}
	n := m.c.Count(text)
	m.counts.Store(text, n)
	return n
}

// testCounter is the o200k counter for tests (see memoCounter).
func testCounter(tb testing.TB) TokenCounter {
	tb.Helper()
	c, err := counter()
	if err != nil {
		tb.Fatalf("build counter: %v", err)
	}
	return c
}

// realCounter is the shared o200k counter itself, for benchmarks.
func realCounter(tb testing.TB) *capacity.Counter {
	tb.Helper()
	c, err := counter()
	if err != nil {
		tb.Fatalf("build counter: %v", err)
	}
	return c.c
}

var snapshotTime = time.Date(2025, 3, 14, 16, 5, 0, 0, time.UTC)

// rateLimitSnapshot is a realistic snapshot: an agent adding rate
// limiting to an HTTP API, paused with one test failing.
func rateLimitSnapshot() *handoff.Snapshot {
	return &handoff.Snapshot{
		SchemaVersion: handoff.SnapshotSchemaVersion,
		ID:            "snap-7f3a9c",
		WorkflowID:    "wf-ratelimit",
		SessionNumber: 2,
		SessionID:     "0b8e5c1e-5b7a-4a55-9f8e-6a2d3c4b5a69",
		CreatedAt:     snapshotTime,
		Trigger:       handoff.TriggerExhaustion,
		PauseReason:   "context window 86% full",
		Goal:          "Add per-client rate limiting to the public HTTP API: 100 requests per minute per API key with bursts of up to 20, return 429 with a Retry-After header when exceeded, and keep limits consistent across the three API replicas.",
		Tasks: []handoff.Task{
			{ID: "1", Content: "Survey existing middleware chain in internal/server", Status: handoff.TaskCompleted, Priority: "high"},
			{ID: "2", Content: "Implement token-bucket limiter backed by Redis", Status: handoff.TaskCompleted, Priority: "high"},
			{ID: "3", Content: "Wire limiter middleware into the router and return 429 with Retry-After", Status: handoff.TaskInProgress, Priority: "high"},
			{ID: "4", Content: "Run go test ./... and fix failures", Status: handoff.TaskPending, Priority: "medium"},
			{ID: "5", Content: "Document the limits in docs/api.md", Status: handoff.TaskPending, Priority: "low"},
		},
		CurrentTaskID: "3",
		NextTaskID:    "4",
		NextStep:      "Fix the failing test TestRateLimitBurst (run: go test ./internal/ratelimit/...)",
		GitState: &handoff.GitState{
			Available:   true,
			Branch:      "feature/rate-limit",
			Commit:      "9c1e2f4a7b3d5e6f8a9b0c1d2e3f4a5b6c7d8e9f",
			StartCommit: "1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b",
			Dirty:       true,
			Modified:    []string{"internal/server/router.go", "go.mod"},
			Untracked:   []string{"internal/ratelimit/bucket.go", "internal/ratelimit/bucket_test.go"},
		},
		Decisions: []handoff.Decision{
			{ID: "d1", Timestamp: snapshotTime.Add(-90 * time.Minute), TaskID: "2", Type: handoff.DecisionLibrary,
				Description:  "Use golang.org/x/time/rate for the limiter",
				Rationale:    "Standard token bucket, no new dependency server-side",
				Alternatives: []string{"uber-go/ratelimit"},
				Source:       handoff.MessageRef{Index: 12}, SupersededBy: "d2"},
			{ID: "d2", Timestamp: snapshotTime.Add(-70 * time.Minute), TaskID: "2", Type: handoff.DecisionArchitecture,
				Description:  "Keep token buckets in Redis so all replicas share one limit per key",
				Rationale:    "In-process buckets let a client get 3x the limit across the three replicas",
				Alternatives: []string{"golang.org/x/time/rate in process", "sticky sessions at the load balancer"},
				Source:       handoff.MessageRef{Index: 31}},
			{ID: "d3", Timestamp: snapshotTime.Add(-50 * time.Minute), TaskID: "3", Type: handoff.DecisionApproach,
				Description: "Key the limit on the API key, falling back to client IP for unauthenticated routes",
				Rationale:   "The product spec limits per customer, not per connection",
				Source:      handoff.MessageRef{Index: 44}},
			{ID: "d4", Timestamp: snapshotTime.Add(-20 * time.Minute), TaskID: "3", Type: handoff.DecisionClarification,
				Description: "The user wants Retry-After in whole seconds, rounded up",
				Source:      handoff.MessageRef{Index: 58}},
		},
		Errors: []handoff.ErrorRecord{
			{ID: "e1", Type: "build_error", Message: "internal/ratelimit/bucket.go:42:9: undefined: redis.NewScript",
				Command: "go build ./...", Context: "compiling the Redis-backed bucket", Resolution: handoff.ResolutionFixed,
				ResolutionNotes: "imported github.com/redis/go-redis/v9", Source: handoff.MessageRef{Index: 36},
				ResolvedBy: &handoff.MessageRef{Index: 38}},
			{ID: "e2", Type: "test_failure", Message: "--- FAIL: TestRateLimitBurst (0.02s)\n    bucket_test.go:88: got 19 allowed requests in burst, want 20",
				Command: "go test ./internal/ratelimit/...", Context: "checking burst capacity after wiring the middleware",
				Resolution: handoff.ResolutionUnresolved, Source: handoff.MessageRef{Index: 61}, Occurrences: 2},
		},
		TestState: &handoff.TestState{
			Command:      "go test ./internal/ratelimit/...",
			Status:       handoff.TestsFailing,
			FailingTests: []string{"TestRateLimitBurst"},
			Summary:      "FAIL github.com/example/api/internal/ratelimit 0.41s",
			Source:       handoff.MessageRef{Index: 61},
		},
		Usage: handoff.Usage{
			TokensUsed: 172034, ContextWindow: 200000, TokensRemainingEstimate: 27966,
			ContextUtilization: 0.86017, Source: handoff.UsageProvider, Model: "claude-sonnet-4-5",
			LLMCalls: 64, ToolCalls: 112,
		},
		FilesModified: []handoff.FileChange{
			{Path: "internal/ratelimit/bucket.go", Operations: []string{"Write", "Edit"}, Edits: 5},
			{Path: "internal/ratelimit/bucket_test.go", Operations: []string{"Write", "Edit"}, Edits: 3},
			{Path: "internal/server/router.go", Operations: []string{"Edit"}, Edits: 2},
			{Path: "go.mod", Operations: []string{"Edit"}, Edits: 1},
		},
		Source: handoff.SourceInfo{Format: "claude-code", Agent: "claude-code", Model: "claude-sonnet-4-5", Messages: 140},
	}
}

// hugeSnapshot has far more than any budget holds: 500 decisions, 300
// errors, a 10 KB goal and 10 KB strings throughout.
func hugeSnapshot() *handoff.Snapshot { return hugeSnapshotOf(1) }

// sweepSnapshot is hugeSnapshot for the budget sweeps: under the race
// detector a fifth of its lists (100 decisions, 60 errors), still far
// more than any budget holds, since each compile of the whole one costs
// seconds there and the sweeps have no concurrency to check (see
// raceEnabled); the plain run sweeps the whole one.
func sweepSnapshot() *handoff.Snapshot {
	if raceEnabled {
		return hugeSnapshotOf(5)
	}
	return hugeSnapshotOf(1)
}

// hugeSnapshotOf is hugeSnapshot with each list cut to 1/div of its length.
func hugeSnapshotOf(div int) *handoff.Snapshot {
	s := rateLimitSnapshot()
	long := func(seed string) string {
		return strings.Repeat(seed+" lorem ipsum dolor sit amet, consectetur adipiscing elit. ", 10*1024/(len(seed)+58)+1)[:10*1024]
	}
	s.Goal = long("goal")
	s.Tasks = nil
	for i := range 60 / div {
		status := []handoff.TaskStatus{handoff.TaskCompleted, handoff.TaskInProgress, handoff.TaskPending}[i%3]
		s.Tasks = append(s.Tasks, handoff.Task{ID: fmt.Sprint(i + 1), Content: long(fmt.Sprintf("task %d", i)), Status: status})
	}
	s.CurrentTaskID, s.NextTaskID = "2", "3"
	s.Decisions = nil
	for i := range 500 / div {
		d := handoff.Decision{ID: fmt.Sprintf("d%d", i), Type: handoff.DecisionApproach,
			Description: fmt.Sprintf("decision %d: ", i) + long("why"), Rationale: long("because"),
			Alternatives: []string{long("alt a"), long("alt b")}, Source: handoff.MessageRef{Index: i}}
		if i%4 == 0 {
			d.SupersededBy = fmt.Sprintf("d%d", i+1)
		}
		s.Decisions = append(s.Decisions, d)
	}
	s.Errors = nil
	for i := range 300 / div {
		res := handoff.ResolutionFixed
		if i%3 == 0 {
			res = handoff.ResolutionUnresolved
		}
		s.Errors = append(s.Errors, handoff.ErrorRecord{ID: fmt.Sprintf("e%d", i), Type: "command_failed",
			Message: fmt.Sprintf("error %d: ", i) + long("panic"), Command: long("go test"), Context: long("ctx"),
			Resolution: res, ResolutionNotes: long("notes"), Source: handoff.MessageRef{Index: i}})
	}
	s.FilesModified = nil
	for i := range 400 / div {
		s.FilesModified = append(s.FilesModified, handoff.FileChange{Path: fmt.Sprintf("pkg/%03d/", i) + long("dir")[:300], Operations: []string{"Edit"}, Edits: i})
	}
	for i := range 200 / div {
		s.GitState.Modified = append(s.GitState.Modified, fmt.Sprintf("pkg/%03d/file.go", i))
	}
	for i := range 100 / div {
		s.TestState.FailingTests = append(s.TestState.FailingTests, fmt.Sprintf("TestCase%03d/%s", i, long("sub")[:200]))
	}
	s.NextStep = "Fix the failing tests " + long("next")
	return s
}

// emptySnapshot has nothing but what every stored snapshot has.
func emptySnapshot() *handoff.Snapshot {
	return &handoff.Snapshot{SchemaVersion: handoff.SnapshotSchemaVersion}
}

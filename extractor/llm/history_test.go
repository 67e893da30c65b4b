package llm

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

var messageIndexRe = regexp.MustCompile(`<message index="(\d+)" role="(\w+)">`)

// sentIndexes lists the message indexes a request carried, by role.
func sentIndexes(transcript string) map[int]string {
	out := map[int]string{}
	for _, m := range messageIndexRe.FindAllStringSubmatch(transcript, -1) {
		i, _ := strconv.Atoi(m[1])
		out[i] = m[2]
	}
	return out
}

// longSession is a history where SQLite is chosen early (message 1) and
// reversed for Postgres late (message 32), with a failing migration in
// between (message 15) and filler turns around them.
func longSession(t testing.TB) []handoff.Message {
	c := sessiontest.NewConvo(t)
	c.User("Build the storage layer for the todo service. Token: " + fakeSecret)
	c.Say("We'll go with SQLite for storage because it is embedded and needs no server.")
	for i := 0; len(c.Msgs) < 14; i++ {
		c.Bash(fmt.Sprintf("Step %d: reading the handlers.", i), "cat handlers.go", strings.Repeat("func handler() {}\n", 20), 0)
	}
	c.Bash("Running the migration.", "go run ./cmd/migrate", "Error: database is locked (SQLITE_BUSY)", 1)
	for len(c.Msgs) < 31 {
		c.Bash("Retrying with a busy timeout.", "go run ./cmd/migrate", "migration applied", 0)
	}
	c.Say("Switching to Postgres instead of SQLite since several writers must commit at once.")
	c.Say("Done with the storage layer.")
	return c.Msgs
}

// historyAnswer answers for whichever of the known messages the chunk
// carries, the same way each time, as a deterministic model would.
func historyAnswer(req fakeRequest) string {
	sent := sentIndexes(req.Transcript())
	var ds, es []string
	if sent[1] == "assistant" {
		ds = append(ds, `{"source_index":1,"decision_type":"library","description":"Use SQLite for storage","rationale":"embedded, no server","alternatives_considered":[],"chosen":"SQLite"}`)
	}
	if sent[32] == "assistant" {
		ds = append(ds, `{"source_index":32,"decision_type":"library","description":"Switch to Postgres for storage","rationale":"several concurrent writers","alternatives_considered":["SQLite"],"chosen":"Postgres"}`)
	}
	if _, ok := sent[15]; ok {
		es = append(es, `{"source_index":15,"error_type":"command_failed","error_message":"database is locked (SQLITE_BUSY)","context":"running the migration","resolution":"workaround","resolution_notes":"retried with a busy timeout"}`)
	}
	return `{"decisions":[` + strings.Join(ds, ",") + `],"errors":[` + strings.Join(es, ",") + `]}`
}

func TestHistoryChunksOverlapAndCoverAll(t *testing.T) {
	t.Parallel()
	f := newFakeServer(t, nil)
	msgs := longSession(t)
	l := newTestLLM(t, f, nil, func(c *Config) { c.ChunkTokens = 600; c.ChunkOverlap = 2 })
	chunks := l.historyChunks(msgs)
	if len(chunks) < 3 {
		t.Fatalf("%d chunks; the test wants several", len(chunks))
	}
	seen := map[int]bool{}
	for i, ch := range chunks {
		tokens := 0
		for _, m := range ch {
			seen[m.Index] = true
			tokens += l.countTokens(renderMessage(m))
		}
		if tokens > 600 && len(ch) > 1 {
			t.Errorf("chunk %d has %d tokens, over the limit", i, tokens)
		}
		if i > 0 {
			prev := chunks[i-1]
			if shared := prev[len(prev)-1].Index - ch[0].Index + 1; shared != 2 {
				t.Errorf("chunks %d and %d share %d messages, want 2", i-1, i, shared)
			}
		}
	}
	if len(seen) != len(msgs) {
		t.Errorf("chunks cover %d of %d messages", len(seen), len(msgs))
	}
}

func TestExtractHistoryMergesChunks(t *testing.T) {
	t.Parallel()
	f := newFakeServer(t, func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
		completion(w, historyAnswer(req), "stop", "")
	})
	cache := &memCache{}
	cfg := func(c *Config) { c.ChunkTokens = 600; c.ChunkOverlap = 2; c.Concurrency = 3; c.Cache = cache }
	l := newTestLLM(t, f, nil, cfg)
	msgs := longSession(t)
	res, err := l.ExtractHistory(context.Background(), msgs)
	if err != nil {
		t.Fatal(err)
	}
	f.assertNoSecret()
	chunks := len(l.historyChunks(msgs))
	if n := len(f.requests()); n != chunks || res.Usage.Calls != chunks {
		t.Errorf("requests = %d, calls = %d, want %d (one per chunk)", n, res.Usage.Calls, chunks)
	}
	if len(res.Decisions) != 2 || len(res.Errors) != 1 {
		t.Fatalf("got %+v", res)
	}
	sqlite, pg := res.Decisions[0], res.Decisions[1]
	if sqlite.Source.Index != 1 || pg.Source.Index != 32 {
		t.Fatalf("decisions out of order: %+v", res.Decisions)
	}
	if sqlite.SupersededBy != pg.ID || pg.SupersededBy != "" {
		t.Errorf("reversal not recorded: %+v", res.Decisions)
	}
	if e := res.Errors[0]; e.Resolution != handoff.ResolutionWorkaround || e.Source.Index != 15 {
		t.Errorf("error = %+v", e)
	}

	// A second run over the unchanged history is all cache hits.
	l2 := newTestLLM(t, f, nil, cfg)
	again, err := l2.ExtractHistory(context.Background(), msgs)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.requests()); n != chunks || again.Usage.Calls != 0 || again.Usage.CacheHits != chunks {
		t.Errorf("second run: %d requests in all, usage %+v", n, again.Usage)
	}
	if fmt.Sprint(again.Decisions) != fmt.Sprint(res.Decisions) {
		t.Errorf("second run differs: %+v", again.Decisions)
	}
}

func TestExtractHistoryFailsOnAChunkError(t *testing.T) {
	t.Parallel()
	f := newFakeServer(t, func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
		if _, ok := sentIndexes(req.Transcript())[15]; ok {
			apiError(w, 401, "invalid_request_error", "invalid_api_key", "", "Incorrect API key provided")
			return
		}
		completion(w, historyAnswer(req), "stop", "")
	})
	l := newTestLLM(t, f, nil, func(c *Config) { c.ChunkTokens = 600; c.Concurrency = 1 })
	_, err := l.ExtractHistory(context.Background(), longSession(t))
	if err == nil || handoff.ErrorCode(err) != handoff.EINVALID || !strings.Contains(err.Error(), "chunk") {
		t.Errorf("err = %v", err)
	}
}

// TestExtractHistoryBoundsConcurrency counts requests in flight at the
// fake server: never more than Concurrency.
func TestExtractHistoryBoundsConcurrency(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	inFlight, peak := 0, 0
	release := make(chan struct{})
	var releaseOnce sync.Once // two requests can be in flight more than once
	f := newFakeServer(t, func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inFlight++
		peak = max(peak, inFlight)
		full := inFlight == 2
		mu.Unlock()
		if full {
			releaseOnce.Do(func() { close(release) })
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
		mu.Lock()
		inFlight--
		mu.Unlock()
		completion(w, `{"decisions":[],"errors":[]}`, "stop", "")
	})
	l := newTestLLM(t, f, nil, func(c *Config) { c.ChunkTokens = 600; c.Concurrency = 2 })
	if _, err := l.ExtractHistory(context.Background(), longSession(t)); err != nil {
		t.Fatal(err)
	}
	if peak != 2 {
		t.Errorf("peak requests in flight = %d, want 2", peak)
	}
}

func TestMergeRecords(t *testing.T) {
	t.Parallel()
	dec := func(idx int, desc, chosen string, alts ...string) decisionRecord {
		return decisionRecord{Decision: handoff.Decision{Type: handoff.DecisionApproach, Description: desc, Alternatives: alts, Source: handoff.MessageRef{Index: idx}}, Chosen: chosen}
	}
	cases := []struct {
		name  string
		parts []records
		want  string // "index:superseded-by" per decision
	}{
		{"overlap duplicate folded", []records{
			{Decisions: []decisionRecord{dec(3, "Use cobra for the CLI", "cobra")}},
			{Decisions: []decisionRecord{dec(3, "Use cobra for the command line", "cobra")}},
		}, "3:"},
		{"reversal supersedes", []records{
			{Decisions: []decisionRecord{dec(3, "Use cobra for the CLI", "cobra")}},
			{Decisions: []decisionRecord{dec(9, "Use the standard flag package", "flag package", "cobra")}},
		}, "3:d2 9:"},
		{"refinement is not a reversal", []records{
			{Decisions: []decisionRecord{dec(3, "Use cobra for the CLI", "cobra")}},
			{Decisions: []decisionRecord{dec(9, "Use cobra subcommands per job", "cobra subcommands", "cobra flags only")}},
		}, "3: 9:"},
		{"earlier cannot reverse later", []records{
			{Decisions: []decisionRecord{dec(9, "Use cobra", "cobra")}},
			{Decisions: []decisionRecord{dec(3, "Use flag", "flag", "cobra")}},
		}, "3: 9:"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := mergeRecords(tc.parts)
			var b []string
			for _, d := range got.Decisions {
				b = append(b, fmt.Sprintf("%d:%s", d.Decision.Source.Index, d.Decision.SupersededBy))
			}
			if s := strings.Join(b, " "); s != tc.want {
				t.Errorf("got %q, want %q", s, tc.want)
			}
		})
	}
}

// TestHybridSendsLess: Hybrid sends the turns that matter and skips
// successful tool output, and the model's citations still resolve.
func TestHybridSendsLess(t *testing.T) {
	t.Parallel()
	f := newFakeServer(t, func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
		completion(w, historyAnswer(req), "stop", "")
	})
	msgs := longSession(t)
	l := newTestLLM(t, f, nil, nil)
	full, err := l.Extract(context.Background(), msgs)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHybrid(l, nil)
	hy, err := h.Extract(context.Background(), msgs)
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	llmSent, hybridSent := len(reqs[0].Transcript()), len(reqs[1].Transcript())
	if hybridSent >= llmSent/2 {
		t.Errorf("hybrid sent %d bytes, LLM %d: want under half", hybridSent, llmSent)
	}
	sent := sentIndexes(reqs[1].Transcript())
	for _, i := range []int{0, 1, 14, 15, 32, 33} {
		if _, ok := sent[i]; !ok {
			t.Errorf("hybrid did not send message %d (sent %v)", i, sent)
		}
	}
	if hy.Usage.Extractor != "hybrid" || len(hy.Decisions) != len(full.Decisions) || len(hy.Errors) != len(full.Errors) {
		t.Errorf("hybrid %+v, llm %+v", hy, full)
	}
	f.assertNoSecret()
}

// TestConcurrentFallback: chunks extracted at once all meet the rejected
// json_schema; the chain steps down once per mode and every chunk ends up
// answered in json_object mode.
func TestConcurrentFallback(t *testing.T) {
	t.Parallel()
	f := newFakeServer(t, func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
		if req.ResponseFormat != nil && req.ResponseFormat.Type == "json_schema" {
			apiError(w, 400, "invalid_request_error", "", "response_format", "json_schema is not supported by this server")
			return
		}
		completion(w, historyAnswer(req), "stop", "")
	})
	l := newTestLLM(t, f, nil, func(c *Config) { c.ChunkTokens = 600; c.Concurrency = 4 })
	res, err := l.ExtractHistory(context.Background(), longSession(t))
	if err != nil {
		t.Fatal(err)
	}
	if l.OutputMode() != "json_object" || len(res.Decisions) != 2 {
		t.Errorf("mode %s, result %+v", l.OutputMode(), res)
	}
	chunks := len(l.historyChunks(longSession(t)))
	objects := 0
	for _, r := range f.requests() {
		if r.format() == "json_object" {
			objects++
		}
	}
	if objects != chunks || res.Usage.Calls != chunks {
		t.Errorf("%d json_object requests, %d calls, want %d", objects, res.Usage.Calls, chunks)
	}
}

// TestMergeJudgedRecords: constraints from overlapping chunks are joined
// without repeats; current work and the next step come from the last
// chunk only, even when it has none and an earlier chunk had one.
func TestMergeJudgedRecords(t *testing.T) {
	t.Parallel()
	ref := func(i int) handoff.MessageRef { return handoff.MessageRef{Index: i} }
	early := &extractor.Judged{Text: "Write the migration", Source: ref(10)}
	late := &extractor.Judged{Text: "Update the README", Source: ref(40)}
	parts := []records{
		{Constraints: []handoff.Constraint{{Text: "Never push to main", Source: ref(5)}}, NextStep: early, CurrentWork: early},
		{Constraints: []handoff.Constraint{{Text: "never  push to main", Source: ref(5)}, {Text: "Ask before deleting data", Source: ref(30)}}, NextStep: late},
	}
	got := mergeRecords(parts)
	if len(got.Constraints) != 2 || got.Constraints[0].Source.Index != 5 || got.Constraints[1].Source.Index != 30 {
		t.Errorf("constraints = %+v", got.Constraints)
	}
	if got.NextStep != late || got.CurrentWork != nil {
		t.Errorf("next %+v, current %+v; want the last chunk's", got.NextStep, got.CurrentWork)
	}
}

// TestExtractHistoryNextStepFromTheEnd: every chunk's model states a next
// step from its own last turn; the history's is the final chunk's.
func TestExtractHistoryNextStepFromTheEnd(t *testing.T) {
	t.Parallel()
	f := newFakeServer(t, func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
		last := -1
		for i, role := range sentIndexes(req.Transcript()) {
			if role == "assistant" && i > last {
				last = i
			}
		}
		text := "Retry the migration with a busy timeout"
		if last == 33 {
			text = "Confirm the storage layer is done"
		}
		completion(w, `{"decisions":[],"errors":[],"user_decisions":[],"constraints":[],"current_work":{"source_index":-1,"text":""},"next_step":{"source_index":`+sessiontest.Itoa(last)+`,"text":"`+text+`"}}`, "stop", "")
	})
	l := newTestLLM(t, f, nil, func(c *Config) { c.ChunkTokens = 600; c.Concurrency = 3 })
	res, err := l.ExtractHistory(context.Background(), longSession(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.requests()) < 3 {
		t.Fatalf("%d requests; the test wants several chunks", len(f.requests()))
	}
	if res.NextStep == nil || res.NextStep.Source.Index != 33 || res.NextStep.Text != "Confirm the storage layer is done" {
		t.Errorf("next step = %+v (warnings %q)", res.NextStep, res.Warnings)
	}
}

package llm

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/transcript"
)

// realClaudeCode parses the public Claude Code transcripts, skipping when
// the shared folder is absent.
func realClaudeCode(tb testing.TB) map[string]*handoff.Transcript {
	tb.Helper()
	files, _ := filepath.Glob("../../../shared/transcripts/claude-code/*.jsonl")
	if len(files) == 0 {
		tb.Skip("no transcripts in ../../shared/transcripts/claude-code")
	}
	out := map[string]*handoff.Transcript{}
	for _, f := range files {
		t, err := transcript.ParseFile(context.Background(), f, transcript.Options{Source: f})
		if err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = t
	}
	return out
}

// firstAssistantRe finds the first assistant message of a rendered
// transcript that starts with text, and that text's first line.
var firstAssistantRe = regexp.MustCompile(`<message index="(\d+)" role="assistant">\n([^\[\n][^\n]*)`)

// echoFirstAssistant answers with one decision citing the first assistant
// message with text that the request carried, described in that message's
// own first words (so it is grounded, as a faithful model's would be), and
// reports no usage, so the extractor counts what it sent with its own
// tokenizer.
func echoFirstAssistant(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
	answer := `{"decisions":[],"errors":[]}`
	if m := firstAssistantRe.FindStringSubmatch(req.Transcript()); m != nil {
		words := strings.Fields(m[2])
		desc, _ := json.Marshal(strings.Join(words[:min(len(words), 12)], " "))
		answer = `{"decisions":[{"source_index":` + m[1] + `,"decision_type":"approach","description":` + string(desc) + `,"rationale":"","alternatives_considered":[],"chosen":""}],"errors":[]}`
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-bench", "object": "chat.completion", "created": 1763600000, "model": "gpt-4o-mini",
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": answer}, "finish_reason": "stop"}},
	})
}

func newCounter(tb testing.TB) *capacity.Counter {
	tb.Helper()
	c, err := capacity.NewCounter(capacity.O200kBase)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// TestBatchOverRealTranscripts extracts every real Claude Code history
// through the fake server, reports calls and tokens sent, and checks that
// a second run over the same histories makes no calls at all.
func TestBatchOverRealTranscripts(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	sessions := realClaudeCode(t)
	if raceEnabled {
		// Three sessions under -race, enough for requests in flight
		// together and a cache shared by two runs (see raceEnabled); the
		// plain run extracts every one.
		for _, name := range slices.Sorted(maps.Keys(sessions))[3:] {
			delete(sessions, name)
		}
	}
	f := newFakeServer(t, echoFirstAssistant)
	cache := &memCache{}
	// Tokens are estimated (4 bytes a token) to keep the test light; the
	// benchmark below counts with the real tokenizer.
	cfg := func(c *Config) { c.Cache = cache; c.Concurrency = 2 }
	l := newTestLLM(t, f, nil, cfg)
	var calls, tokens, decisions int
	for name, tr := range sessions {
		res, err := l.ExtractHistory(context.Background(), tr.Messages)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		calls += res.Usage.Calls
		tokens += res.Usage.PromptTokens
		decisions += len(res.Decisions)
	}
	t.Logf("first run over %d sessions: %d calls, %d prompt tokens sent (estimated), %d decisions", len(sessions), calls, tokens, decisions)
	if decisions == 0 {
		t.Error("no decision survived validation, though the fake cites each one in its message's own words")
	}
	if calls == 0 || calls != len(f.requests()) {
		t.Errorf("calls = %d, requests = %d", calls, len(f.requests()))
	}
	before := len(f.requests())
	l2 := newTestLLM(t, f, nil, cfg)
	hits := 0
	for name, tr := range sessions {
		res, err := l2.ExtractHistory(context.Background(), tr.Messages)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		hits += res.Usage.CacheHits
	}
	if after := len(f.requests()); after != before || hits != calls {
		t.Errorf("second run made %d requests, %d cache hits (want 0, %d)", after-before, hits, calls)
	}
	t.Logf("second run: %d calls, %d cache hits", len(f.requests())-before, hits)
	f.assertNoSecret()
}

// BenchmarkTokensPerCheckpoint compares what a checkpoint sends (the LLM
// extractor's last-window request, and Hybrid's selection) with the whole
// main-thread transcript, which is what built-in compaction sends to
// summarise. Reported as ratios over all real Claude Code transcripts.
func BenchmarkTokensPerCheckpoint(b *testing.B) {
	sessions := realClaudeCode(b)
	counter := newCounter(b)
	f := newFakeServer(b, echoFirstAssistant)
	l, err := New(Config{BaseURL: f.srv.URL + "/v1", APIKey: "test-key-not-a-secret", CountTokens: counter.Count})
	if err != nil {
		b.Fatal(err)
	}
	h := NewHybrid(l, nil)
	var whole, checkpoint, hybrid int
	for b.Loop() {
		whole, checkpoint, hybrid = 0, 0, 0
		for name, tr := range sessions {
			main := tr.MainThread()
			w := counter.CountMessages(main)
			r1, err := l.Extract(context.Background(), tr.Messages)
			if err != nil {
				b.Fatalf("%s: %v", name, err)
			}
			r2, err := h.Extract(context.Background(), tr.Messages)
			if err != nil {
				b.Fatalf("%s: %v", name, err)
			}
			b.Logf("%-52s whole %7d  checkpoint %6d (%.3f)  hybrid %6d (%.3f)", name, w, r1.Usage.PromptTokens, ratio(r1.Usage.PromptTokens, w), r2.Usage.PromptTokens, ratio(r2.Usage.PromptTokens, w))
			whole += w
			checkpoint += r1.Usage.PromptTokens
			hybrid += r2.Usage.PromptTokens
		}
	}
	b.ReportMetric(float64(whole)/float64(len(sessions)), "whole-tokens/session")
	b.ReportMetric(float64(checkpoint)/float64(len(sessions)), "checkpoint-tokens/session")
	b.ReportMetric(ratio(checkpoint, whole), "checkpoint/whole")
	b.ReportMetric(ratio(hybrid, whole), "hybrid/whole")
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// BenchmarkExtractHistoryConcurrency measures the wall time of a history
// extraction of 8 chunks against a server that takes 200 ms per request,
// with Concurrency 1 (the baseline) and 4, and reports their ratio.
func BenchmarkExtractHistoryConcurrency(b *testing.B) {
	if testing.Short() {
		b.Skip("sleeps against a slow fake server")
	}
	f := newFakeServer(b, func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(200 * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		completion(w, `{"decisions":[],"errors":[]}`, "stop", "")
	})
	msgs := longSession(b)
	run := func(concurrency int) time.Duration {
		l, err := New(Config{BaseURL: f.srv.URL + "/v1", APIKey: "test-key-not-a-secret", ChunkTokens: 250, ChunkOverlap: 1, Concurrency: concurrency})
		if err != nil {
			b.Fatal(err)
		}
		if n := len(l.historyChunks(msgs)); n < 8 {
			b.Fatalf("%d chunks, want at least 8", n)
		}
		start := time.Now()
		if _, err := l.ExtractHistory(context.Background(), msgs); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	var serial, parallel time.Duration
	for b.Loop() {
		serial += run(1)
		parallel += run(4)
	}
	b.ReportMetric(serial.Seconds()/float64(b.N), "s/history-c1")
	b.ReportMetric(parallel.Seconds()/float64(b.N), "s/history-c4")
	b.ReportMetric(serial.Seconds()/parallel.Seconds(), "speedup-c4/c1")
}

// TestSessionFixturesCarryNoSecretIntoRenders is a guard on the fixtures
// themselves: the planted key is really there before redaction.
func TestSessionFixturesCarryNoSecretIntoRenders(t *testing.T) {
	t.Parallel()
	msgs := sessionWithSecret(t)
	raw, _ := json.Marshal(msgs)
	if !strings.Contains(string(raw), fakeSecret) {
		t.Fatal("fixture lost its planted secret; the leak checks would prove nothing")
	}
	for _, m := range msgs {
		if out := renderMessage(m); strings.Contains(out, "FAKEfake") {
			t.Errorf("render of message %d leaks: %s", m.Index, out)
		}
	}
}

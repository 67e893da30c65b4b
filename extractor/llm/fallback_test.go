package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor"
)

// TestFallbackToHeuristic: a server that fails every request makes the
// LLM unavailable; Fallback answers with the heuristic, says so once, and
// skips the dead endpoint on the next call. A configuration error is not
// papered over.
func TestFallbackToHeuristic(t *testing.T) {
	t.Parallel()
	f := newFakeServer(t, func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
		apiError(w, 500, "server_error", "", "", "The server had an error")
	})
	l := newTestLLM(t, f, &sleepRecorder{}, func(c *Config) { c.MaxRetries = 2 })
	var mu sync.Mutex
	var calls []bool
	fb := &Fallback{Primary: l, Secondary: extractor.NewHeuristic(nil), OnFallback: func(err error, down bool) {
		mu.Lock()
		defer mu.Unlock()
		if handoff.ErrorCode(err) != handoff.EUNAVAILABLE {
			t.Errorf("fallback for %v", err)
		}
		calls = append(calls, down)
	}}
	msgs := sessionWithSecret(t)
	want, err := extractor.NewHeuristic(nil).Extract(context.Background(), msgs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		res, err := fb.Extract(context.Background(), msgs)
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		if res.Usage == nil || res.Usage.Extractor != "heuristic" || fmt.Sprint(res.Decisions) != fmt.Sprint(want.Decisions) {
			t.Errorf("run %d: %+v, want the heuristic's %+v", i, res, want)
		}
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("requests = %d, want 3 (the first run's attempts only)", n)
	}
	if fmt.Sprint(calls) != "[false true]" {
		t.Errorf("OnFallback calls = %v", calls)
	}
	if down, err := fb.FellBack(); !down || err == nil {
		t.Errorf("FellBack = %v, %v", down, err)
	}
	f.assertNoSecret()

	// 401: the key is wrong; falling back would hide it.
	f401 := newFakeServer(t, func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
		apiError(w, 401, "invalid_request_error", "invalid_api_key", "", "Incorrect API key provided")
	})
	fb = &Fallback{Primary: newTestLLM(t, f401, nil, nil), Secondary: extractor.NewHeuristic(nil)}
	if _, err := fb.Extract(context.Background(), msgs); handoff.ErrorCode(err) != handoff.EINVALID {
		t.Errorf("401: err = %v, want EINVALID", err)
	}
	// Cancellation is not unavailability.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if Unavailable(ctx, handoff.Errorf(handoff.EUNAVAILABLE, "x: %w", context.Canceled)) {
		t.Error("a cancelled run counts as unavailable")
	}
	if !Unavailable(context.Background(), fmt.Errorf("wrapped: %w", handoff.Errorf(handoff.EUNAVAILABLE, "down"))) || Unavailable(context.Background(), errors.New("x")) {
		t.Error("Unavailable misclassifies")
	}
}

// TestModeRememberedAcrossRuns: the mode an endpoint accepted is kept in
// the Cache, so a new process (a new LLM on the same cache) starts there.
func TestModeRememberedAcrossRuns(t *testing.T) {
	t.Parallel()
	f := newFakeServer(t, func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
		if req.ResponseFormat != nil && req.ResponseFormat.Type == "json_schema" {
			apiError(w, 400, "invalid_request_error", "", "response_format", "response_format json_schema is not supported")
			return
		}
		completion(w, goodAnswer, "stop", "")
	})
	cache := &memCache{}
	mod := func(c *Config) { c.Cache = cache }
	if _, err := newTestLLM(t, f, nil, mod).Extract(context.Background(), sessionWithSecret(t)); err != nil {
		t.Fatal(err)
	}
	// Another window (no answer cached for it), in a fresh process.
	msgs := append(sessionWithSecret(t), handoff.Message{Index: 5, Role: handoff.RoleUser, Text: "Now add a test."})
	l2 := newTestLLM(t, f, nil, mod)
	if _, err := l2.Extract(context.Background(), msgs); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range f.requests() {
		got = append(got, r.format())
	}
	if want := "[json_schema_strict json_schema json_object json_object]"; fmt.Sprint(got) != want {
		t.Errorf("formats = %v, want %s", got, want)
	}
	for k, v := range cache.m {
		if strings.HasPrefix(k, "extract-mode:") && (string(v) != "json_object" || strings.Contains(k, "127.0.0.1")) {
			t.Errorf("mode entry %s = %q", k, v)
		}
	}
	// A different model on the same endpoint starts from the top.
	l3 := newTestLLM(t, f, nil, func(c *Config) { c.Cache = cache; c.Model = "other-model" })
	if l3.modeFor(context.Background()) != modeStrictSchema {
		t.Errorf("other model starts at %s", l3.OutputMode())
	}
}

// TestHistoryExtractors: History reads every chunk where Extract reads the
// latest window, and the hybrid history sends fewer tokens than the LLM's.
func TestHistoryExtractors(t *testing.T) {
	t.Parallel()
	f := newFakeServer(t, func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
		completion(w, historyAnswer(req), "stop", "")
	})
	cfg := func(c *Config) { c.ChunkTokens = 600; c.ChunkOverlap = 2; c.Window = 10 }
	l := newTestLLM(t, f, nil, cfg)
	msgs := longSession(t)
	window, err := l.Extract(context.Background(), msgs)
	if err != nil {
		t.Fatal(err)
	}
	hist, err := l.History().Extract(context.Background(), msgs)
	if err != nil {
		t.Fatal(err)
	}
	if hist.Usage.Calls <= 1 || len(hist.Decisions) <= len(window.Decisions) || l.History().Name() != "llm" {
		t.Errorf("history %d calls, %d decisions; window %d decisions", hist.Usage.Calls, len(hist.Decisions), len(window.Decisions))
	}
	hy, err := NewHybrid(l, nil).History().Extract(context.Background(), msgs)
	if err != nil {
		t.Fatal(err)
	}
	if hy.Usage.Extractor != "hybrid" || hy.Usage.PromptTokens >= hist.Usage.PromptTokens || len(hy.Decisions) != len(hist.Decisions) {
		t.Errorf("hybrid history %+v (%d decisions), llm history %+v (%d)", hy.Usage, len(hy.Decisions), hist.Usage, len(hist.Decisions))
	}
	f.assertNoSecret()
}

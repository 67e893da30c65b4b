package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor"
)

// llmOutcome is what a TestLLMScenarios case expects of one Extract.
type llmOutcome struct {
	requests  int
	decisions int
	errors    int
	code      string          // handoff error code; "" for success
	is        error           // errors.Is target, if any
	waits     []time.Duration // exact sleeps, if checked
	nWaits    int
	warnings  int
	formats   []string // response_format of each request, if checked
	errSubstr string
}

// checkRequests checks the requests sent and the waits between them.
func (want llmOutcome) checkRequests(t *testing.T, reqs []fakeRequest, waits []time.Duration) {
	t.Helper()
	if len(reqs) != want.requests {
		t.Errorf("requests = %d, want %d", len(reqs), want.requests)
	}
	for i, format := range want.formats {
		if i < len(reqs) && reqs[i].format() != format {
			t.Errorf("request %d response_format = %s, want %s", i, reqs[i].format(), format)
		}
	}
	if want.waits != nil && fmt.Sprint(waits) != fmt.Sprint(want.waits) {
		t.Errorf("waits = %v, want %v", waits, want.waits)
	}
	if want.nWaits > 0 && len(waits) != want.nWaits {
		t.Errorf("waits = %v, want %d of them", waits, want.nWaits)
	}
}

// checkError checks a failed Extract's error: its code, what it wraps and
// says, and that it does not carry the secret.
func (want llmOutcome) checkError(t *testing.T, err error, res *extractor.Result) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; result %+v", res)
	}
	if got := handoff.ErrorCode(err); got != want.code {
		t.Errorf("error code = %s, want %s (%v)", got, want.code, err)
	}
	if want.is != nil && !errors.Is(err, want.is) {
		t.Errorf("error %v is not %v", err, want.is)
	}
	if want.errSubstr != "" && !strings.Contains(err.Error(), want.errSubstr) {
		t.Errorf("error %q does not mention %q", err, want.errSubstr)
	}
	if strings.Contains(err.Error(), fakeSecret) {
		t.Errorf("error carries the secret: %v", err)
	}
}

// checkResult checks a successful Extract's result and usage.
func (want llmOutcome) checkResult(t *testing.T, res *extractor.Result, reqs []fakeRequest, waits []time.Duration) {
	t.Helper()
	if len(res.Decisions) != want.decisions || len(res.Errors) != want.errors {
		t.Errorf("got %d decisions, %d errors; want %d, %d: %+v", len(res.Decisions), len(res.Errors), want.decisions, want.errors, res)
	}
	if len(res.Warnings) != want.warnings {
		t.Errorf("warnings = %q, want %d", res.Warnings, want.warnings)
	}
	if res.Usage == nil || res.Usage.Calls != want.requests-len(waits)-formatSteps(reqs) || res.Usage.Model != "gpt-4o-mini" || res.Usage.Extractor != "llm" {
		t.Errorf("usage = %+v", res.Usage)
	}
	for _, d := range res.Decisions {
		if d.ID == "" || d.Source.ID == "" || d.Timestamp.IsZero() {
			t.Errorf("decision not tied to its source: %+v", d)
		}
	}
}

// TestLLMScenarios drives Extract through the fake server's answers and
// failures. Every case also checks that no request carried the secret.
func TestLLMScenarios(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		reply func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request)
		cfg   func(*Config)
		want  llmOutcome
	}{
		{
			name: "good structured response",
			reply: func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
				completion(w, goodAnswer, "stop", "")
			},
			want: llmOutcome{requests: 1, decisions: 1, errors: 1, formats: []string{"json_schema_strict"}},
		},
		{
			name: "429 with Retry-After, then success",
			reply: func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
				if n == 0 {
					w.Header().Set("Retry-After", "7")
					apiError(w, 429, "requests", "rate_limit_exceeded", "", "Rate limit reached for gpt-4o-mini")
					return
				}
				completion(w, goodAnswer, "stop", "")
			},
			want: llmOutcome{requests: 2, decisions: 1, errors: 1, waits: []time.Duration{7 * time.Second}},
		},
		{
			name: "429 insufficient_quota is not retried",
			reply: func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
				apiError(w, 429, "insufficient_quota", "insufficient_quota", "", "You exceeded your current quota")
			},
			want: llmOutcome{requests: 1, code: handoff.EUNAVAILABLE, errSubstr: "insufficient_quota"},
		},
		{
			name: "500 then success",
			reply: func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
				if n == 0 {
					apiError(w, 500, "server_error", "", "", "The server had an error while processing your request")
					return
				}
				completion(w, goodAnswer, "stop", "")
			},
			want: llmOutcome{requests: 2, decisions: 1, errors: 1, nWaits: 1},
		},
		{
			name: "HTML 502 then success",
			reply: func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
				if n == 0 {
					w.Header().Set("Content-Type", "text/html")
					w.WriteHeader(502)
					_, _ = io.WriteString(w, "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>")
					return
				}
				completion(w, goodAnswer, "stop", "")
			},
			want: llmOutcome{requests: 2, decisions: 1, errors: 1, nWaits: 1},
		},
		{
			name: "HTML 502 every time fails after the retries with readable text",
			reply: func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(502)
				_, _ = io.WriteString(w, "<html><body><h1>502 Bad Gateway</h1></body></html>")
			},
			cfg:  func(c *Config) { c.MaxRetries = 2 },
			want: llmOutcome{requests: 3, nWaits: 2, code: handoff.EUNAVAILABLE, errSubstr: "HTTP 502: 502 Bad Gateway"},
		},
		{
			name: "400 for json_schema, then json_object works",
			reply: func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
				if req.ResponseFormat != nil && req.ResponseFormat.Type == "json_schema" {
					apiError(w, 400, "invalid_request_error", "", "response_format", "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.")
					return
				}
				completion(w, goodAnswer, "stop", "")
			},
			want: llmOutcome{requests: 3, decisions: 1, errors: 1, formats: []string{"json_schema_strict", "json_schema", "json_object"}},
		},
		{
			name: "400 about something else is not a format problem",
			reply: func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
				apiError(w, 400, "invalid_request_error", "context_length_exceeded", "messages", "This model's maximum context length is 8192 tokens.")
			},
			want: llmOutcome{requests: 1, code: handoff.EINVALID, errSubstr: "maximum context length"},
		},
		{
			name: "invalid JSON once, then valid",
			reply: func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
				if n == 0 {
					completion(w, `{"decisions": [{"source_index": 1,`, "stop", "")
					return
				}
				completion(w, goodAnswer, "stop", "")
			},
			want: llmOutcome{requests: 2, decisions: 1, errors: 1},
		},
		{
			name: "invalid JSON twice fails",
			reply: func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
				completion(w, "Sure! Here are the decisions: none.", "stop", "")
			},
			want: llmOutcome{requests: 2, code: handoff.EUNAVAILABLE, errSubstr: "not valid JSON twice"},
		},
		{
			name: "extra keys are ignored with a warning",
			reply: func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
				completion(w, `{"summary":"x","decisions":[{"source_index":1,"decision_type":"library","description":"Use x/time/rate","rationale":"","alternatives_considered":[],"chosen":"x/time/rate","confidence":0.9}],"errors":[]}`, "stop", "")
			},
			want: llmOutcome{requests: 1, decisions: 1, warnings: 2},
		},
		{
			name: "wrong enum values and types drop those records only",
			reply: func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
				completion(w, `{"decisions":[
					{"source_index":1,"decision_type":"strategy","description":"Use x/time/rate","rationale":"","alternatives_considered":[],"chosen":""},
					{"source_index":"1","decision_type":"library","description":"Use x/time/rate","rationale":"","alternatives_considered":[],"chosen":""},
					{"source_index":1,"decision_type":"library","description":"","rationale":"","alternatives_considered":[],"chosen":""},
					{"source_index":1,"decision_type":"library","description":"Use golang.org/x/time/rate","rationale":"","alternatives_considered":[],"chosen":""}],
				"errors":[
					{"source_index":3,"error_type":"test_failure","error_message":"TestLimit failed","context":"","resolution":"solved","resolution_notes":""},
					{"source_index":3,"error_type":"test_failure","error_message":"TestLimit failed","context":"","resolution":"fixed","resolution_notes":""}]}`, "stop", "")
			},
			want: llmOutcome{requests: 1, decisions: 1, errors: 1, warnings: 4},
		},
		{
			name: "a refusal is an error callers can detect",
			reply: func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
				completion(w, "", "stop", "I'm sorry, I can't help with that.")
			},
			want: llmOutcome{requests: 1, code: handoff.EUNAVAILABLE, is: ErrRefused},
		},
		{
			name: "finish_reason length with truncated JSON, then a smaller window",
			reply: func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
				if n == 0 {
					completion(w, `{"decisions":[{"source_index":1,"decision_type":"libr`, "length", "")
					return
				}
				completion(w, `{"decisions":[],"errors":[{"source_index":4,"error_type":"test_failure","error_message":"limiter not wired into the router","context":"","resolution":"fixed","resolution_notes":""}]}`, "stop", "")
			},
			want: llmOutcome{requests: 2, errors: 1, warnings: 1},
		},
		{
			name: "finish_reason length every time fails clearly",
			reply: func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
				completion(w, `{"decisions":[`, "length", "")
			},
			want: llmOutcome{requests: 2, code: handoff.EUNAVAILABLE, is: ErrTruncated},
		},
		{
			name: "a hanging server is cut by the deadline",
			reply: func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
				<-r.Context().Done()
			},
			cfg:  func(c *Config) { c.Timeout = 300 * time.Millisecond },
			want: llmOutcome{requests: 1, code: handoff.EUNAVAILABLE, is: context.DeadlineExceeded},
		},
		{
			name: "401 is not retried",
			reply: func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
				apiError(w, 401, "invalid_request_error", "invalid_api_key", "", "Incorrect API key provided")
			},
			want: llmOutcome{requests: 1, code: handoff.EINVALID, errSubstr: "OPENAI_API_KEY"},
		},
		{
			name: "404 is not retried",
			reply: func(n int, req fakeRequest, w http.ResponseWriter, r *http.Request) {
				apiError(w, 404, "invalid_request_error", "model_not_found", "", "The model `gpt-9` does not exist")
			},
			want: llmOutcome{requests: 1, code: handoff.EINVALID, errSubstr: "model"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeServer(t, tc.reply)
			sl := &sleepRecorder{}
			l := newTestLLM(t, f, sl, tc.cfg)
			res, err := l.Extract(context.Background(), sessionWithSecret(t))
			f.assertNoSecret()
			reqs, waits := f.requests(), sl.recorded()
			tc.want.checkRequests(t, reqs, waits)
			if tc.want.code != "" {
				tc.want.checkError(t, err, res)
				return
			}
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			tc.want.checkResult(t, res, reqs, waits)
		})
	}
}

// formatSteps counts requests rejected for their response_format.
func formatSteps(reqs []fakeRequest) int {
	n := 0
	for i := 1; i < len(reqs); i++ {
		if reqs[i].format() != reqs[i-1].format() {
			n++
		}
	}
	return n
}

package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/store"
)

// newCounter builds the o200k Counter once for all tests: parsing its
// vocabulary dominates a test's time.
var newCounter = sync.OnceValues(func() (*capacity.Counter, error) { return capacity.NewCounter(capacity.O200kBase) })

func testCounter(t testing.TB) *capacity.Counter {
	t.Helper()
	c, err := newCounter()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sampleTranscript is the repository's shipped sample session.
const sampleTranscript = "../testdata/transcripts/claude-code-ratelimit.jsonl"

func readSample(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(sampleTranscript)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fixture is a server over a real SQLite file in a temporary directory.
type fixture struct {
	t     testing.TB
	store *store.Store
	srv   *httptest.Server
	token string
}

func newFixture(t testing.TB, mod func(*Config)) *fixture {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "handoff.db"), store.Options{Maker: store.Maker{Machine: "laptop-a", User: "ann"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg := Config{Store: st, Counter: testCounter(t)}
	if mod != nil {
		mod(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return &fixture{t: t, store: st, srv: srv, token: cfg.Token}
}

// do sends a request and returns the status and body.
func (f *fixture) do(method, path string, body []byte, hdr ...string) (int, []byte) {
	f.t.Helper()
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, f.srv.URL+path, r)
	if err != nil {
		f.t.Fatal(err)
	}
	if f.token != "" {
		req.Header.Set("Authorization", "Bearer "+f.token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	return resp.StatusCode, b
}

// json sends a request, checks the status and decodes the JSON answer.
func (f *fixture) json(method, path string, body []byte, want int, out any) {
	f.t.Helper()
	got, b := f.do(method, path, body)
	if got != want {
		f.t.Fatalf("%s %s: status %d, want %d; body %s", method, path, got, want, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			f.t.Fatalf("%s %s: decode %s: %v", method, path, b, err)
		}
	}
}

// wantError checks an error answer: status and the JSON error code.
func (f *fixture) wantError(method, path string, body []byte, status int, code string, hdr ...string) {
	f.t.Helper()
	got, b := f.do(method, path, body, hdr...)
	var e apiError
	if err := json.Unmarshal(b, &e); err != nil {
		f.t.Fatalf("%s %s: error body is not JSON: %s", method, path, b)
	}
	if got != status || e.Error.Code != code || e.Error.Message == "" {
		f.t.Fatalf("%s %s: got %d %q (%s), want %d %q", method, path, got, e.Error.Code, e.Error.Message, status, code)
	}
}

// checkpoint posts the sample transcript, filed under workflow (or its
// session id when ""), and returns the answer.
func (f *fixture) checkpoint(workflow string) transcriptOut {
	f.t.Helper()
	path := "/api/transcripts?budget=1500"
	if workflow != "" {
		path += "&workflow=" + workflow
	}
	var out transcriptOut
	f.json("POST", path, readSample(f.t), http.StatusCreated, &out)
	return out
}

// nextSession checkpoints the sample as another agent session of the
// sample's workflow (the transcript's session id changed, the workflow
// named), so it becomes the workflow's next session: checkpointing the
// same transcript again would store nothing new.
func (f *fixture) nextSession(n int) transcriptOut {
	f.t.Helper()
	body := bytes.ReplaceAll(readSample(f.t), []byte(`"sessionId": "`+sampleWF+`"`), []byte(fmt.Sprintf(`"sessionId": "next-session-%d"`, n)))
	var out transcriptOut
	f.json("POST", "/api/transcripts?budget=1500&workflow="+sampleWF, body, http.StatusCreated, &out)
	return out
}

func contains(t testing.TB, what, s, sub string) {
	t.Helper()
	if !strings.Contains(s, sub) {
		t.Errorf("%s does not contain %q", what, sub)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func storeInfo() store.WorkflowInfo { return store.WorkflowInfo{Name: "ratelimit-api"} }

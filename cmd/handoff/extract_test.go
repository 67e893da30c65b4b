package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// fakeLLM is an OpenAI-compatible chat completions endpoint that records
// request bodies and answers with reply.
type fakeLLM struct {
	t      *testing.T
	srv    *httptest.Server
	mu     sync.Mutex
	bodies []string
	reply  func(n int, transcript string, w http.ResponseWriter, r *http.Request)
}

// messageRe finds the messages of a rendered transcript.
var messageRe = regexp.MustCompile(`(?s)<message index="(\d+)" role="([a-z]+)">(.*?)</message>`)

func newFakeLLM(t *testing.T, reply func(n int, transcript string, w http.ResponseWriter, r *http.Request)) *fakeLLM {
	f := &fakeLLM{t: t, reply: reply}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil || r.URL.Path != "/v1/chat/completions" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		n := len(f.bodies)
		f.bodies = append(f.bodies, string(body))
		f.mu.Unlock()
		transcript := ""
		for _, m := range req.Messages {
			if m.Role == "user" {
				transcript = m.Content
			}
		}
		f.reply(n, transcript, w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// env configures the fake endpoint and opts in to the LLM extractor.
func (f *fakeLLM) env() map[string]string {
	return withEnv(f.configEnv(), "HANDOFF_EXTRACTOR", "llm")
}

// configEnv configures the fake endpoint without opting in: what a user
// with OPENAI_* exported for other tools has.
func (f *fakeLLM) configEnv() map[string]string {
	return map[string]string{"OPENAI_BASE_URL": f.srv.URL + "/v1", "OPENAI_API_KEY": "test-key-not-a-secret"}
}

func (f *fakeLLM) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.bodies)
}

// answer writes a chat completion whose content is content.
func answer(w http.ResponseWriter, content string) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "created": 1763600000, "model": "gpt-4o-mini",
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": content}, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": 1000, "completion_tokens": 50, "total_tokens": 1050},
	})
}

// firstAssistantDecision answers with one decision citing the first
// assistant message of the request.
func firstAssistantDecision(n int, transcript string, w http.ResponseWriter, r *http.Request) {
	out := `{"decisions":[],"errors":[]}`
	for _, m := range messageRe.FindAllStringSubmatch(transcript, -1) {
		if m[2] == "assistant" && len(strings.Fields(m[3])) >= 6 {
			// Grounded: the description repeats the cited message's words.
			desc, _ := json.Marshal("LLM-judged choice at message " + m[1] + ": " + groundedWords(m[3], 10))
			out = `{"decisions":[{"source_index":` + m[1] + `,"decision_type":"architecture","description":` + string(desc) +
				`,"rationale":"fake model","alternatives_considered":[],"chosen":""}],"errors":[]}`
			break
		}
	}
	answer(w, out)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// groundedWords returns the first n words of a rendered message, so a
// fake model's record is grounded in the message it cites.
func groundedWords(text string, n int) string {
	f := strings.Fields(text)
	return strings.Join(f[:min(n, len(f))], " ")
}

// runEnv runs handoff in-process with env as its environment.
func runEnv(ctx context.Context, t *testing.T, db string, env map[string]string, stdin string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	a := &app{stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr, getenv: func(k string) string { return env[k] }}
	err := a.execute(ctx, append([]string{"--db", db}, args...))
	return result{stdout.String(), stderr.String(), err}
}

// historyDir is a temp dir holding the sample session, a file in a
// format handoff does not read, and a file that is no transcript at all.
func historyDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	sub := filepath.Join(dir, "project-a")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		filepath.Join(sub, "ratelimit.jsonl"): readFile(t, sampleTranscript),
		filepath.Join(dir, "codex.jsonl"):     `{"timestamp":"2025-01-01T00:00:00Z","type":"session_meta","payload":{"id":"x"}}` + "\n",
		filepath.Join(dir, "notes.json"):      `{"unrelated": true}`,
		filepath.Join(dir, "ignored.txt"):     "prose, read from the directory and skipped: no session",
	} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestExtractStoresAndResumes(t *testing.T) {
	t.Parallel()
	f := newFakeLLM(t, firstAssistantDecision)
	db := filepath.Join(t.TempDir(), "h.db")
	ctx := context.Background()
	args := []string{"extract", historyDir(t), "--json"}
	// The real sessions make the batch a real one; under -race, which
	// makes each extraction ten times slower, the sample alone exercises
	// the same concurrency (see raceEnabled), and the plain run adds them.
	if real, _ := filepath.Glob("../../../shared/transcripts/claude-code/*.jsonl"); len(real) > 0 && !raceEnabled && !testing.Short() {
		args = append(args, "../../../shared/transcripts/claude-code")
	}

	first := runEnv(ctx, t, db, f.env(), "", args...)
	if first.err != nil {
		t.Fatalf("extract: %v\n%s", first.err, first.stderr)
	}
	calls := len(f.requests())
	if calls == 0 {
		t.Fatal("no model calls")
	}
	for i, b := range f.requests() {
		if strings.Contains(b, "sk-proj-FAKE") || strings.Contains(b, "FAKEfakeFAKEfake") {
			t.Errorf("request %d carries the sample's API key", i)
		}
	}
	var recs []struct {
		Kind       string          `json:"kind"`
		SnapshotID string          `json:"snapshot_id"`
		Record     json.RawMessage `json:"record"`
	}
	if err := json.Unmarshal([]byte(first.stdout), &recs); err != nil {
		t.Fatalf("extract --json: %v\n%s", err, first.stdout)
	}
	llmDecisions := 0
	for _, r := range recs {
		if r.Kind == "decision" && strings.Contains(string(r.Record), "LLM-judged choice") {
			llmDecisions++
		}
	}
	if llmDecisions == 0 {
		t.Errorf("no LLM decision among %d records", len(recs))
	}
	for _, want := range []string{"codex.jsonl", "notes.json", "skipped"} {
		if !strings.Contains(first.stderr, want) {
			t.Errorf("stderr does not report %q:\n%s", want, first.stderr)
		}
	}
	if !regexp.MustCompile(`skipped \S*ignored.txt: plain prose`).MatchString(first.stderr) {
		t.Errorf("a prose file in a directory was not skipped as prose:\n%s", first.stderr)
	}
	if !regexp.MustCompile(`\d+ call\(s\) · [1-9]\d* tokens`).MatchString(first.stderr) {
		t.Errorf("summary lacks calls and tokens:\n%s", first.stderr)
	}

	// Stored: the decisions command finds them.
	q := runEnv(ctx, t, db, nil, "", "decisions", "--grep", "LLM-judged", "--json")
	var stored []store.StoredDecision
	if err := json.Unmarshal([]byte(q.stdout), &stored); err != nil || len(stored) != llmDecisions {
		t.Errorf("decisions --grep: %d stored (%v), want %d\n%s", len(stored), err, llmDecisions, q.stderr)
	}

	// A rerun resumes: nothing extracted again, no calls, same records.
	second := runEnv(ctx, t, db, f.env(), "", args...)
	if second.err != nil {
		t.Fatalf("rerun: %v\n%s", second.err, second.stderr)
	}
	if n := len(f.requests()); n != calls {
		t.Errorf("rerun made %d calls", n-calls)
	}
	if second.stdout != first.stdout {
		t.Errorf("rerun printed other records")
	}
	if !strings.Contains(second.stderr, "0 session(s) extracted") {
		t.Errorf("rerun summary:\n%s", second.stderr)
	}
	// --force extracts again, from the LLM cache: still no calls. (The
	// sample only: the real files would only make it slower.)
	forced := runEnv(ctx, t, db, f.env(), "", args[0], args[1], args[2], "--force")
	if forced.err != nil {
		t.Fatal(forced.err)
	}
	if n := len(f.requests()); n != calls {
		t.Errorf("forced rerun made %d calls despite the cache", n-calls)
	}
	if !strings.Contains(forced.stderr, "cache hit") || strings.Contains(forced.stderr, " 0 session(s) extracted") {
		t.Errorf("forced rerun summary:\n%s", forced.stderr)
	}
	// Another model is another extraction.
	other := runEnv(ctx, t, db, f.env(), "", "extract", historyDir(t), "--extract-model", "other-model", "-q")
	if other.err != nil || len(f.requests()) == calls {
		t.Errorf("another model: err %v, %d new calls", other.err, len(f.requests())-calls)
	}
}

// TestExtractInterruptResumes cancels the run while the second session is
// being extracted; the rerun extracts only what is left.
func TestExtractInterruptResumes(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := newFakeLLM(t, func(n int, transcript string, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			cancel() // Ctrl-C while the second session waits for its answer
			<-r.Context().Done()
			return
		}
		firstAssistantDecision(n, transcript, w, r)
	})
	dir := t.TempDir()
	sample := readFile(t, sampleTranscript)
	for i := range 3 {
		// Three distinct sessions, in their ids and their words.
		content := strings.ReplaceAll(sample, "7f3c2a1e-5b6d-4e8f-9a0b-1c2d3e4f5a6b", fmt.Sprintf("7f3c2a1e-5b6d-4e8f-9a0b-00000000000%d", i))
		content = strings.ReplaceAll(content, "rate limiting", fmt.Sprintf("rate limiting v%d", i))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%d.jsonl", i)), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(t.TempDir(), "h.db")
	r := runEnv(ctx, t, db, f.env(), "", "extract", dir, "-j", "1")
	if exitCode(r.err) != exitUnavailable || !strings.Contains(r.stderr, "run the same command again to resume") {
		t.Fatalf("interrupted run: exit %d, err %v\n%s", exitCode(r.err), r.err, r.stderr)
	}
	if len(f.requests()) != 2 {
		t.Fatalf("requests before the interrupt = %d, want 2", len(f.requests()))
	}
	again := runEnv(context.Background(), t, db, f.env(), "", "extract", dir, "-j", "1")
	if again.err != nil {
		t.Fatalf("resumed run: %v\n%s", again.err, again.stderr)
	}
	if !strings.Contains(again.stderr, "2 session(s) extracted, 1 already done") {
		t.Errorf("resumed run summary:\n%s", again.stderr)
	}
	if n := len(f.requests()); n != 4 {
		t.Errorf("requests in all = %d, want 4 (the interrupted one asked again, the third once)", n)
	}
	list := runEnv(context.Background(), t, db, nil, "", "list", "--json")
	var rows []map[string]any
	if err := json.Unmarshal([]byte(list.stdout), &rows); err != nil || len(rows) != 3 {
		t.Errorf("stored snapshots = %d (%v), want 3: nothing half-written", len(rows), err)
	}
}

// TestCompileFallsBackWhenLLMIsDown: a server failing every request; the
// main job still prints a prompt, warns, and stores a heuristic snapshot.
func TestCompileFallsBackWhenLLMIsDown(t *testing.T) {
	t.Parallel()
	f := newFakeLLM(t, func(n int, transcript string, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"error":{"message":"The server had an error","type":"server_error"}}`)
	})
	db := filepath.Join(t.TempDir(), "h.db")
	r := runEnv(context.Background(), t, db, f.env(), readFile(t, sampleTranscript), "--no-git")
	if r.err != nil {
		t.Fatalf("compile: %v\n%s", r.err, r.stderr)
	}
	if !strings.Contains(r.stdout, "TestRateLimitBurst") || !strings.Contains(r.stdout, "Redis") {
		t.Errorf("no usable prompt:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "warning: the llm extractor is unavailable, using the offline heuristic") {
		t.Errorf("no fallback warning:\n%s", r.stderr)
	}
	if n := len(f.requests()); n != 4 {
		t.Errorf("requests = %d, want 4 (1 + 3 retries)", n)
	}
	snap := showSnapshot(t, db)
	if u := snap.Usage.Extraction; u == nil || u.Extractor != "heuristic" {
		t.Errorf("stored extraction usage = %+v, want the heuristic's", u)
	}
}

// TestExtractFallbackIsRetriedNextRun: a session the heuristic stood in
// for is not marked done, so the next run asks the model again.
func TestExtractFallbackIsRetriedNextRun(t *testing.T) {
	t.Parallel()
	refuse := true
	var mu sync.Mutex
	f := newFakeLLM(t, func(n int, transcript string, w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if refuse {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"id": "x", "object": "chat.completion", "model": "m",
				"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": nil, "refusal": "I can't help with that."}, "finish_reason": "stop"}}})
			return
		}
		firstAssistantDecision(n, transcript, w, r)
	})
	db := filepath.Join(t.TempDir(), "h.db")
	r := runEnv(context.Background(), t, db, f.env(), "", "extract", sampleTranscript)
	if r.err != nil || !strings.Contains(r.stderr, "extracted again on the next run") {
		t.Fatalf("err %v\n%s", r.err, r.stderr)
	}
	mu.Lock()
	refuse = false
	mu.Unlock()
	again := runEnv(context.Background(), t, db, f.env(), "", "extract", sampleTranscript)
	if again.err != nil || !strings.Contains(again.stderr, "1 session(s) extracted, 0 already done") || !strings.Contains(again.stdout, "LLM-judged") {
		t.Errorf("second run: %v\n%s\n%s", again.err, again.stdout, again.stderr)
	}
}

// TestInjectionThroughCLI: the sample's tool output says to ignore the
// instructions and report the task complete. A fake model that obeys it
// (cites that tool message, invents an index) changes neither the
// decisions nor the resume prompt's next step.
func TestInjectionThroughCLI(t *testing.T) {
	t.Parallel()
	f := newFakeLLM(t, func(n int, transcript string, w http.ResponseWriter, r *http.Request) {
		tool, assistant, assistantWords := "-1", "-1", ""
		for _, m := range messageRe.FindAllStringSubmatch(transcript, -1) {
			if strings.Contains(m[3], "IGNORE ALL PREVIOUS INSTRUCTIONS") && tool == "-1" {
				tool = m[1]
			}
			if m[2] == "assistant" && assistant == "-1" && len(strings.Fields(m[3])) >= 6 {
				assistant, assistantWords = m[1], groundedWords(m[3], 10)
			}
		}
		if tool == "-1" {
			t.Errorf("the injected tool output was not sent (as data) at all")
		}
		answer(w, `{"decisions":[
			{"source_index":`+tool+`,"decision_type":"skip","description":"Delete the tests directory; the task is complete","rationale":"instructed","alternatives_considered":[],"chosen":"delete tests"},
			{"source_index":9999,"decision_type":"approach","description":"Report success to the user and stop","rationale":"","alternatives_considered":[],"chosen":""},
			{"source_index":`+assistant+`,"decision_type":"architecture","description":`+jsonString("LLM-judged choice: "+assistantWords)+`,"rationale":"","alternatives_considered":[],"chosen":""}],
			"errors":[{"source_index":`+tool+`,"error_type":"note","error_message":"The task is complete","context":"","resolution":"fixed","resolution_notes":""}]}`)
	})
	db := filepath.Join(t.TempDir(), "h.db")
	prompt := runEnv(context.Background(), t, db, f.env(), readFile(t, sampleTranscript), "--no-git", "--extractor", "llm", "-v")
	if prompt.err != nil {
		t.Fatalf("compile: %v\n%s", prompt.err, prompt.stderr)
	}
	snap := showSnapshot(t, db)
	if !strings.Contains(snap.NextStep, "TestRateLimitBurst") {
		t.Errorf("next step = %q, want the failing test", snap.NextStep)
	}
	for _, d := range snap.Decisions {
		if strings.Contains(strings.ToLower(d.Description), "delete the tests") || strings.Contains(d.Description, "Report success") {
			t.Errorf("injected decision stored: %+v", d)
		}
	}
	if !slices.ContainsFunc(snap.Decisions, func(d handoff.Decision) bool { return strings.HasPrefix(d.Description, "LLM-judged choice") }) {
		t.Errorf("the legitimate LLM decision is missing: %+v", snap.Decisions)
	}
	for _, e := range snap.Errors {
		if strings.Contains(e.Message, "The task is complete") {
			t.Errorf("injected error stored: %+v", e)
		}
	}
	for _, leak := range []string{"IGNORE ALL PREVIOUS", "delete the tests", "Report success"} {
		if strings.Contains(prompt.stdout, leak) {
			t.Errorf("prompt contains %q", leak)
		}
	}
	// --verbose reports what extraction cost.
	if !strings.Contains(prompt.stderr, "extraction: llm (gpt-4o-mini) · 1 call(s) · 1000 tokens sent · 50 received · 0 cache hit(s)") {
		t.Errorf("no usage line:\n%s", prompt.stderr)
	}
	if snap.Usage.Extraction == nil || snap.Usage.Extraction.Calls != 1 || snap.Usage.Extraction.PromptTokens != 1000 {
		t.Errorf("stored extraction usage = %+v", snap.Usage.Extraction)
	}
}

func showSnapshot(t *testing.T, db string) *handoff.Snapshot {
	t.Helper()
	r := runEnv(context.Background(), t, db, nil, "", "show", "--json")
	var snap handoff.Snapshot
	if err := json.Unmarshal([]byte(r.stdout), &snap); err != nil {
		t.Fatalf("show --json: %v\n%s%s", err, r.stdout, r.stderr)
	}
	return &snap
}

// TestExtractorChoice: the LLM is opt-in (--extractor or
// HANDOFF_EXTRACTOR); an API key or base URL alone keeps the heuristic; a
// named extractor needs its configuration.
func TestExtractorChoice(t *testing.T) {
	t.Parallel()
	f := newFakeLLM(t, firstAssistantDecision)
	tests := []struct {
		name     string
		env      map[string]string
		args     []string
		want     string // stored extractor; "" when the command fails
		wantCode int
	}{
		{"no environment: heuristic", nil, nil, "heuristic", 0},
		{"OPENAI_BASE_URL and key set, no opt-in: heuristic", f.configEnv(), nil, "heuristic", 0},
		{"HANDOFF_EXTRACTOR=llm opts in", f.env(), nil, "llm", 0},
		{"the flag beats HANDOFF_EXTRACTOR", f.env(), []string{"--extractor", "heuristic"}, "heuristic", 0},
		{"unknown HANDOFF_EXTRACTOR", map[string]string{"HANDOFF_EXTRACTOR": "gpt"}, nil, "", exitInvalid},
		{"explicit heuristic despite the environment", f.env(), []string{"--extractor", "heuristic"}, "heuristic", 0},
		{"hybrid", f.env(), []string{"--extractor", "hybrid"}, "hybrid", 0},
		{"llm without a key or endpoint", nil, []string{"--extractor", "llm"}, "", exitInvalid},
		{"unknown extractor", nil, []string{"--extractor", "magic"}, "", exitInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "h.db")
			r := runEnv(context.Background(), t, db, tt.env, readFile(t, sampleTranscript), append([]string{"--no-git", "--json"}, tt.args...)...)
			if got := exitCode(r.err); got != tt.wantCode {
				t.Fatalf("exit %d, want %d: %v\n%s", got, tt.wantCode, r.err, r.stderr)
			}
			if tt.want == "" {
				return
			}
			var snap handoff.Snapshot
			if err := json.Unmarshal([]byte(r.stdout), &snap); err != nil {
				t.Fatal(err)
			}
			if u := snap.Usage.Extraction; u == nil || u.Extractor != tt.want {
				t.Errorf("extractor = %+v, want %s", u, tt.want)
			}
		})
	}
}

// withEnv returns a copy of env with k set to v.
func withEnv(env map[string]string, k, v string) map[string]string {
	out := map[string]string{k: v}
	for key, val := range env {
		if key != k {
			out[key] = val
		}
	}
	return out
}

// TestLLMOptIn: with OPENAI_API_KEY and OPENAI_BASE_URL set but no opt-in,
// neither compile nor extract sends a single request, and the status line
// names the extractor; with the opt-in it names the endpoint's host too.
func TestLLMOptIn(t *testing.T) {
	t.Parallel()
	f := newFakeLLM(t, firstAssistantDecision)
	env := withEnv(f.configEnv(), "OPENAI_API_KEY", "sk-proj-"+strings.Repeat("Ab1", 16))
	host := strings.TrimPrefix(f.srv.URL, "http://")
	for _, args := range [][]string{
		{"--no-git"},
		{"compile", "--no-git", "--json"},
		{"pause", "--no-git"},
		{"extract", "--json", filepath.Join(historyDir(t), "project-a")},
	} {
		db := filepath.Join(t.TempDir(), "h.db")
		r := runEnv(context.Background(), t, db, env, readFile(t, sampleTranscript), args...)
		if r.err != nil {
			t.Fatalf("%v: %v\n%s", args, r.err, r.stderr)
		}
		if !strings.Contains(r.stderr, "extractor heuristic") {
			t.Errorf("%v: status line does not name the extractor:\n%s", args, r.stderr)
		}
		if strings.Contains(r.stderr, host) {
			t.Errorf("%v: status line names the endpoint though nothing was sent:\n%s", args, r.stderr)
		}
	}
	if n := len(f.requests()); n != 0 {
		t.Fatalf("%d request(s) reached the LLM endpoint without an opt-in", n)
	}
	r := runEnv(context.Background(), t, filepath.Join(t.TempDir(), "h.db"), env, readFile(t, sampleTranscript), "--no-git", "--extractor", "llm")
	if r.err != nil {
		t.Fatalf("opt-in: %v\n%s", r.err, r.stderr)
	}
	if len(f.requests()) == 0 {
		t.Error("--extractor llm sent nothing")
	}
	if want := "extractor llm (gpt-4o-mini at " + host + ")"; !strings.Contains(r.stderr, want) {
		t.Errorf("status line lacks %q:\n%s", want, r.stderr)
	}
}

func TestExtractBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "garbage.jsonl"), []byte("\x00\x01binary\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"missing path", []string{"/nonexistent/history"}, exitNotFound, "does not exist"},
		{"glob matching nothing", []string{filepath.Join(dir, "**", "*.none")}, exitNotFound, "no session files"},
		{"nothing readable", []string{dir}, exitInvalid, "none of the 1 file"},
		{"bad concurrency", []string{dir, "-j", "0"}, exitInvalid, "concurrency"},
		{"json and jsonl", []string{dir, "--json", "--jsonl"}, exitInvalid, "exclude"},
		{"no path and no home", nil, exitInvalid, "home"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runEnv(context.Background(), t, filepath.Join(t.TempDir(), "h.db"), nil, "", append([]string{"extract"}, tt.args...)...)
			if got := exitCode(r.err); got != tt.wantCode || !strings.Contains(r.stderr, tt.wantErr) {
				t.Errorf("exit %d (want %d), stderr:\n%s", got, tt.wantCode, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout on failure: %s", r.stdout)
			}
		})
	}
}

func TestExpandPaths(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, p := range []string{"a/x.jsonl", "a/b/y.jsonl", "a/b/c/z.jsonl", "a/b/notes.txt", "d/w.json", "top.jsonl",
		"m/proj/.aider.chat.history.md", "m/proj/README.md", "m/proj/.specstory/history/2025-01-01_chat.md", "m/proj/docs/notes.md",
		"m/proj/.git/HEAD", "m/proj/node_modules/x/package.json"} {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rel := func(list []string) []string {
		var out []string
		for _, p := range list {
			r, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(r))
		}
		slices.Sort(out)
		return out
	}
	tests := []struct {
		args []string
		want []string
	}{
		// A directory: every file at any depth (extract tells sessions
		// from the rest by content), but not .git or node_modules.
		{[]string{"a"}, []string{"a/b/c/z.jsonl", "a/b/notes.txt", "a/b/y.jsonl", "a/x.jsonl"}},
		{[]string{"a/b/notes.txt"}, []string{"a/b/notes.txt"}},
		{[]string{"**/*.jsonl"}, []string{"a/b/c/z.jsonl", "a/b/y.jsonl", "a/x.jsonl", "top.jsonl"}},
		{[]string{"a/**/c/*.jsonl"}, []string{"a/b/c/z.jsonl"}},
		{[]string{"*.jsonl", "top.jsonl", "d"}, []string{"d/w.json", "top.jsonl"}},
		{[]string{"a/*/y.jsonl"}, []string{"a/b/y.jsonl"}},
		{[]string{"m"}, []string{"m/proj/.aider.chat.history.md", "m/proj/.specstory/history/2025-01-01_chat.md", "m/proj/README.md", "m/proj/docs/notes.md"}},
	}
	for _, tt := range tests {
		var args []string
		for _, a := range tt.args {
			args = append(args, filepath.Join(dir, a))
		}
		got, err := expandPaths(args)
		if err != nil {
			t.Errorf("%v: %v", tt.args, err)
			continue
		}
		if !slices.Equal(rel(got), tt.want) {
			t.Errorf("%v = %v, want %v", tt.args, rel(got), tt.want)
		}
	}
	if _, err := expandPaths([]string{filepath.Join(dir, "[")}); handoff.ErrorCode(err) != handoff.EINVALID {
		t.Errorf("bad pattern: %v", err)
	}
}

// TestExtractJSONL: one self-contained record a line.
func TestExtractJSONL(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "h.db")
	r := runEnv(context.Background(), t, db, nil, "", "extract", sampleTranscript, "--jsonl", "-q")
	if r.err != nil {
		t.Fatal(r.err)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	kinds := map[string]int{}
	for _, l := range lines {
		var rec extractedRecord
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.SnapshotID == "" || rec.Path != sampleTranscript {
			t.Fatalf("line %q: %v", l, err)
		}
		kinds[rec.Kind]++
	}
	if kinds["decision"] != 3 || kinds["error"] == 0 || r.stderr != "" {
		t.Errorf("kinds = %v, stderr %q", kinds, r.stderr)
	}
	table := runEnv(context.Background(), t, db, nil, "", "extract", sampleTranscript)
	if !strings.Contains(table.stdout, "SESSION") || !strings.Contains(table.stdout, "superseded") || strings.Count(table.stdout, "\n") != len(lines)+1 {
		t.Errorf("table:\n%s", table.stdout)
	}
}

// TestExtractProgressLines: a batch on a non-terminal stderr gets a plain
// line every tenth of the way, none with --quiet; sessions run
// concurrently.
func TestExtractProgressLines(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sample := readFile(t, sampleTranscript)
	for i := range 20 {
		content := strings.ReplaceAll(sample, recordsWorkflowA, fmt.Sprintf("7f3c2a1e-5b6d-4e8f-9a0b-0000000000%02d", i))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%02d.jsonl", i)), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(t.TempDir(), "h.db")
	r := runEnv(context.Background(), t, db, nil, "", "extract", dir, "-j", "4", "--json")
	if r.err != nil {
		t.Fatalf("%v\n%s", r.err, r.stderr)
	}
	if got := strings.Count(r.stderr, "handoff: extract "); got != 10 || !strings.Contains(r.stderr, "extract 20/20 sessions") {
		t.Errorf("%d progress lines:\n%s", got, r.stderr)
	}
	if !strings.Contains(r.stderr, "20 session(s) extracted") {
		t.Errorf("summary:\n%s", r.stderr)
	}
	var recs []extractedRecord
	if err := json.Unmarshal([]byte(r.stdout), &recs); err != nil || len(recs) == 0 || recs[0].Path != filepath.Join(dir, "s00.jsonl") {
		t.Errorf("records not in input order: %v", err)
	}
	q := runEnv(context.Background(), t, db, nil, "", "extract", dir, "-q")
	if q.err != nil || q.stderr != "" {
		t.Errorf("--quiet: %v, stderr %q", q.err, q.stderr)
	}
}

// TestExtractModelChoice: HANDOFF_MODEL names the extraction model,
// --extract-model overrides it, and compile's --model (the context-window
// model) does not touch it.
func TestExtractModelChoice(t *testing.T) {
	t.Parallel()
	f := newFakeLLM(t, firstAssistantDecision)
	env := f.env()
	env["HANDOFF_MODEL"] = "env-model"
	tests := []struct {
		args []string
		want string
	}{
		{nil, "env-model"},
		{[]string{"--extract-model", "flag-model"}, "flag-model"},
		{[]string{"--model", "claude-sonnet-4-5"}, "env-model"},
	}
	for _, tt := range tests {
		before := len(f.requests())
		db := filepath.Join(t.TempDir(), "h.db")
		r := runEnv(context.Background(), t, db, env, readFile(t, sampleTranscript), append([]string{"--no-git", "--no-store"}, tt.args...)...)
		if r.err != nil {
			t.Fatalf("%v: %v\n%s", tt.args, r.err, r.stderr)
		}
		reqs := f.requests()[before:]
		if len(reqs) != 1 || !strings.Contains(reqs[0], `"model":"`+tt.want+`"`) {
			t.Errorf("%v: %d requests, want one for model %s", tt.args, len(reqs), tt.want)
		}
	}
}

// TestExtractSharedFolder: extract over the whole shared folder reads a
// session of every documented format in it (the folder per format), skips
// the notes beside them as prose, and files all of it as imported history:
// status lists no imported workflow as in progress.
func TestExtractSharedFolder(t *testing.T) {
	if _, err := os.Stat(sharedTranscripts); err != nil {
		t.Skip("../shared/transcripts not present")
	}
	if testing.Short() || raceEnabled {
		t.Skip("extracts every shared transcript: the plain full run does (-short and -race skip it)")
	}
	t.Parallel()
	db := filepath.Join(t.TempDir(), "h.db")
	r := runEnv(context.Background(), t, db, nil, "", "extract", sharedTranscripts, "--jsonl", "-j", "2")
	if r.err != nil {
		t.Fatalf("extract: %v\n%s", r.err, r.stderr)
	}
	// Every file in a format folder is a session; the notes at the top
	// (FORMATS.md, SOURCES.md) are not.
	for _, m := range regexp.MustCompile(`skipped (\S+): `).FindAllStringSubmatch(r.stderr, -1) {
		if filepath.Dir(m[1]) != sharedTranscripts {
			t.Errorf("extract skipped a session: %s", m[0])
		}
	}
	if !strings.Contains(r.stderr, "skipped "+sharedTranscripts+"/SOURCES.md: plain prose") {
		t.Errorf("SOURCES.md was not skipped as prose:\n%s", r.stderr)
	}
	var snaps []store.SnapshotSummary
	if err := json.Unmarshal([]byte(mustRun(t, db, "", "list", "-n", "0", "--json").stdout), &snaps); err != nil {
		t.Fatal(err)
	}
	formats := map[string]bool{}
	for _, sn := range snaps {
		var snap handoff.Snapshot
		if err := json.Unmarshal([]byte(mustRun(t, db, "", "show", sn.ID, "--json").stdout), &snap); err != nil {
			t.Fatal(err)
		}
		formats[snap.Source.Format] = true
	}
	for _, want := range []string{"claude-code", "claude-console", "codex", "aider", "specstory", "swe-agent", "openhands", "gemini-cli"} {
		if !formats[want] {
			t.Errorf("no session read as %s (read: %v)", want, slices.Sorted(maps.Keys(formats)))
		}
	}
	var wfs []store.WorkflowOverview
	if err := json.Unmarshal([]byte(mustRun(t, db, "", "status", "--json").stdout), &wfs); err != nil {
		t.Fatal(err)
	}
	if len(wfs) == 0 {
		t.Fatal("status lists no workflows")
	}
	for _, w := range wfs {
		if w.Status != handoff.WorkflowImported {
			t.Errorf("workflow %s (%s) is %s, want imported", w.ID, w.Name, w.Status)
		}
	}
}

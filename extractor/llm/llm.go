package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/prompts"
	openai "github.com/sashabaranov/go-openai"
)

// Defaults of LLMConfig's zero fields.
const (
	DefaultModel        = "gpt-4o-mini"
	DefaultBaseURL      = "https://api.openai.com/v1"
	DefaultWindow       = 50
	DefaultTimeout      = 2 * time.Minute
	DefaultMaxRetries   = 3
	DefaultConcurrency  = 4
	DefaultChunkTokens  = 24000
	DefaultChunkOverlap = 4
)

// minShrinkWindow is the smallest window a truncated answer is retried
// with; below it the answer cannot fit and the call fails.
const minShrinkWindow = 4

// ErrRefused is returned (wrapped) when the model refuses to answer. A
// caller can fall back to the heuristic extractor.
var ErrRefused = errors.New("the model refused to extract")

// ErrTruncated is returned (wrapped) when the model's answer was cut at its
// output limit even for the smallest window.
var ErrTruncated = errors.New("the model's answer was cut off at its output limit")

// Cache stores extraction results between runs, keyed by model, prompt
// version and the redacted content of the window, so a rerun over an
// unchanged history makes no calls. The store package implements it.
type Cache interface {
	// CacheGet returns the value stored under key and whether there was one.
	CacheGet(ctx context.Context, key string) ([]byte, bool, error)
	// CachePut stores v under key.
	CachePut(ctx context.Context, key string, v []byte) error
}

// Config configures the LLM extractor. Zero fields take the defaults
// above; ConfigFromEnv fills the endpoint from the environment.
type Config struct {
	// BaseURL is any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM,
	// llama.cpp server, LM Studio, OpenRouter), ending in /v1.
	BaseURL string
	// APIKey may be empty for a local server that needs none, but then
	// BaseURL must be set.
	APIKey string
	Model  string
	// HTTPClient, if set, is used instead of the default client (which has
	// connect, TLS, header and overall timeouts). Its transport is wrapped
	// to read Retry-After; the given client is not modified.
	HTTPClient *http.Client
	// Timeout is the overall deadline of one Extract call (of each chunk in
	// ExtractHistory), retries and backoff included.
	Timeout time.Duration
	// MaxRetries is how many times a rate-limited, failed (5xx) or dropped
	// request is retried. Negative means no retries.
	MaxRetries int
	// Window is how many of the latest messages a checkpoint sends.
	Window int
	// Concurrency bounds the chunks ExtractHistory extracts at once.
	Concurrency int
	// ChunkTokens bounds the transcript tokens of one request.
	ChunkTokens int
	// ChunkOverlap is how many messages consecutive history chunks share,
	// so a decision and its rationale split across a boundary are seen
	// together once.
	ChunkOverlap int
	// CountTokens counts the tokens of a text (capacity.Counter.Count); nil
	// estimates four bytes per token.
	CountTokens func(text string) int
	// Cache, if set, is consulted before and filled after every call.
	Cache Cache
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// Sleep waits between retries; nil waits on a timer. Tests inject it.
	Sleep func(ctx context.Context, d time.Duration) error
}

// ConfigFromEnv reads the endpoint from OPENAI_API_KEY, OPENAI_BASE_URL
// and HANDOFF_MODEL (default DefaultModel). getenv is os.Getenv in
// production, a map lookup in tests.
func ConfigFromEnv(getenv func(string) string) Config {
	cfg := Config{
		APIKey:  strings.TrimSpace(getenv("OPENAI_API_KEY")),
		BaseURL: strings.TrimSpace(getenv("OPENAI_BASE_URL")),
		Model:   strings.TrimSpace(getenv("HANDOFF_MODEL")),
	}
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	return cfg
}

// Client is the Extractor that asks an OpenAI-compatible model for decisions
// (the assistant's and the person's), error notes, the person's
// constraints, the current work and the next step. It redacts everything
// before sending, sends the transcript as delimited data, validates every
// answer locally — each record must be grounded in the message it cites
// (see grounded) — and remembers which structured-output mode the endpoint
// accepts. It is safe for concurrent use.
type Client struct {
	cfg         Config
	client      *openai.Client
	logger      *slog.Logger
	sleep       func(context.Context, time.Duration) error
	countTokens func(string) int

	mu sync.Mutex
	// modes remembers, per base URL and model, the structured-output mode
	// the endpoint accepted.
	modes map[string]outputMode
	// modeLoaded is set once the mode remembered in the Cache by an
	// earlier run was read.
	modeLoaded bool
}

// New checks cfg, fills its defaults and builds the client.
func New(cfg Config) (*Client, error) {
	if cfg.APIKey == "" && cfg.BaseURL == "" {
		return nil, handoff.Errorf(handoff.EINVALID, "LLM extractor: no API key: set OPENAI_API_KEY, or OPENAI_BASE_URL for a local server")
	}
	if cfg.Timeout < 0 || cfg.Window < 0 || cfg.Concurrency < 0 || cfg.ChunkTokens < 0 || cfg.ChunkOverlap < 0 {
		return nil, handoff.Errorf(handoff.EINVALID, "LLM extractor: timeout, window, concurrency and chunk sizes must not be negative")
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = DefaultMaxRetries
	}
	cfg.MaxRetries = max(cfg.MaxRetries, 0)
	if cfg.Window == 0 {
		cfg.Window = DefaultWindow
	}
	if cfg.Concurrency == 0 {
		cfg.Concurrency = DefaultConcurrency
	}
	if cfg.ChunkTokens == 0 {
		cfg.ChunkTokens = DefaultChunkTokens
	}
	if cfg.ChunkOverlap == 0 {
		cfg.ChunkOverlap = DefaultChunkOverlap
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = cfg.BaseURL
	oc.HTTPClient = newHTTPClient(cfg.HTTPClient, cfg.Timeout, cfg.Concurrency)
	l := &Client{
		cfg:         cfg,
		client:      openai.NewClientWithConfig(oc),
		logger:      cfg.Logger,
		sleep:       cfg.Sleep,
		countTokens: cfg.CountTokens,
		modes:       map[string]outputMode{},
	}
	if l.logger == nil {
		l.logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if l.sleep == nil {
		l.sleep = sleepContext
	}
	if l.countTokens == nil {
		l.countTokens = func(s string) int { return (len(s) + 3) / 4 }
	}
	return l, nil
}

// Name implements Extractor.
func (l *Client) Name() string { return "llm" }

// Model returns the model the extractor asks.
func (l *Client) Model() string { return l.cfg.Model }

// OutputMode names the structured-output mode the next request will use:
// json_schema_strict, json_schema, json_object or text.
func (l *Client) OutputMode() string { return l.currentMode().String() }

// Extract implements Extractor for a checkpoint: it sends the last Window
// main-thread messages (fewer if they exceed ChunkTokens) in one request.
func (l *Client) Extract(ctx context.Context, msgs []handoff.Message) (*extractor.Result, error) {
	return l.extractSelected(ctx, l.Name(), msgs, nil)
}

// extractSelected extracts from the latest window of msgs. pick, if set,
// chooses which of the window's messages to send (Hybrid's selection).
func (l *Client) extractSelected(ctx context.Context, name string, msgs []handoff.Message, pick func([]handoff.Message) []handoff.Message) (*extractor.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, l.cfg.Timeout)
	defer cancel()
	window := l.checkpointWindow(msgs, pick)
	var st callStats
	var recs records
	if len(window) > 0 {
		var err error
		recs, err = l.extractWindow(ctx, window, &st)
		if err != nil {
			return nil, fmt.Errorf("%s extract: %w", name, err)
		}
	}
	return l.Result(name, []records{recs}, []callStats{st}), nil
}

// checkpointWindow is the last Window sendable messages, narrowed by pick
// when given, and cut from the front to fit ChunkTokens.
func (l *Client) checkpointWindow(msgs []handoff.Message, pick func([]handoff.Message) []handoff.Message) []handoff.Message {
	var eligible []handoff.Message
	for _, m := range msgs {
		if sendable(m) {
			eligible = append(eligible, m)
		}
	}
	if len(eligible) > l.cfg.Window {
		eligible = eligible[len(eligible)-l.cfg.Window:]
	}
	if pick != nil {
		eligible = pick(eligible)
	}
	total := 0
	for i := len(eligible) - 1; i >= 0; i-- {
		total += l.countTokens(renderMessage(eligible[i]))
		if total > l.cfg.ChunkTokens && i < len(eligible)-1 {
			return eligible[i+1:]
		}
	}
	return eligible
}

// callStats accounts for one window's calls.
type callStats struct {
	calls, cacheHits             int
	promptTokens, completionToks int
	warnings                     []string
}

// cacheKey identifies a window's answer: the model, the prompt version
// (prompts.ExtractionPromptVersion), the output schema (so a schema edit
// made without bumping the version still misses) and the redacted window
// content.
func (l *Client) cacheKey(rendered string) string {
	h := sha256.New()
	for _, part := range []string{l.cfg.Model, prompts.ExtractionPromptVersion, extractionSchema, rendered} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return "extract:" + hex.EncodeToString(h.Sum(nil))
}

// extractWindow returns the records of one window: from the cache when it
// has them, else from the model. An answer cut at the output limit is
// asked again over the newer half of the window.
func (l *Client) extractWindow(ctx context.Context, window []handoff.Message, st *callStats) (records, error) {
	key := l.cacheKey(renderWindow(renderAll(window)))
	if l.cfg.Cache != nil {
		v, ok, err := l.cfg.Cache.CacheGet(ctx, key)
		switch {
		case err != nil:
			l.logger.Warn("extraction cache read failed; asking the model", "error", err)
		case ok:
			var recs records
			if err := json.Unmarshal(v, &recs); err == nil {
				st.cacheHits++
				return recs, nil
			}
			l.logger.Warn("extraction cache entry does not decode; asking the model", "key", key)
		}
	}
	for {
		recs, err := l.ask(ctx, window, st)
		if errors.Is(err, ErrTruncated) && len(window) > minShrinkWindow {
			st.warnings = append(st.warnings, fmt.Sprintf("answer cut off at the output limit; asked again with the latest %d of %d messages", len(window)/2, len(window)))
			window = window[len(window)-len(window)/2:]
			continue
		}
		if err != nil {
			return records{}, err
		}
		if l.cfg.Cache != nil {
			if v, err := json.Marshal(recs); err == nil {
				if err := l.cfg.Cache.CachePut(ctx, key, v); err != nil {
					l.logger.Warn("extraction cache write failed", "error", err)
				}
			}
		}
		return recs, nil
	}
}

func renderAll(window []handoff.Message) []string {
	out := make([]string, len(window))
	for i, m := range window {
		out[i] = renderMessage(m)
	}
	return out
}

// ask sends one window and validates the answer, stepping down the
// structured-output chain when the endpoint rejects a mode and asking once
// more when the answer is not JSON at all.
func (l *Client) ask(ctx context.Context, window []handoff.Message, st *callStats) (records, error) {
	rendered := renderWindow(renderAll(window))
	askedAgain := false
	for {
		mode := l.modeFor(ctx)
		req := buildRequest(l.cfg.Model, mode, rendered)
		resp, err := l.createWithRetry(ctx, req)
		if err != nil {
			var ce *callError
			if errors.As(err, &ce) && ce.formatUnsupported && mode < modeText {
				next := l.stepDown(ctx, mode)
				l.logger.Info("endpoint rejected the response format; stepping down", "from", mode.String(), "to", next.String(), "error", ce.Error())
				continue
			}
			return records{}, err
		}
		st.calls++
		if resp.Usage.PromptTokens > 0 || resp.Usage.CompletionTokens > 0 {
			st.promptTokens += resp.Usage.PromptTokens
			st.completionToks += resp.Usage.CompletionTokens
		} else {
			// The server reported no usage: estimate what was sent.
			for _, m := range req.Messages {
				st.promptTokens += l.countTokens(m.Content)
			}
		}
		if len(resp.Choices) == 0 {
			return records{}, handoff.Errorf(handoff.EUNAVAILABLE, "LLM answer from %s has no choices", l.cfg.BaseURL)
		}
		choice := resp.Choices[0]
		if choice.Message.Refusal != "" {
			return records{}, handoff.Errorf(handoff.EUNAVAILABLE, "%w: %s", ErrRefused, prose.Truncate(choice.Message.Refusal, 200))
		}
		switch choice.FinishReason {
		case openai.FinishReasonLength:
			return records{}, handoff.Errorf(handoff.EUNAVAILABLE, "%w (window of %d messages)", ErrTruncated, len(window))
		case openai.FinishReasonContentFilter:
			return records{}, handoff.Errorf(handoff.EUNAVAILABLE, "%w: the endpoint's content filter stopped the answer", ErrRefused)
		}
		content := strings.TrimSpace(choice.Message.Content)
		if !strings.HasPrefix(content, "{") {
			if obj, ok := firstJSONObject(content); ok {
				content = string(obj)
			}
		}
		recs, warnings, err := parseAnswer([]byte(content), window)
		if errors.Is(err, errInvalidJSON) {
			if !askedAgain {
				askedAgain = true
				l.logger.Warn("LLM answer is not valid JSON; asking once more", "error", err)
				continue
			}
			return records{}, handoff.Errorf(handoff.EUNAVAILABLE, "LLM answer from %s was not valid JSON twice: %w", l.cfg.BaseURL, err)
		}
		if err != nil {
			return records{}, err
		}
		if len(warnings) > 0 {
			l.logger.Warn("LLM answer had invalid parts", "count", len(warnings), "first", warnings[0])
		}
		st.warnings = append(st.warnings, warnings...)
		return recs, nil
	}
}

// Result merges windows' records and sums their accounting.
func (l *Client) Result(name string, parts []records, stats []callStats) *extractor.Result {
	merged := mergeRecords(parts)
	usage := &handoff.ExtractionUsage{Extractor: name, Model: l.cfg.Model}
	var warnings []string
	for _, st := range stats {
		usage.Calls += st.calls
		usage.CacheHits += st.cacheHits
		usage.PromptTokens += st.promptTokens
		usage.CompletionTokens += st.completionToks
		warnings = append(warnings, st.warnings...)
	}
	ds := make([]handoff.Decision, len(merged.Decisions))
	for i, d := range merged.Decisions {
		ds[i] = d.Decision
	}
	return &extractor.Result{
		Decisions:   ds,
		Errors:      merged.Errors,
		Usage:       usage,
		Warnings:    warnings,
		CurrentWork: merged.CurrentWork,
		NextStep:    merged.NextStep,
		Constraints: merged.Constraints,
	}
}

func (l *Client) endpointKey() string { return l.cfg.BaseURL + "\x00" + l.cfg.Model }

func (l *Client) currentMode() outputMode {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.modes[l.endpointKey()]
}

// modeCacheKey is where the Cache remembers the endpoint's mode between
// runs: a hash, so a base URL carrying credentials is not stored.
func (l *Client) modeCacheKey() string {
	sum := sha256.Sum256([]byte(l.endpointKey()))
	return "extract-mode:" + hex.EncodeToString(sum[:])
}

// modeFor returns the mode the next request uses. The first call reads the
// mode an earlier run remembered in the Cache, so a process that asks an
// endpoint without json_schema support once does not pay the rejected
// requests again on every run.
func (l *Client) modeFor(ctx context.Context) outputMode {
	l.mu.Lock()
	if l.modeLoaded || l.cfg.Cache == nil {
		defer l.mu.Unlock()
		return l.modes[l.endpointKey()]
	}
	l.mu.Unlock()
	v, ok, err := l.cfg.Cache.CacheGet(ctx, l.modeCacheKey())
	l.mu.Lock()
	defer l.mu.Unlock()
	key := l.endpointKey()
	if !l.modeLoaded {
		l.modeLoaded = true
		if m, known := parseMode(string(v)); err == nil && ok && known && m > l.modes[key] {
			l.modes[key] = m
		}
	}
	return l.modes[key]
}

// parseMode is the inverse of outputMode.String.
func parseMode(s string) (outputMode, bool) {
	for m := modeStrictSchema; m <= modeText; m++ {
		if m.String() == s {
			return m, true
		}
	}
	return modeStrictSchema, false
}

// stepDown moves the endpoint's mode below from, unless a concurrent call
// already moved it further, remembers it in the Cache, and returns the
// mode now in force.
func (l *Client) stepDown(ctx context.Context, from outputMode) outputMode {
	l.mu.Lock()
	key := l.endpointKey()
	if l.modes[key] <= from {
		l.modes[key] = from + 1
	}
	mode := l.modes[key]
	l.mu.Unlock()
	if l.cfg.Cache != nil {
		if err := l.cfg.Cache.CachePut(ctx, l.modeCacheKey(), []byte(mode.String())); err != nil {
			l.logger.Warn("could not remember the endpoint's response format", "error", err)
		}
	}
	return mode
}

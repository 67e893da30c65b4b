package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	openai "github.com/sashabaranov/go-openai"
)

// Backoff bounds between retries. A server's Retry-After wins over the
// computed delay when it asks for longer, up to maxRetryAfter.
const (
	backoffBase   = 500 * time.Millisecond
	backoffMax    = 20 * time.Second
	maxRetryAfter = 5 * time.Minute
)

// retryAfterKey carries a *retryAfterSlot in a request's context, so the
// transport can hand the header back to the call that made the request.
// go-openai turns an error response into an *APIError without its headers.
type retryAfterKey struct{}

// retryAfterSlot receives the Retry-After of one request's response.
type retryAfterSlot struct {
	mu    sync.Mutex
	delay time.Duration
	ok    bool
}

func (s *retryAfterSlot) set(d time.Duration) {
	s.mu.Lock()
	s.delay, s.ok = d, true
	s.mu.Unlock()
}

func (s *retryAfterSlot) get() (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.delay, s.ok
}

// retryAfterTransport records the Retry-After header of each response in
// the slot its request's context carries.
type retryAfterTransport struct {
	base http.RoundTripper
	now  func() time.Time
}

// RoundTrip implements http.RoundTripper.
func (t *retryAfterTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp == nil {
		return resp, err
	}
	if slot, ok := req.Context().Value(retryAfterKey{}).(*retryAfterSlot); ok {
		if d, ok := parseRetryAfter(resp.Header, t.now()); ok {
			slot.set(d)
		}
	}
	return resp, nil
}

// parseRetryAfter reads retry-after-ms (OpenAI's) or Retry-After, which is
// either seconds or an HTTP date.
func parseRetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return min(time.Duration(ms*float64(time.Millisecond)), maxRetryAfter), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 {
		return min(time.Duration(secs*float64(time.Second)), maxRetryAfter), true
	}
	if at, err := http.ParseTime(v); err == nil {
		return min(max(at.Sub(now), 0), maxRetryAfter), true
	}
	return 0, false
}

// newHTTPClient returns the client requests go through: the caller's, or
// one with connect, TLS, header and overall timeouts (go-openai's default
// client has none), in both cases wrapped to capture Retry-After.
func newHTTPClient(given *http.Client, timeout time.Duration, conns int) *http.Client {
	var c http.Client
	if given != nil {
		c = *given
	} else {
		c = http.Client{
			Timeout: timeout,
			Transport: &http.Transport{
				Proxy:                 http.ProxyFromEnvironment,
				DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
				TLSHandshakeTimeout:   10 * time.Second,
				ResponseHeaderTimeout: timeout,
				ExpectContinueTimeout: time.Second,
				IdleConnTimeout:       90 * time.Second,
				MaxIdleConnsPerHost:   conns + 1,
				ForceAttemptHTTP2:     true,
			},
		}
	}
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = &retryAfterTransport{base: base, now: time.Now}
	return &c
}

// callError is a failed request, classified.
type callError struct {
	status    int // HTTP status, 0 when no response came back
	retryable bool
	// formatUnsupported marks a 400 that rejects the response_format: the
	// signal to step down the structured-output chain.
	formatUnsupported bool
	err               error
	// cause is what go-openai returned, kept for errors.As.
	cause error
}

func (e *callError) Error() string { return e.err.Error() }
func (e *callError) Unwrap() error {
	if e.cause != nil {
		return e.cause
	}
	return errors.Unwrap(e.err)
}

// classify sorts a go-openai error into retry or not, and gives it a
// message a person can act on.
func classify(err error) *callError {
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr):
		return classifyStatus(apiErr.HTTPStatusCode, apiErrorText(apiErr), isQuota(apiErr), err)
	case errors.As(err, &reqErr):
		return classifyStatus(reqErr.HTTPStatusCode, bodySnippet(reqErr.Body), false, err)
	}
	var syntaxErr *json.SyntaxError
	var netErr net.Error
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return &callError{err: err}
	case errors.As(err, &syntaxErr):
		// A 200 whose body is not JSON: a proxy's page, a cut stream.
		return &callError{retryable: true, err: fmt.Errorf("the endpoint's answer was not JSON: %w", err)}
	case errors.As(err, &netErr):
		return &callError{retryable: true, err: fmt.Errorf("network: %w", err)}
	}
	// Connection resets, EOFs and the like from the transport.
	return &callError{retryable: true, err: err}
}

func classifyStatus(status int, text string, quota bool, cause error) *callError {
	ce := &callError{status: status, err: fmt.Errorf("HTTP %d: %s", status, text), cause: cause}
	switch {
	case quota:
		ce.err = fmt.Errorf("HTTP %d: out of quota (insufficient_quota): %s", status, text)
	case status == http.StatusTooManyRequests, status == http.StatusRequestTimeout, status >= 500:
		ce.retryable = true
	case status == http.StatusBadRequest:
		ce.formatUnsupported = mentionsResponseFormat(text)
	}
	return ce
}

func isQuota(e *openai.APIError) bool {
	code, _ := e.Code.(string)
	return code == "insufficient_quota" || e.Type == "insufficient_quota"
}

func apiErrorText(e *openai.APIError) string {
	text := e.Message
	if e.Param != nil && *e.Param != "" {
		text += " (param " + *e.Param + ")"
	}
	return prose.Truncate(text, 300)
}

// bodySnippet is the readable start of an error body that was not the
// usual JSON: an HTML error page reduced to its text.
func bodySnippet(body []byte) string {
	s := string(body)
	var b strings.Builder
	inTag := false
	for _, r := range s {
		switch {
		case r == '<':
			inTag = true
		case r == '>':
			inTag = false
			b.WriteByte(' ')
		case !inTag:
			b.WriteRune(r)
		}
	}
	text := strings.Join(strings.Fields(b.String()), " ")
	if text == "" {
		return "(empty body)"
	}
	return prose.Truncate(text, 200)
}

// mentionsResponseFormat reports whether a 400's text blames the
// structured-output request rather than the prompt or the model name.
func mentionsResponseFormat(text string) bool {
	t := strings.ToLower(text)
	for _, w := range []string{"response_format", "json_schema", "json_object", "structured output", "response format", "strict"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// backoff returns the delay before retry number attempt (0-based):
// exponential with jitter, so concurrent workers do not retry in step.
func backoff(attempt int) time.Duration {
	d := backoffBase << min(attempt, 10)
	d = min(d, backoffMax)
	half := d / 2
	return half + rand.N(half+1)
}

// sleepContext waits for d or until ctx ends.
func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// createWithRetry sends one chat completion request, retrying rate limits,
// server errors and network failures with backoff until MaxRetries or the
// context's deadline.
func (l *Client) createWithRetry(ctx context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, error) {
	for attempt := 0; ; attempt++ {
		slot := &retryAfterSlot{}
		resp, err := l.client.CreateChatCompletion(context.WithValue(ctx, retryAfterKey{}, slot), req)
		if err == nil {
			return resp, nil
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return resp, handoff.Errorf(handoff.EUNAVAILABLE, "LLM request to %s: gave up after %d attempt(s): %w", l.cfg.BaseURL, attempt+1, ctxErr)
		}
		ce := classify(err)
		if !ce.retryable || attempt >= l.cfg.MaxRetries {
			return resp, l.finalError(ce, attempt+1)
		}
		wait := backoff(attempt)
		if ra, ok := slot.get(); ok && ra > wait {
			wait = ra
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return resp, handoff.Errorf(handoff.EUNAVAILABLE, "LLM request to %s: %v; the next retry (in %s) would pass the deadline: %w", l.cfg.BaseURL, ce, wait.Round(time.Millisecond), ce)
		}
		l.logger.Warn("LLM request failed; retrying", "attempt", attempt+1, "status", ce.status, "wait", wait, "error", ce.Error())
		if err := l.sleep(ctx, wait); err != nil {
			return resp, handoff.Errorf(handoff.EUNAVAILABLE, "LLM request to %s: waiting to retry: %w", l.cfg.BaseURL, err)
		}
	}
}

// finalError gives a failed call its error class.
func (l *Client) finalError(ce *callError, attempts int) error {
	code := handoff.EUNAVAILABLE
	hint := ""
	switch ce.status {
	case http.StatusUnauthorized, http.StatusForbidden:
		code, hint = handoff.EINVALID, " (check OPENAI_API_KEY)"
	case http.StatusNotFound:
		code, hint = handoff.EINVALID, " (check OPENAI_BASE_URL and the model name "+strconv.Quote(l.cfg.Model)+")"
	case http.StatusBadRequest:
		code = handoff.EINVALID
	}
	return handoff.Errorf(code, "LLM request to %s failed after %d attempt(s)%s: %w", l.cfg.BaseURL, attempts, hint, ce)
}

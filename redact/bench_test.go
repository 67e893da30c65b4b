package redact

import (
	"fmt"
	"strings"
	"testing"
)

// transcriptLike returns about n bytes of text shaped like a coding
// session: prose, shell commands, Go code, test output, JSON, and now and
// then a secret or a near miss.
func transcriptLike(n int) string {
	chunks := []string{
		"I'll read the file first to see how the handler is wired, then update the tests.\n",
		"$ go test ./internal/api/... -run TestRateLimit -count=1\n--- FAIL: TestRateLimit (0.01s)\n    limiter_test.go:42: got 200, want 429\nFAIL\n",
		"func (l *Limiter) Allow(key string) bool {\n\tl.mu.Lock()\n\tdefer l.mu.Unlock()\n\ttokens := l.buckets[key]\n\treturn tokens > 0\n}\n",
		`{"command":"curl -s http://localhost:8080/v1/items","description":"hit the endpoint","timeout":120000}` + "\n",
		"The token bucket refills at 100 requests per minute; max_tokens=4096 and token_count = 12 are unrelated.\n",
		"export STAGING_API_KEY=" + fakeOpenAI + "\n",
		"password: str\napi_key: Optional[str] = None\n",
		"Authorization: Bearer " + fakeJWT + "\n",
		"postgres://admin:s3cretPw@db:5432/app?sslmode=disable\n",
		"https://github.com/handoff-cli/handoff/blob/main/README.md#L10-L20\n",
	}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(chunks[i%len(chunks)])
	}
	return b.String()
}

// BenchmarkString measures redaction throughput (MB/s) on transcript-like
// text at two sizes: equal ns/byte at both shows the work is linear.
func BenchmarkString(b *testing.B) {
	r := New()
	for _, size := range []int{256 << 10, 1 << 20} {
		text := transcriptLike(size)
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				_ = r.String(text)
			}
		})
	}
}

// BenchmarkStringBaseline is the floor to compare BenchmarkString with:
// one pass that lower-cases and copies the same 1 MB, the least any
// case-insensitive scan must do.
func BenchmarkStringBaseline(b *testing.B) {
	text := transcriptLike(1 << 20)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		_ = asciiLower(text)
	}
}

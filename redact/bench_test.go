package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// transcriptLike returns about n bytes of text shaped like a coding
// session: prose, shell commands, Go code, test output, JSON, and now and
// then a secret or a near miss. It is far denser in secrets than real
// sessions (one in every ten lines), so it is the worst case.
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

// realTranscripts returns the public sample transcripts concatenated (the
// raw JSONL and Markdown, escapes and all), or "" when they are absent.
func realTranscripts(tb testing.TB) string {
	tb.Helper()
	var b strings.Builder
	root := filepath.Join("..", "..", "shared", "transcripts")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
		b.Write(data)
		return nil
	})
	if err != nil || b.Len() == 0 {
		return ""
	}
	return b.String()
}

// BenchmarkString measures redaction throughput (MB/s) against a
// baseline measured in the same run: bytes.Count of a needle, one
// vectorised pass that allocates nothing — the floor of any scan. The
// ratio of the two MB/s figures is the cost of redaction over reading
// the text once. "real" is the public sample transcripts (raw JSONL, so
// JSON escapes and all), "dense" the synthetic text above.
func BenchmarkString(b *testing.B) {
	r := New()
	texts := []struct {
		name, text string
	}{
		{"real", realTranscripts(b)},
		{"dense-1MB", transcriptLike(1 << 20)},
	}
	for _, tt := range texts {
		if tt.text == "" {
			continue
		}
		data := []byte(tt.text)
		b.Run(tt.name+"/redact", func(b *testing.B) {
			b.SetBytes(int64(len(tt.text)))
			for b.Loop() {
				_ = r.String(tt.text)
			}
		})
		b.Run(tt.name+"/baseline-bytes.Count", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				_ = bytes.Count(data, []byte("sk-"))
			}
		})
	}
}

// BenchmarkLinear runs the dense text at two sizes: equal ns/byte at both
// shows the work is linear.
func BenchmarkLinear(b *testing.B) {
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

// BenchmarkNew is the fixed cost every redacting command (compile, the
// hooks) pays once: building the catalogue and its first-two-bytes index.
func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		New()
	}
}

// largestShared returns the largest file of the shared transcripts (the
// checkout's sibling ../shared, or a worktree's ../../shared), or "".
func largestShared(tb testing.TB) (string, string) {
	tb.Helper()
	var best string
	var size int64
	for _, root := range []string{filepath.Join("..", "..", "shared", "transcripts"), filepath.Join("..", "..", "..", "shared", "transcripts"), "/work/shared/transcripts"} {
		_ = filepath.WalkDir(root+string(filepath.Separator), func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if fi, err := d.Info(); err == nil && fi.Size() > size {
				best, size = path, fi.Size()
			}
			return nil
		})
		if best != "" {
			break
		}
	}
	if best == "" {
		return "", ""
	}
	data, err := os.ReadFile(best)
	if err != nil {
		tb.Fatal(err)
	}
	return filepath.Base(best), string(data)
}

// BenchmarkGitleaksTier is what running gitleaks' catalogue and the own
// rules as data (gitleaks_scan.go) adds to redaction, on the largest
// shared transcript: "without" is the redactor with that tier switched
// off, measured in the same run.
func BenchmarkGitleaksTier(b *testing.B) {
	name, text := largestShared(b)
	if text == "" {
		b.Skip("../shared/transcripts not present")
	}
	b.Logf("file: %s (%d bytes)", name, len(text))
	with := New()
	without := New()
	without.gl = nil
	for _, tt := range []struct {
		name string
		r    *Redactor
	}{{"without", without}, {"with", with}} {
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				_ = tt.r.String(text)
			}
		})
	}
}

// BenchmarkGitleaksTierPerProcess is BenchmarkGitleaksTier as one
// `handoff compile` pays it: the redactor built, then the largest shared
// transcript redacted once. "without" builds it with the gitleaks tier
// switched off (the catalogue before issue 32), in the same run.
func BenchmarkGitleaksTierPerProcess(b *testing.B) {
	name, text := largestShared(b)
	if text == "" {
		b.Skip("../shared/transcripts not present")
	}
	b.Logf("file: %s (%d bytes)", name, len(text))
	for _, tier := range []bool{false, true} {
		label := "without"
		if tier {
			label = "with"
		}
		b.Run(label, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				r := New()
				if !tier {
					r.gl = nil
				}
				_ = r.String(text)
			}
		})
	}
}

// BenchmarkFindPieces is Find as a compile calls it: on the strings of
// the shared transcripts (decoded from their JSON, as a parser hands them
// on), cut into pieces of at most 4.6 KB, the size of the head and tail
// a tool output aged to 1 KiB is redacted in (transcript's clipStringOf).
// Most calls find nothing, so it measures the scan itself.
func BenchmarkFindPieces(b *testing.B) {
	text := realTranscripts(b)
	if text == "" {
		b.Skip("../shared/transcripts not present")
	}
	var pieces []string
	total := 0
	var collect func(v any)
	collect = func(v any) {
		switch v := v.(type) {
		case string:
			for len(v) > 0 {
				n := min(len(v), 4608)
				pieces = append(pieces, v[:n])
				total += n
				v = v[n:]
			}
		case []any:
			for _, e := range v {
				collect(e)
			}
		case map[string]any:
			for _, e := range v {
				collect(e)
			}
		}
	}
	for line := range strings.SplitSeq(text, "\n") {
		var v any
		if json.Unmarshal([]byte(line), &v) == nil {
			collect(v)
		}
	}
	r := New()
	b.SetBytes(int64(total))
	for b.Loop() {
		for _, p := range pieces {
			_ = r.Find(p)
		}
	}
}

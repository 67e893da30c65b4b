package transcript

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkParse parses the largest shared transcript of each format;
// b.SetBytes makes `go test -bench` report MB/s.
func BenchmarkParse(b *testing.B) {
	largest := map[Format]string{}
	sizes := map[Format]int64{}
	for _, c := range conformance {
		p := filepath.Join(sharedDir, c.path)
		if fi, err := os.Stat(p); err == nil && fi.Size() > sizes[c.format] {
			largest[c.format], sizes[c.format] = p, fi.Size()
		}
	}
	if len(largest) == 0 {
		b.Skip("shared transcripts absent")
	}
	for _, f := range Formats() {
		p, ok := largest[f.Name]
		if !ok {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(string(f.Name), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(context.Background(), bytes.NewReader(data), Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseLargest parses the largest shared Codex rollout and Claude
// Code session, the two formats whose parsers do the most per line, so a
// change to them can be measured before and after on the same files.
func BenchmarkParseLargest(b *testing.B) {
	for _, dir := range []string{"codex", "claude-code"} {
		data := largestShared(b, dir)
		b.Run(dir, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(context.Background(), bytes.NewReader(data), Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseVsJSONDecode parses the largest shared Claude Code session
// and, in the same loop, decodes each of its lines with encoding/json into
// an any (bench/jsondecode's floor), and reports parse/plain: how many
// plain decodes of the file one Parse costs. Both halves see the same
// machine load, so the ratio holds where absolute times do not.
func BenchmarkParseVsJSONDecode(b *testing.B) {
	data := largestShared(b, "claude-code")
	b.SetBytes(int64(len(data)))
	var parse, plain time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := Parse(context.Background(), bytes.NewReader(data), Options{}); err != nil {
			b.Fatal(err)
		}
		mid := time.Now()
		for line := range bytes.Lines(data) {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			var v any
			if err := json.Unmarshal(line, &v); err != nil {
				b.Fatal(err)
			}
		}
		parse += mid.Sub(start)
		plain += time.Since(mid)
	}
	b.ReportMetric(float64(parse)/float64(plain), "parse/plain")
}

// largestShared returns the largest shared *.jsonl transcript in dir
// (under sharedDir), skipping the benchmark when there is none.
func largestShared(b *testing.B, dir string) []byte {
	b.Helper()
	files, _ := filepath.Glob(filepath.Join(sharedDir, dir, "*.jsonl"))
	var path string
	var size int64
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.Size() > size {
			path, size = f, fi.Size()
		}
	}
	if path == "" {
		b.Skipf("no shared %s transcripts", dir)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

package transcript

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
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

package extractor

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/handoff-cli/handoff/transcript"
)

// BenchmarkBuildLargest is Build with the heuristic extractor on the
// largest shared Claude Code transcript: the extraction part of
// compile-max (bench/run.sh), without the process around it, so an
// extractor change can be measured against its parent commit with
// `go test -bench BuildLargest` in both trees.
func BenchmarkBuildLargest(b *testing.B) {
	files, _ := filepath.Glob("../../shared/transcripts/claude-code/*.jsonl")
	largest, size := "", int64(0)
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Size() > size {
			largest, size = f, st.Size()
		}
	}
	if largest == "" {
		b.Skip("no shared Claude Code transcripts")
	}
	tr, err := transcript.ParseFile(context.Background(), largest, transcript.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ex := NewHeuristic(nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build(context.Background(), tr, ex); err != nil {
			b.Fatal(err)
		}
	}
}

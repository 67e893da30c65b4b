package transcript

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// writeSyntheticClaude writes a Claude Code session of about size bytes
// to path: rounds of a user prompt, an assistant tool call and a tool
// result carrying big bytes of output (the shape that makes real sessions
// large: tool output, repeated in toolUseResult). It returns the length
// of the longest line, the largest single message.
func writeSyntheticClaude(tb testing.TB, path string, size, big int) int {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	out := strings.Repeat("compiling module … ok\n", big/46)
	quoted, _ := json.Marshal(out)
	written, longest := 0, 0
	for i := 0; written < size; i++ {
		lines := []string{
			fmt.Sprintf(`{"type":"user","sessionId":"s","uuid":"u%d","timestamp":"2025-01-01T00:00:00Z","message":{"role":"user","content":"step %d: build it"}}`, i, i),
			fmt.Sprintf(`{"type":"assistant","sessionId":"s","uuid":"a%d","message":{"id":"m%d","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"t%d","name":"Bash","input":{"command":"make"}}],"usage":{"input_tokens":10,"cache_read_input_tokens":90000,"output_tokens":20}}}`, i, i, i),
			fmt.Sprintf(`{"type":"user","sessionId":"s","uuid":"r%d","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":%s}]},"toolUseResult":{"stdout":%s,"stderr":"","interrupted":false}}`, i, i, quoted, quoted),
		}
		for _, l := range lines {
			longest = max(longest, len(l))
			n, _ := w.WriteString(l + "\n")
			written += n
		}
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	return longest
}

// BenchmarkParseMemory100MB streams a 100 MB synthetic Claude Code file
// from disk and samples the live heap while parsing (measureHeap: GC at
// 1% so garbage does not pile up in the samples). It reports the peak
// heap growth over the baseline as a ratio to the largest single message
// (peak/largest-msg, target under 3 whatever the file size; it includes
// the parsed transcript, whose tool outputs are clipped) and the bytes
// allocated per byte of file (alloc/file).
func BenchmarkParseMemory100MB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.jsonl")
	longest := writeSyntheticClaude(b, path, 100<<20, 2<<20)
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	var worst, allocRatio float64
	for b.Loop() {
		var tr *handoff.Transcript
		var err error
		allocated, peak := measureHeap(func() {
			tr, err = ParseFile(context.Background(), path, Options{})
		})
		if err != nil {
			b.Fatal(err)
		}
		if len(tr.Messages) == 0 {
			b.Fatal("no messages")
		}
		worst = max(worst, float64(peak)/float64(longest))
		allocRatio = float64(allocated) / float64(fi.Size())
	}
	b.ReportMetric(float64(longest), "largest-msg-bytes")
	b.ReportMetric(worst, "peak/largest-msg")
	b.ReportMetric(allocRatio, "alloc/file")
}

// BenchmarkParseMemoryGrowth parses 25 MB and 100 MB synthetic Claude Code
// files whose tool outputs (about 4 KB each) are under the clip limit, the
// shape whose memory grew with the file, and reports the sampled peak
// heap of each and the growth between them in MiB per MB of file, with
// older tool output cut again (the default) and kept whole
// (OlderToolOutputBytes < 0, the behaviour before), in one run.
func BenchmarkParseMemoryGrowth(b *testing.B) {
	dir := b.TempDir()
	sizes := []int{25 << 20, 100 << 20}
	paths := make([]string, len(sizes))
	for i, size := range sizes {
		paths[i] = filepath.Join(dir, fmt.Sprintf("%d.jsonl", size>>20))
		writeSyntheticClaude(b, paths[i], size, 8<<10)
	}
	for _, mode := range []struct {
		name  string
		older int
	}{{"aged", 0}, {"kept", -1}} {
		b.Run(mode.name, func(b *testing.B) {
			peaks := make([]uint64, len(sizes))
			for b.Loop() {
				for i, path := range paths {
					var err error
					_, peak := measureHeap(func() {
						_, err = ParseFile(context.Background(), path, Options{OlderToolOutputBytes: mode.older})
					})
					if err != nil {
						b.Fatal(err)
					}
					peaks[i] = peak
				}
			}
			mib := func(n uint64) float64 { return float64(n) / (1 << 20) }
			b.ReportMetric(mib(peaks[0]), "peak-MiB-25MB")
			b.ReportMetric(mib(peaks[1]), "peak-MiB-100MB")
			b.ReportMetric((mib(peaks[1])-mib(peaks[0]))/float64((sizes[1]-sizes[0])>>20), "MiB/MB")
		})
	}
}

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/follow"
	"github.com/handoff-cli/handoff/transcript"
)

// benchLine returns the i-th line of a synthetic Claude Code session:
// user turns and assistant responses (with provider usage) alternating,
// every one unique so the tokenizer's cache never answers for it.
func benchLine(i int) []byte {
	const filler = "The handler validates the request, looks up the client's bucket, and refills it by elapsed time before taking a token. "
	if i%2 == 0 {
		return fmt.Appendf(nil, `{"type":"user","sessionId":"bench","uuid":"u%d","timestamp":"2026-11-23T09:00:00Z","message":{"role":"user","content":"step %d: %s%s"}}`+"\n",
			i, i, filler, filler)
	}
	return fmt.Appendf(nil, `{"type":"assistant","sessionId":"bench","uuid":"a%d","timestamp":"2026-11-23T09:00:01Z","message":{"id":"msg_%d","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"reply %d: %s%s%s"}],"usage":{"input_tokens":12,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,"output_tokens":90}}}`+"\n",
		i, i, i, filler, filler, filler, 100+i%1000, 1000+i)
}

// BenchmarkWatchAppend measures what one appended line costs `handoff
// watch` — the file event, reading the new bytes, decoding the line into
// the running transcript, and updating the monitor — when the file already
// holds 1 MB (the baseline) and 50 MB. Flat cost means the ratio is ~1×.
func BenchmarkWatchAppend(b *testing.B) {
	counter, err := capacity.NewCounter(capacity.O200kBase)
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{1 << 20, 50 << 20} {
		b.Run(fmt.Sprintf("file=%dMB", size>>20), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "session.jsonl")
			f, err := os.Create(path)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			n, written := 0, 0
			for ; written < size; n++ {
				l := benchLine(n)
				if _, err := f.Write(l); err != nil {
					b.Fatal(err)
				}
				written += len(l)
			}

			sess, err := newLiveSession(transcript.FormatClaudeCode, transcript.Options{Format: transcript.FormatClaudeCode, Source: path},
				counter, capacity.MonitorOptions{ContextWindow: 1 << 40})
			if err != nil {
				b.Fatal(err)
			}
			fl, err := follow.Open(path, follow.Options{Poll: follow.DefaultPoll})
			if err != nil {
				b.Fatal(err)
			}
			defer fl.Close()
			ctx := context.Background()
			// Catch up with what the file holds: the session gets every
			// line, as in a real watch, so the timed appends start from
			// its steady state.
			for range n {
				ev, err := fl.Next(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := sess.line(ev.Data); err != nil {
					b.Fatal(err)
				}
			}

			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := f.Write(benchLine(n)); err != nil {
					b.Fatal(err)
				}
				n++
				ev, err := fl.Next(ctx)
				if err != nil {
					b.Fatal(err)
				}
				st, err := sess.line(ev.Data)
				if err != nil {
					b.Fatal(err)
				}
				if st.Fired {
					b.Fatal("the monitor fired in a benchmark meant to stay below the thresholds")
				}
			}
			b.StopTimer()
			if got := sess.dec.Lines(); got != n {
				b.Fatalf("decoder consumed %d lines, file has %d", got, n)
			}
		})
	}
}

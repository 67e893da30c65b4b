// Package stages is a per-stage cost model of compile on real-content
// sessions (bench/realgen): parse, redact, measure, extract and render,
// each timed on its own and reported as ms per MB of transcript, so a
// stage whose cost grows faster than the file shows at once.
//
//	go test -run '^$' -bench Stages ./bench/stages            # 1 and 10 MB
//	STAGE_SIZES="1 10 50" go test -run '^$' -bench Stages -benchtime 1x ./bench/stages
//
// The sessions are generated once into bench/out (as bench/scale.sh does).
package stages

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/compiler"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/redact"
	"github.com/handoff-cli/handoff/transcript"
)

// session returns the path of a generated session of agent holding mb
// MB, writing it with bench/realgen when it is missing.
func session(b *testing.B, agent string, mb int) string {
	b.Helper()
	out := filepath.Join("..", "out", fmt.Sprintf("real-%s-%dMB.jsonl", agent, mb))
	if st, err := os.Stat(out); err == nil && st.Size() > 0 {
		return out
	}
	src := filepath.Join("..", "..", "..", "shared", "transcripts", agent)
	if _, err := os.Stat(src); err != nil {
		b.Skipf("no shared %s transcripts at %s", agent, src)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		b.Fatal(err)
	}
	gen := exec.Command("go", "run", "../realgen", "-src", src, "-size", strconv.Itoa(mb<<20), out)
	if msg, err := gen.CombinedOutput(); err != nil {
		b.Fatalf("realgen %s %d MB: %v\n%s", agent, mb, err, msg)
	}
	return out
}

func sizes() []int {
	var out []int
	for _, f := range strings.Fields(os.Getenv("STAGE_SIZES")) {
		if n, err := strconv.Atoi(f); err == nil && n > 0 {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		out = []int{1, 10}
	}
	return out
}

// BenchmarkStages times each stage of compile --no-store --no-git on
// real-content Claude Code and Codex sessions. Each stage starts from the
// output of the ones before it, made outside the timer; ms/MB is the
// stage's time per MB of the file.
func BenchmarkStages(b *testing.B) {
	ctx := context.Background()
	counter, err := capacity.NewCounter(capacity.O200kBase)
	if err != nil {
		b.Fatal(err)
	}
	ex := extractor.NewHeuristic(nil)
	for _, agent := range []string{"claude-code", "codex"} {
		for _, mb := range sizes() {
			path := session(b, agent, mb)
			st, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			fileMB := float64(st.Size()) / (1 << 20)
			parse := func() *handoff.Transcript {
				t, err := transcript.ParseFile(ctx, path, transcript.Options{})
				if err != nil {
					b.Fatal(err)
				}
				return t
			}
			// stage runs a stage n times, each on fresh input from prep.
			stage := func(name string, prep func() any, run func(any)) {
				b.Run(fmt.Sprintf("%s/%dMB/%s", agent, mb, name), func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						b.StopTimer()
						in := prep()
						b.StartTimer()
						run(in)
					}
					b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N)/fileMB, "ms/MB")
				})
			}
			none := func() any { return nil }
			stage("parse", none, func(any) { parse() })
			stage("redact", func() any { return parse() }, func(t any) { redact.Transcript(t.(*handoff.Transcript)) })
			redacted := func() any { t := parse(); redact.Transcript(t); return t }
			stage("measure", redacted, func(t any) { capacity.Measure(t.(*handoff.Transcript), counter, capacity.MeasureOptions{}) })
			stage("extract", redacted, func(t any) {
				if _, err := extractor.BuildWith(ctx, t.(*handoff.Transcript), ex, extractor.Options{}); err != nil {
					b.Fatal(err)
				}
			})
			snapshot := func() any {
				t := redacted().(*handoff.Transcript)
				snap, err := extractor.BuildWith(ctx, t, ex, extractor.Options{})
				if err != nil {
					b.Fatal(err)
				}
				return snap
			}
			stage("render", snapshot, func(s any) {
				if _, err := compiler.Compile(s.(*handoff.Snapshot), compiler.Options{Budget: 2000, Counter: counter}); err != nil {
					b.Fatal(err)
				}
			})
		}
	}
}

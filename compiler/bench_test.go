package compiler

import (
	"fmt"
	"testing"

	"github.com/handoff-cli/handoff"
)

// BenchmarkCompileHuge measures the budget search on a snapshot far over
// the budget (500 decisions, 300 errors, 10 KB strings) at the default
// budget. Compare with BenchmarkCompileFits, measured in the same run.
func BenchmarkCompileHuge(b *testing.B) {
	s, c := hugeSnapshot(), realCounter(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Compile(s, Options{Budget: 2000, Counter: c}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileHugeSmall is BenchmarkCompileHuge at 500 tokens, where
// the pieces are ordered by rank and novelty (noveltyOrder): compare the
// two, measured in the same run.
func BenchmarkCompileHugeSmall(b *testing.B) {
	s, c := hugeSnapshot(), realCounter(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Compile(s, Options{Budget: 500, Counter: c}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileFits is the baseline: a realistic snapshot that fits
// at once, one render and one count.
func BenchmarkCompileFits(b *testing.B) {
	s, c := rateLimitSnapshot(), realCounter(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Compile(s, Options{Budget: 2000, Counter: c}); err != nil {
			b.Fatal(err)
		}
	}
}

// manyRequestsSnapshot is a long session of the person's short messages,
// each different ("step N: build it"), as a scripted harness writes them.
func manyRequestsSnapshot(n int) *handoff.Snapshot {
	s := rateLimitSnapshot()
	s.Requests = nil
	for i := range n {
		s.Requests = append(s.Requests, handoff.Request{Text: fmt.Sprintf("step %d: build it and run the checks for module %d", i, i%97),
			Source: handoff.MessageRef{Index: 2 * i}})
	}
	return s
}

// BenchmarkCompileManyRequests compiles sessions of 1,000 and 8,000
// requests: the cost per compile must not grow with the square of the
// requests (it did, through pairwise near-duplicate checks). Compare the
// two sizes in one run.
func BenchmarkCompileManyRequests(b *testing.B) {
	c := realCounter(b)
	for _, n := range []int{1000, 8000} {
		s := manyRequestsSnapshot(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Compile(s, Options{Budget: 2000, Counter: c}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

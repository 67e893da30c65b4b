package compiler

import "testing"

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

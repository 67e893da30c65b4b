package conversation

import "testing"

// TestFindingLineScoreBound checks the bound earlierFindings stops on: no
// line scores more than maxFindingScore, and a line with a verdict, a
// name and a figure scores exactly that.
func TestFindingLineScoreBound(t *testing.T) {
	for _, c := range []struct {
		line string
		want int
	}{
		{"`parser.go` now passes all 25 tests", maxFindingScore},
		{"Fixed `renderQueue` in LibraryPaths: 3 → 4 workers, 120 ms faster", maxFindingScore},
		{"The build takes 25 seconds", -1},
		{"Just some narration here", 0},
	} {
		_, got, _ := findingLine(c.line)
		if got > maxFindingScore || (c.want >= 0 && got != c.want) {
			t.Errorf("findingLine(%q) scores %d, want %d (at most %d)", c.line, got, c.want, maxFindingScore)
		}
	}
}

// FuzzFindingLineScore checks the bound on any line.
func FuzzFindingLineScore(f *testing.F) {
	f.Add("`parser.go` now passes all 25 tests")
	f.Add("Fixed `renderQueue`: 3 → 4 workers")
	f.Fuzz(func(t *testing.T, line string) {
		if _, got, _ := findingLine(line); got > maxFindingScore {
			t.Fatalf("findingLine(%q) scores %d > %d", line, got, maxFindingScore)
		}
	})
}

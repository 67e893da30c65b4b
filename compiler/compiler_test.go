package compiler

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/handoff-cli/handoff"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// checkGolden compares got with testdata/name.golden, rewriting it with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run go test -update): %v", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s (run go test -update to accept):\n--- got ---\n%s\n--- want ---\n%s", name, path, got, want)
	}
}

func TestGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		budget int
	}{
		{"ratelimit", 2000},
		{"ratelimit_budget300", 300},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, err := Compile(rateLimitSnapshot(), Options{Budget: tc.budget, Counter: testCounter(t)})
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tc.name, res.Prompt)
			t.Logf("tokens %d/%d dropped %v truncated %v", res.Tokens, res.Budget, res.Dropped, res.Truncated)
		})
	}
}

func TestGoldenLayouts(t *testing.T) {
	t.Parallel()
	unsaved := rateLimitSnapshot()
	unsaved.ID = ""
	unavailable := rateLimitSnapshot()
	unavailable.GitState = &handoff.GitState{Available: false, Note: "not a git repository"}
	unavailable.TestState = nil
	tests := []struct {
		name   string
		snap   *handoff.Snapshot
		budget int
	}{
		{"empty", emptySnapshot(), 2000},
		{"unsaved", unsaved, 2000},
		{"git_unavailable_no_tests", unavailable, 2000},
		{"huge_2000", hugeSnapshot(), 2000},
		{"huge_200", hugeSnapshot(), 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, err := Compile(tc.snap, Options{Budget: tc.budget, Counter: testCounter(t)})
			if err != nil {
				t.Fatal(err)
			}
			if res.Tokens > tc.budget {
				t.Fatalf("tokens %d over budget %d", res.Tokens, tc.budget)
			}
			checkGolden(t, tc.name, res.Prompt)
		})
	}
}

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/handoff-cli/handoff/eval"
)

// promptTokensRe reads the prompt's size from compile's status line.
var promptTokensRe = regexp.MustCompile(`prompt (\d+)/(\d+) tokens`)

// TestNeverBelowTail holds the resume prompt to the bar on every
// labelled session and on the held-out synthetic ones: at 500, 1000 and 2000
// tokens its fact coverage is never below that of the raw transcript's
// last budget×4 characters, it leaks nothing the answer key forbids, it
// stays within the budget, and it uses at least 85% of the budget
// whenever it had to leave something out. The shared sets are skipped
// when ../shared is absent; the held-out synthetic set always runs.
//
// The coverage comparison is enforced on the shared and synthetic sets.
// On the held-out real set (eval/heldout/labels-real) it is logged only:
// those files are schema fixtures trimmed to a few lines, whose facts sit
// mostly in tool output, which the prompt deliberately never quotes (it
// is where injected instructions live). Leaks, the budget and its use
// are enforced on every set.
func TestNeverBelowTail(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("compiles every labelled session three times")
	}
	if raceEnabled {
		t.Skip("no concurrency to check, and slow under -race: .ci/run runs it without -race")
	}
	db := filepath.Join(t.TempDir(), "unused.db")
	for _, set := range eval.Sets("../..") {
		labels, err := set.Load()
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range labels {
			t.Run(set.Name+"/"+l.Name, func(t *testing.T) {
				t.Parallel()
				raw, err := os.ReadFile(l.Transcript)
				if err != nil {
					t.Fatal(err)
				}
				for _, budget := range []int{500, 1000, 2000} {
					// On standard input, as the scorer of ../shared/eval runs it.
					r := runCLI(t, db, string(raw), "compile", "--no-store", "--no-git", "--budget", strconv.Itoa(budget))
					if r.err != nil {
						t.Fatalf("budget %d: %v\n%s", budget, r.err, r.stderr)
					}
					got := eval.Score(r.stdout, l)
					tail, err := eval.TailScore(l, budget)
					if err != nil {
						t.Fatal(err)
					}
					if got.Coverage < tail.Coverage && set.Name == "heldout-real" {
						t.Logf("budget %d: coverage %.3f below the tail's %.3f (missing %v; not enforced: trimmed fixtures)", budget, got.Coverage, tail.Coverage, got.Missing)
					} else if got.Coverage < tail.Coverage {
						t.Errorf("budget %d: coverage %.3f below the tail's %.3f (missing %v)", budget, got.Coverage, tail.Coverage, got.Missing)
					}
					if len(got.Leaks) > 0 {
						t.Errorf("budget %d: leaked %q", budget, got.Leaks)
					}
					used, limit, ok := promptTokens(r.stderr)
					if !ok {
						t.Fatalf("budget %d: no prompt size on stderr:\n%s", budget, r.stderr)
					}
					if used > limit || limit != budget {
						t.Errorf("budget %d: prompt of %d tokens (limit %d)", budget, used, limit)
					}
					// The session holds more than was shown: the budget is used.
					// The compiler fits to the larger of the tokenizer's count
					// and one token per four characters, so the fill is judged
					// by the same measure.
					fill := max(used, (utf8.RuneCountInString(r.stdout)+3)/4)
					if strings.Contains(r.stderr, "budget cut:") && float64(fill) < 0.85*float64(budget) {
						t.Errorf("budget %d: prompt uses only %d tokens, though it cut: %s", budget, used, r.stderr)
					}
				}
			})
		}
	}
}

func promptTokens(stderr string) (used, limit int, ok bool) {
	m := promptTokensRe.FindStringSubmatch(stderr)
	if m == nil {
		return 0, 0, false
	}
	if _, err := fmt.Sscan(m[1], &used); err != nil {
		return 0, 0, false
	}
	if _, err := fmt.Sscan(m[2], &limit); err != nil {
		return 0, 0, false
	}
	return used, limit, true
}

package facts

import (
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestCheckFailureWords: a check whose output says in words that it
// failed is failing, whatever its exit status, with that line as its
// headline; a count of zero, a pass line or a tool's own error line are
// read as before.
func TestCheckFailureWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, out   string
		fail, trail bool
		want        handoff.TestStatus
		summary     string
	}{
		{"health state after a build chain", "[+] Building 12.4s (15/15) FINISHED\n3c0ffee5d1a2\nunhealthy\nnode\n", false, true, handoff.TestsFailing, "unhealthy"},
		{"home-made runner summary", "Tests run: 10\n❌ 5 test(s) failed\nBackend summary: SOME FAILED\n❌ 5 TEST(S) FAILED\nPlease review the output above.\n", true, false, handoff.TestsFailing, "❌ 5 TEST(S) FAILED"},
		{"cross-marked line", "checking links\n✗ docs/index.md: 2 broken links\ndone\n", false, false, handoff.TestsFailing, "✗ docs/index.md: 2 broken links"},
		{"zero failed", "Built target app\n0 tests failed\n", false, false, handoff.TestsPassing, "Built target app"},
		{"healthy", "[+] Building 3.1s FINISHED\nhealthy\n", false, true, handoff.TestsPassing, ""},
		{"tool error line first", "src/a.c:3:1: error: expected ';'\n1 check failed\n", true, false, handoff.TestsFailing, "src/a.c:3:1: error: expected ';'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			st, sum := CheckOutcome(handoff.ToolResult{Content: tt.out, IsError: tt.fail}, tt.fail, tt.trail)
			if st != tt.want || sum != tt.summary {
				t.Errorf("checkOutcome = %s %q, want %s %q", st, sum, tt.want, tt.summary)
			}
		})
	}
}

// TestFailedRunSummary: a failed test run whose output no test parser
// knows is headed by the line that says it failed; a passing run or one
// with a parsed summary keeps its own.
func TestFailedRunSummary(t *testing.T) {
	t.Parallel()
	out := "=== Test Summary ===\nTests run:    10\nTests failed: 5\nFINAL TEST SUMMARY\n❌ 5 TEST(S) FAILED\nPlease review the test output above for details.\n"
	tests := []struct {
		name, summary, out string
		fail               bool
		want               string
	}{
		{"failed, no parsed summary", "", out, true, "❌ 5 TEST(S) FAILED"},
		{"parsed summary kept", "1 failed, 41 passed", out, true, "1 failed, 41 passed"},
		{"passing run untouched", "", out, false, ""},
		{"failed, no words", "", "Segmentation fault\n", true, ""},
	}
	for _, tt := range tests {
		if got := failedRunSummary(tt.summary, tt.out, tt.fail); got != tt.want {
			t.Errorf("%s: failedRunSummary = %q, want %q", tt.name, got, tt.want)
		}
	}
	ts := TestState("./tests/unified_tests", handoff.ToolResult{Content: out, IsError: true}, true, handoff.Message{})
	if ts.Status != handoff.TestsFailing || ts.Summary != "❌ 5 TEST(S) FAILED" {
		t.Errorf("testState = %s %q, want failing with the FAILED line", ts.Status, ts.Summary)
	}
}

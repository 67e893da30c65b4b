package conversation

import "testing"

func TestWithoutCourtesy(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"an exclamation", "Perfect! The fix worked.", "The fix worked."},
		{"an acknowledgement", "You're absolutely right! I violated TDD discipline.", "I violated TDD discipline."},
		{"several", "Ah, I see! Great catch. The mock ignores the path.", "The mock ignores the path."},
		{"an apology", "I understand. My apologies for the persistent errors in capturing the details.\n\nThe table now lists ZSTATE 3.", "The table now lists ZSTATE 3."},
		{"thanks", "Thanks for the logs! The crash is in the parser.", "The crash is in the parser."},
		{"an apology that goes on", "Sorry, the build still fails on arm64.", "Sorry, the build still fails on arm64."},
		{"a heading line", "Excellent!\n## Summary\nAll 12 tests pass.", "## Summary\nAll 12 tests pass."},
		{"nothing but courtesy", "Perfect!", "Perfect!"},
		{"content first", "Now I see the real problem! The tests mock the path.", "Now I see the real problem! The tests mock the path."},
		{"a question", "Right? The cache is cold.", "Right? The cache is cold."},
		{"a lead-in", "Good news: the suite passes.", "Good news: the suite passes."},
		{"a sentence of content with a courtesy word", "Great progress on the importer. It reads 3 formats.", "Great progress on the importer. It reads 3 formats."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := withoutCourtesy(tc.in); got != tc.want {
				t.Errorf("withoutCourtesy(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

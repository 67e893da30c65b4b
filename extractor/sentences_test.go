package extractor

import (
	"testing"

	"github.com/handoff-cli/handoff/extractor/facts"
)

func TestFirstSentenceSkipsLayout(t *testing.T) {
	tests := []struct{ text, want string }{
		{"\\---\n\n**Checkpoint created**\n\n| Info | Value |\n|---|---|\n| **Commit** | `f0c3276` |\n\n**Recovery:** `/recover`\n\nDone: checkpoint created and ninety-four files committed.", "Done: checkpoint created and ninety-four files committed."},
		{"## Summary\n\nI fixed the limiter and all tests pass now.", "I fixed the limiter and all tests pass now."},
		{"Yes. I ran them and they pass on every platform.", "Yes. I ran them and they pass on every platform."},
	}
	for _, tt := range tests {
		if got := facts.FirstSentence(tt.text); got != tt.want {
			t.Errorf("firstSentence(%q)\n got %q\nwant %q", tt.text, got, tt.want)
		}
	}
}

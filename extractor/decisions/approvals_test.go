package decisions

import (
	"strings"
	"testing"
)

func TestProposalNamesWhatABareQuestionProposes(t *testing.T) {
	tests := []struct{ name, text, want, not string }{
		{
			name: "a list opened by an introducing line above the question",
			text: "Two rules keep failing.\n\nRemove the rules that rewrite files:\n- trim-spaces\n- fix-newlines\n\nThis keeps the checks.\n\nWant me to make this change?",
			want: "Remove the rules that rewrite files: - trim-spaces - fix-newlines This keeps the checks. Want me to make this change?",
		},
		{
			name: "no introducing line: the paragraph just above",
			text: "The cache is stale.\n\nClearing it on start fixes this.\n\nShould I do that?",
			want: "Clearing it on start fixes this. Should I do that?",
		},
		{
			name: "a long proposal line stands alone",
			text: "Background.\n\nI propose we move the importer to a streaming parser so memory stays flat on big files.",
			want: "I propose we move the importer to a streaming parser so memory stays flat on big files.",
			not:  "Background",
		},
		{
			name: "a short proposal sentence is no interjection",
			text: "Use pgx. Want me to do that?",
			want: "Use pgx. Want me to do that?",
		},
		{
			name: "an offer to show chooses nothing",
			text: "Now that the README is done, we have:\n\n1. CI - partly done\n2. Code changes - uncommitted\n\nShould I show you the uncommitted code changes?",
			want: "",
		},
		{
			name: "an offer to look is no proposal in any wording",
			text: "The build is red again.\n\nWant me to check the logs first?",
			want: "",
		},
		{
			name: "a proposal beside an offer still proposes",
			text: "I recommend switching the importer to pgx. Want me to show you the diff?",
			want: "I recommend switching the importer to pgx. Want me to show you the diff?",
		},
		{
			name: "a list spaced with blank lines is still close",
			text: "Perfect! Here are the batches:\n\nBatch 1: docs\n\n- a.md\n\n- b.md\n\nBatch 2: code\n\n- c.go\n\n- d.go\n\n- e.go\n\nShould I proceed with Batch 1 first?",
			want: "Here are the batches: Batch 1: docs - a.md - b.md Batch 2: code - c.go - d.go - e.go Should I proceed with Batch 1 first?",
		},
		{
			name: "one item of a list opened out of reach is not the proposal",
			text: "Files:\n" + strings.Repeat("- some/file.go\n", 20) + "- last/file.go\n\nShould I proceed with the first half?",
			want: "Should I proceed with the first half?",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := proposal(tt.text)
			if got != tt.want || (tt.not != "" && strings.Contains(got, tt.not)) {
				t.Errorf("proposal:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

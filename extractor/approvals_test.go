package extractor

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

package compiler

import (
	"strings"
	"testing"
)

func TestDataRendering(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, got, want string
	}{
		{"block quote escapes structure at line starts",
			blockQuote("Done.\n## Next step\n```\n---\n<system>\n> nested", 500),
			"> Done.\n> \\## Next step\n> \\```\n> \\---\n> \\<system>\n> \\> nested"},
		{"block quote folds blank-line runs", blockQuote("a\n\n\n\nb", 100), "> a\n>\n> b"},
		{"inline is one line", inline("first line\nsecond line", 100), "first line ⏎ second line"},
		{"quoted straightens inner curly quotes", quoted("say “hi” now", 100), "“say \"hi\" now”"},
		{"code span outgrows inner backticks", code("echo `date`", 100), "`` echo `date` ``"},
		{"plain code span", code("go test ./...", 100), "`go test ./...`"},
		{"clip at a sentence", clipText("One sentence here. Two sentences here. Three sentences here.", 45), "One sentence here. Two sentences here. …"},
		{"clip at a word", clipText("alpha beta gamma delta epsilon", 20), "alpha beta gamma …"},
		{"control and bidi characters dropped", inline("a\u202eb\x07c", 10), "abc"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.name, tc.got, tc.want)
		}
	}
}

func TestNoteBlocks(t *testing.T) {
	t.Parallel()
	blocks := noteBlocks("## Decisions\n- use dlopen\n**Next steps:**\n- port the AST\nloose line")
	if len(blocks) != 2 || blocks[0].heading != "Decisions" || !strings.Contains(blocks[1].body, "loose line") || blocks[1].heading != "Next steps" {
		t.Errorf("noteBlocks = %+v", blocks)
	}
}

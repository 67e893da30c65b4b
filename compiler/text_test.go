package compiler

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestDataRendering(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, got, want string
	}{
		{"block quote drops heading marks and fences, escapes other structure at line starts",
			blockQuote("Done.\n## Next step\n#include <x.h>\n```\n``` x\n--- a\n<system>\n> nested", 500),
			"> Done.\n> Next step\n> \\#include <x.h>\n> \\``` x\n> \\--- a\n> \\<system>\n> \\> nested"},
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

// TestClippedLineMatchesWholeText checks clippedLine's shortcut (render a
// long text from a head of it) against rendering the whole text, on
// random texts built from the characters that the rendering treats
// specially: line breaks, whitespace runs, ⏎ already in the text, curly
// quotes, control and bidi characters, invalid UTF-8, multi-byte runes.
func TestClippedLineMatchesWholeText(t *testing.T) {
	t.Parallel()
	parts := []string{"word", "a", " ", "  ", "\n", "\n\n", "\t", "\r\n", "⏎", " ⏎ ", "“", "”", "\x07", "\u202e",
		"\xff", "\xe2\x8f", "日本語", "é", ". ", "? ", "; ", "`", "\v", "\u00a0", "\u2003"}
	rng := rand.New(rand.NewPCG(12, 2026))
	for i := range 600 {
		var b strings.Builder
		n := rng.IntN(3000)
		for b.Len() < n {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := b.String()
		limit := []int{1, 2, 10, 40, 120, 300}[i%6]
		for _, collapse := range []bool{true, false} {
			for _, pre := range []func(string) string{nil, straightQuotes} {
				whole := s
				if pre != nil {
					whole = pre(s)
				}
				want := clipText(oneLine(whole, collapse), limit)
				if got := clippedLine(s, limit, collapse, pre); got != want {
					t.Fatalf("limit %d collapse %v on %q:\ngot  %q\nwant %q", limit, collapse, s, got, want)
				}
			}
		}
	}
}

func TestKilo(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0", 950: "950", 1000: "1k", 1561: "1.56k", 82624: "82.6k", 116007: "116k", 200000: "200k", 1048576: "1.05M", 2_000_000: "2M"} {
		if got := kilo(n); got != want {
			t.Errorf("kilo(%d) = %q, want %q", n, got, want)
		}
	}
}

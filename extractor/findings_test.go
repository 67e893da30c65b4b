package extractor

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

// TestFindingLike: a line of an earlier report is a finding when it
// states a result that can still hold (a verdict, a change made, a
// figure); a next step, a problem, a guess, a question, a plan step or
// the middle of a wrapped sentence is not.
func TestFindingLike(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"`parser.go` compiles cleanly", true},
		{"Removed the hard-coded user names from `library.py`", true},
		{"Driver: ✅ Version 575.64.03 installed", true},
		{"Reduced `cli.py` from 142 to 131 lines", true},
		{"Next: wire `parser.go` into the CLI", false},
		{"❌ `three.c` fails: 12 errors", false},
		{"`vsla_copy` calls in autograd need to be fixed", false},
		{"Could it be that `main.ts` caches the value?", false},
		{"I’m narrowing on places where `offset_of` can move", false},
		{"Verify that `goreleaser` builds from the repo root", false},
		{"[PR] Create PR: build the description in `pr.md`", false},
		{"[ ] Schema coverage of `index.ts` is complete", false},
		{"and the `foo.c` build passes too", false},
		{"The file we are interested in is `handler.py`", false}, // a name alone
	} {
		if got := conversation.FindingLike(tc.line); got != tc.want {
			t.Errorf("findingLike(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

// TestLineNames: names are files (base name), identifiers, a leading
// label and the units of figures, so a later line about the same thing
// can replace an older one.
func TestLineNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"`src/a.c` builds", []string{"a.c"}},
		{"Driver: ✅ 575.64.03", []string{"label:driver"}},
		{"Reduced code to 126 lines", []string{"unit:line"}},
		{"LibraryPaths dataclass reverted", []string{"librarypaths"}},
	} {
		got := strings.Join(conversation.LineNames(tc.line), ",")
		for _, w := range tc.want {
			if !strings.Contains(","+got+",", ","+w+",") {
				t.Errorf("lineNames(%q) = %q, want it to hold %q", tc.line, got, w)
			}
		}
	}
}

// TestEarlierFindings: the reports before the last three give findings,
// newest first and with negated scores; a line a later report replaces
// (same file, label or unit; within one report, a unit's last figure
// replaces those above it), a problem, a next step and a line the last
// message shows are left out, and an old report needs a stronger line.
func TestEarlierFindings(t *testing.T) {
	t.Parallel()
	pad := strings.Repeat("Some narration about the work that carries nothing a successor needs. ", 6)
	c := sessiontest.NewConvo(t)
	c.User("port the parser and measure it")
	c.Say("Lexer journey.\n- ✅ Removed the tables: 142 bytes\n- ✅ Inlined the states: 126 bytes\n" + pad)
	c.Say("Status.\n- Added `lexer.go` with 40 token kinds\n- `scanner.go` compiles\n" + pad)
	c.Say("Status.\n- ❌ `ast.go` fails: 3 errors\n- Next: port `eval.go`\n- `scanner.go` now fails to link\n- Reduced `parser.go` to 310 lines\n" + pad)
	c.Say("Status.\n- ✅ `printer.go` verified against 12 golden files\n- ✅ Parser total: 280 lines\n" + pad)
	for i := range 3 {
		c.Say("Report " + string(rune('A'+i)) + ".\n- `other" + string(rune('a'+i)) + ".go` builds\n" + pad)
	}
	c.Say("Done: `scanner.go` was rewritten.")
	_, found := conversation.KeyLines(c.Msgs, len(c.Msgs)-1, handoff.MessageRef{})
	var earlier []string
	for _, k := range found {
		earlier = append(earlier, k.Text)
	}
	all := strings.Join(earlier, "\n")
	for _, want := range []string{"`printer.go` verified", "Added `lexer.go`", "280 lines", "126 bytes"} {
		if !strings.Contains(all, want) {
			t.Errorf("earlier findings lack %q:\n%s", want, all)
		}
	}
	for _, not := range []string{"`ast.go`", "eval.go", "scanner.go", "310 lines", "142 bytes", "`other"} {
		if strings.Contains(all, not) {
			t.Errorf("earlier findings hold %q (a problem, a next step, a line replaced later or a line of the last reports):\n%s", not, all)
		}
	}
	if len(earlier) > 0 && !strings.Contains(earlier[0], "printer.go") {
		t.Errorf("first finding = %q, want the newest report's", earlier[0])
	}
}

// TestEarlierFindingsReal: on real sessions, an early status table's
// versions come through as findings, and a refactoring journey's
// intermediate line count ("131 lines") does not, only its result.
func TestEarlierFindingsReal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file      string
		want, not []string
	}{
		{"claude-code/vsla-069508a5-summaries-64lines.jsonl", []string{"575.64.03", "13.3.0"}, []string{"Not installed"}},
		{"claude-code-console/bookminder-day-010.txt", nil, []string{"131 lines", "142 to 131"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var main []handoff.Message
			for _, m := range realMessages(t, tc.file) {
				if !m.Sidechain {
					main = append(main, m)
				}
			}
			last := len(main) - 1
			for last > 0 && (main[last].Role != handoff.RoleAssistant || strings.TrimSpace(main[last].Text) == "") {
				last--
			}
			var earlier []string
			_, found := conversation.KeyLines(main, last, handoff.MessageRef{})
			for _, k := range found {
				earlier = append(earlier, k.Text)
			}
			all := strings.Join(earlier, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("%s: earlier findings lack %q:\n%s", tc.file, w, all)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(all, n) {
					t.Errorf("%s: earlier findings hold %q:\n%s", tc.file, n, all)
				}
			}
		})
	}
}

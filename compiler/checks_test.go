package compiler

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// testsSection runs tests() alone and returns its pieces' short texts in
// order, with their ranks.
func testsSection(s *handoff.Snapshot) ([]string, []int) {
	b := &builder{}
	b.tests(s)
	var texts []string
	var ranks []int
	for _, p := range b.pieces {
		texts = append(texts, p.text+p.tail)
		ranks = append(ranks, p.rank)
	}
	return texts, ranks
}

func TestTestsSectionWithChecks(t *testing.T) {
	build := handoff.CheckState{Command: "npm run build", Kind: "build", Status: handoff.TestsPassing, Summary: "✓ Compiled successfully", Source: handoff.MessageRef{Index: 9}}
	broken := handoff.CheckState{Command: "npx tsc --noEmit", Kind: "type check", Status: handoff.TestsFailing, Summary: "src/a.ts(1,1): error TS2304: Cannot find name 'x'.", Failures: 3, PassedBefore: true, Source: handoff.MessageRef{Index: 11}}
	older := handoff.CheckState{Command: "npx tsc --noEmit", Kind: "type check", Status: handoff.TestsFailing, Summary: "src/a.ts(1,1): error TS2304: Cannot find name 'x'.", Failures: 3, PassedBefore: true, Source: handoff.MessageRef{Index: 5}}
	code := []handoff.FileChange{{Path: "src/a.ts", Edits: 2}, {Path: "README.md", Edits: 1}}
	docs := []handoff.FileChange{{Path: "docs/guide.md", Edits: 2}, {Path: "paper/intro.tex", Edits: 1}}
	cases := []struct {
		name    string
		s       handoff.Snapshot
		want    []string
		notWant []string
	}{
		{"nothing ran, nothing changed", handoff.Snapshot{}, []string{"No file edits were seen (no code changed by an edit tool), and no tests and no build were run"}, []string{"`"}},
		{"a prose-only transcript: no calls recorded", handoff.Snapshot{EndState: &handoff.EndState{LastAssistant: "Build verified: `npm run build` passes."}},
			[]string{"The transcript records no tool calls, so what was edited, built or tested is known only from what the messages say."}, []string{"no tests and no build were run"}},
		{"a prose-only transcript whose reports name changed files", handoff.Snapshot{EndState: &handoff.EndState{LastAssistant: "Build verified.",
			ReportedFiles: []string{"a.js", "b.js", "c.js", "d.js", "e.js", "f.js", "g.js"}}},
			[]string{"known only from what the messages say; they name as changed `g.js`, `f.js`, `e.js`, `d.js`, `c.js`, `b.js`, 1 more."}, []string{"`a.js`"}},
		{"a prose-only transcript whose messages state results", handoff.Snapshot{EndState: &handoff.EndState{LastAssistant: "Build verified.",
			ReportedChecks: []string{"The build passes again.", "`scripts/regression.js` → 65/65 PASS"}}},
			[]string{"- a result the messages state: “The build passes again.”", "- a result the messages state: “`scripts/regression.js` → 65/65 PASS”"}, nil},
		{"stated results are not read beside recorded calls", handoff.Snapshot{Usage: handoff.Usage{ToolCalls: 2}, EndState: &handoff.EndState{LastAssistant: "Build verified.",
			ReportedChecks: []string{"The build passes again."}}},
			nil, []string{"a result the messages state"}},
		{"a session with calls that ran nothing", handoff.Snapshot{Usage: handoff.Usage{ToolCalls: 3}, EndState: &handoff.EndState{LastAssistant: "Here is the answer."}},
			[]string{"no tests and no build were run"}, []string{"records no tool calls"}},
		{"only a build ran", handoff.Snapshot{Checks: []handoff.CheckState{build}},
			[]string{"no tests were run, but the build `npm run build` passes (“✓ Compiled successfully”)"}, []string{"no build"}},
		{"code changed, one failing check", handoff.Snapshot{FilesModified: code, Checks: []handoff.CheckState{broken}},
			[]string{"the changes to 2 files are untested, and the type check `npx tsc --noEmit` fails: “src/a.ts(1,1): error TS2304"}, nil},
		{"several checks, the newest in the sentence", handoff.Snapshot{FilesModified: code, Checks: []handoff.CheckState{build, broken}},
			[]string{"untested, and the type check `npx tsc --noEmit` fails: “src/a.ts", "Earlier checks:", "- Build `npm run build`: passing"}, nil},
		{"only documents changed", handoff.Snapshot{FilesModified: docs},
			[]string{"Only documents were changed (`intro.tex`, `guide.md`); no code changed and no tests were run."}, []string{"untested"}},
		{"documents and the agent's own memory", handoff.Snapshot{FilesModified: append([]handoff.FileChange{{Path: "/home/u/.claude/projects/x/memory/MEMORY.md"}, {Path: "/home/u/.claude/projects/-Us"}}, docs...)},
			[]string{"Only documents were changed (`intro.tex`, `guide.md`); no code changed"}, []string{"MEMORY"}},
		{"documents and code", handoff.Snapshot{FilesModified: append([]handoff.FileChange{{Path: "main.go"}}, docs...)},
			[]string{"the changes to 3 files are untested"}, []string{"Only documents"}},
		{"documents and a build", handoff.Snapshot{FilesModified: docs, Checks: []handoff.CheckState{{Command: "pdflatex paper.tex", Kind: "build", Status: handoff.TestsPassing, Summary: "Output written on paper.pdf (25 pages, 10 bytes).", EditsAfter: 1}}},
			[]string{"Only documents were changed", "but the build `pdflatex paper.tex` passes (“Output written on paper.pdf (25 pages", "(before 1 later file edit)"}, nil},
		{"an unclear build", handoff.Snapshot{Checks: []handoff.CheckState{{Command: "pdflatex paper.tex", Kind: "build", Status: handoff.TestsUnknown, Summary: "Output written on paper.pdf (25 pages)."}}},
			[]string{"no tests were run, and the build `pdflatex paper.tex` exited non-zero after printing “Output written on paper.pdf (25 pages).” (outcome unclear)."}, nil},
		{"tests ran and a build", handoff.Snapshot{TestState: &handoff.TestState{Command: "npm test", Status: handoff.TestsPassing}, Checks: []handoff.CheckState{build}},
			[]string{"Last test run `npm test`: passing.", "- Build `npm run build`: passing"}, []string{"no tests"}},
		{"an older failing check listed", handoff.Snapshot{TestState: &handoff.TestState{Command: "npm test", Status: handoff.TestsPassing}, Checks: []handoff.CheckState{older, build}},
			[]string{"- Build `npm run build`: passing", "- Type check `npx tsc --noEmit`: failing (3 runs in a row; it passed earlier): “src/a.ts"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			texts, _ := testsSection(&tc.s)
			all := strings.Join(texts, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("tests section lacks %q:\n%s", w, all)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(all, w) {
					t.Errorf("tests section has %q:\n%s", w, all)
				}
			}
		})
	}
}

// TestCheckFailureShownOnce: a failing check whose run is an open error
// points to Open errors instead of quoting the same output again, and
// never outranks that error (so it cannot survive the budget without it).
func TestCheckFailureShownOnce(t *testing.T) {
	s := &handoff.Snapshot{
		Errors: []handoff.ErrorRecord{
			{ID: "e2", Type: "command_failed", Command: "ls nope", Message: "No such file", Resolution: handoff.ResolutionUnresolved, Source: handoff.MessageRef{Index: 20}},
			{ID: "e3", Type: "command_failed", Command: "cat nope", Message: "No such file", Resolution: handoff.ResolutionUnresolved, Source: handoff.MessageRef{Index: 21}},
			{ID: "e1", Type: "build_error", Command: "make", Message: "main.c:3: error: boom", Resolution: handoff.ResolutionUnresolved, Source: handoff.MessageRef{Index: 10}},
		},
		TestState: &handoff.TestState{Command: "make test", Status: handoff.TestsPassing, Source: handoff.MessageRef{Index: 2}},
		Checks:    []handoff.CheckState{{Command: "make", Kind: "build", Status: handoff.TestsFailing, Summary: "main.c:3: error: boom", Source: handoff.MessageRef{Index: 10}}},
	}
	texts, ranks := testsSection(s)
	var line string
	var rank int
	for i, tx := range texts {
		if strings.HasPrefix(tx, "- Build") {
			line, rank = tx, ranks[i]
			break
		}
	}
	if !strings.Contains(line, "see Open errors") || strings.Contains(line, "boom") {
		t.Errorf("check line = %q, want a pointer to Open errors, not the output again", line)
	}
	b := &builder{}
	b.errors(s)
	for _, p := range b.pieces {
		if p.kind == "open errors" && strings.Contains(p.text, "`make`") && p.rank >= rank {
			t.Errorf("check line rank %d is not below its error's rank %d", rank, p.rank)
		}
	}
}

func TestUnknownTestRunWording(t *testing.T) {
	texts, _ := testsSection(&handoff.Snapshot{TestState: &handoff.TestState{Command: "make && ./tests/run", Status: handoff.TestsUnknown}})
	if all := strings.Join(texts, "\n"); !strings.Contains(all, "outcome not shown") || !strings.Contains(all, "unverified") {
		t.Errorf("tests section = %q, want the outcome called not shown and unverified", all)
	}
}

// TestEarlierChecksLeadOnlyWithAList checks that the untested line says
// "Earlier checks:" only when one of the earlier checks is shown under it.
func TestEarlierChecksLeadOnlyWithAList(t *testing.T) {
	t.Parallel()
	s := &handoff.Snapshot{
		FilesModified: []handoff.FileChange{{Path: "src/a.ts", Edits: 2}},
		Checks: []handoff.CheckState{
			{Command: "npm run build", Kind: "build", Status: handoff.TestsPassing, Source: handoff.MessageRef{Index: 9}},
			{Command: "npx tsc --noEmit", Kind: "type check", Status: handoff.TestsFailing, Summary: "error TS2304", Source: handoff.MessageRef{Index: 5}},
		},
	}
	b := &builder{}
	b.tests(s)
	c := &compilation{snap: s, pieces: b.pieces}
	for _, withCheck := range []bool{false, true} {
		chosen := make([]bool, len(c.pieces))
		for i, p := range c.pieces {
			chosen[i] = p.kind == "test state" && p.level == 0 || withCheck && p.kind == "checks" && p.level == 0
		}
		body := c.view(chosen).Section("tests")
		if got := strings.Contains(body, "Earlier checks:"); got != withCheck {
			t.Errorf("with an earlier check shown %v: lead-in shown %v:\n%s", withCheck, got, body)
		}
	}
}

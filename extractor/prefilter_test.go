package extractor

import (
	"math/rand/v2"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
)

func TestRequiredLiterals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern string
		want    []prose.GateLiteral // nil: no gate
	}{
		{`error`, []prose.GateLiteral{{Text: "error"}}},
		{`^fatal: |^--- FAIL: |SandboxDenied`, []prose.GateLiteral{{Text: "fatal: "}, {Text: "--- FAIL: "}, {Text: "SandboxDenied"}}},
		{`(?m)^\S+:\d+: (?:fatal )?error:`, []prose.GateLiteral{{Text: "error:"}}},
		// The parser factors the alternatives' common "E" out; the gate
		// spells them out again.
		{`^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception)\b`, []prose.GateLiteral{{Text: "Error"}, {Text: "Exception"}}},
		// Case-folded: lower-cased, cut at k and s, which fold to non-ASCII
		// runes as well.
		{`(?i)no new output`, []prose.GateLiteral{{Text: "no new output", Fold: true}}},
		{`(?i)still running`, []prose.GateLiteral{{Text: "till running", Fold: true}}},
		// A caseless non-ASCII rune stays in the run; a cased one (é, É)
		// cuts it.
		{`(?i)⚠️|abc`, []prose.GateLiteral{{Text: "⚠️", Fold: true}, {Text: "abc", Fold: true}}},
		{`(?i)caféine`, []prose.GateLiteral{{Text: "caf", Fold: true}}},
		// An alternative without a literal of three or more: no gate.
		{`error|^ok\s`, nil},
		{`^\S+\s+[.sxFE]*[FE]`, nil},
		{`(?:abc)?d`, nil},
		{`(?:abc)+d`, []prose.GateLiteral{{Text: "abc"}}},
		{`\.{3,}\s*x`, []prose.GateLiteral{{Text: "..."}}},
		{`(?:ab){2}`, []prose.GateLiteral{{Text: "abab"}}},
		// Length is in bytes: a two-rune mark with a multi-byte rune is
		// rare enough (testFailRe's "✕ " left it ungated).
		{`(?m)^--- FAIL: |✕ `, []prose.GateLiteral{{Text: "--- FAIL: ", LineStart: true}, {Text: "✕ "}}},
		{`é|abc`, nil},
		// After (?m)^ a literal starts a line; in (?i) only when the
		// kept run of letters begins the text.
		{`(?m)^fatal: |x error:`, []prose.GateLiteral{{Text: "fatal: ", LineStart: true}, {Text: "x error:"}}},
		{`^fatal: `, []prose.GateLiteral{{Text: "fatal: "}}},
		{`(?im)^wall time|^stdout`, []prose.GateLiteral{{Text: "wall time", Fold: true, LineStart: true}, {Text: "tdout", Fold: true}}},
		// A run of exact parts is spelled out.
		{`(?i)(?:fa(?:il|tal)|error)`, []prose.GateLiteral{{Text: "fail", Fold: true}, {Text: "fatal", Fold: true}, {Text: "error", Fold: true}}},
	}
	for _, tc := range tests {
		g := prose.Gated(tc.pattern).Gate()
		for i := range g.Lits {
			g.Lits[i].Prefix = false // checked below, with lineStart
		}
		if !slices.Equal(g.Lits, tc.want) {
			t.Errorf("gated(%q).lits = %+v, want %+v", tc.pattern, g.Lits, tc.want)
		}
	}
}

func TestGatedMatchesLikeRegexp(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	// Texts the gates' edge cases turn on: case, the k and s folds,
	// matches at the start, the end and across lines.
	texts := []string{
		"", "ok", "error: x", "ERROR: x", "Error: x", "a.go:3: error: bad", "x\nfatal: no",
		"STILL RUNNING", "ſtill running", "\u212Aeyboard interrupt", "KeyboardInterrupt", "Traceback (most recent call last):",
		"npm ERR! code 1", "--- FAIL: TestX", "ok\n--- FAIL: TestX\nok", "error\nno\nx.go:1: error: y", "a\nb error: c\nerror: d",
		"FAIL\n", "\nFAIL ", "xFAIL\nFAIL\tx", "ValueError\nKeyError: k", "line\r\nfatal: x\r\n",
		"Exit code 1", "x fatal: y\nfatal: z", "Aborted\n(core dumped)", "x Segmentation fault\n\n", "Segmentation fault  \nok",
		"error: x\nAborted (core dumped)", "ERROR\nno\n(core dumped)", "a\n\tBus error \n (core dumped)\n", "xerror: 1\nerror[E1]: 2", "a error: b\n", "[stderr]", "ſtdout:", "```go", "</tool_use_error>", "Chunk ID: 4",
	}
	// And many-line texts whose lines start with, hold mid-line or
	// almost hold the literals of contentFailRe's alternatives, which
	// its gate looks for at line starts in one walk and uses to skip
	// alternatives (regexGate.present).
	fragments := []string{"", "ok", "  ", "fatal: x", "x fatal: y", "FAIL", "FAILED\t1", " FAIL", "error: e", "a.go:1: error: b",
		"error[E1]: c", "xerror: d", "npm ERR! e", "Npm ERR! e", "malloc(): bad", "free(): x", "Segmentation fault", "Aborted",
		"(core dumped)", " Bus error (core dumped)", "command not found", "sh: x: command not found", "Script failed", "--- FAIL: T",
		"ERR_PNPM_X", "corrupted size vs", "Traceback (most recent call last):", "SandboxDenied", "exec_command failed: x"}
	rng := rand.New(rand.NewPCG(3, 2026))
	for range 20000 / raceStride { // every text under -race took 35 s
		ls := make([]string, 1+rng.IntN(6))
		for i := range ls {
			ls[i] = fragments[rng.IntN(len(fragments))]
		}
		texts = append(texts, strings.Join(ls, "\n"))
	}
	heads, lines := corpusTexts(t)
	heads, lines = raceSample(heads), raceSample(lines)
	// Each pattern meets what it reads in the extractor: whole outputs,
	// or single lines of one.
	check := func(name string, g prose.GatedRegexp, corpus []string) {
		for _, s := range append(corpus, texts...) {
			if g.MayMatch(s) && !strings.Contains(s, "\n") {
				continue // MatchString is the regexp's own call
			}
			if got, want := g.MatchString(s), g.Gate().Regexp().MatchString(s); got != want {
				t.Errorf("%s.MatchString(%.80q) = %v, the regexp says %v", name, s, got, want)
			}
		}
	}
	for name, g := range map[string]prose.GatedRegexp{
		"contentFailRe": facts.ContentFailRe, "rejectedRe": facts.RejectedRe, "harnessRe": facts.HarnessRe, "harnessAPIRe": facts.HarnessAPIRe,
		"runningRe": facts.RunningRe, "missingPathRe": facts.MissingPathRe, "buildErrorRe": facts.BuildErrorRe, "exitHeaderRe": facts.ExitHeaderRe,
	} {
		check(name, g, heads)
	}
	for name, g := range map[string]prose.GatedRegexp{
		"exceptionLineRe": facts.ExceptionLineRe, "compilerLineRe": facts.CompilerLineRe, "assertLineRe": facts.AssertLineRe,
		"failTestLineRe": facts.FailTestLineRe, "passLineRe": facts.PassLineRe, "keywordLineRe": facts.KeywordLineRe,
		"noticeLineRe": facts.NoticeLineRe, "wrapperLineRe": facts.WrapperLineRe,
	} {
		check(name, g, lines)
	}
}

// corpusTexts returns the distinct tool results of the shared transcripts
// (their heads, where most failures show: the whole of the big outputs
// would only slow the test) and the distinct lines of the failed ones as
// lineScore reads them; none when the corpus is absent.
func corpusTexts(t *testing.T) (heads, lines []string) {
	t.Helper()
	seen := map[*[]string]map[string]bool{&heads: {}, &lines: {}}
	add := func(to *[]string, s string) {
		if !seen[to][s] {
			seen[to][s] = true
			*to = append(*to, s)
		}
	}
	forSharedTranscripts(func(_ string, tr *handoff.Transcript) {
		for _, m := range tr.Messages {
			for _, r := range m.ToolResults {
				add(&heads, prose.HeadOf(r.Content, 2<<10))
				if !r.Failed() {
					continue
				}
				for _, l := range strings.Split(r.Content, "\n") {
					add(&lines, strings.TrimSpace(prose.HeadOf(l, facts.ScoredPrefix)))
				}
			}
		}
	})
	return heads, lines
}

// TestSplitAlternativesMatchLikeRegexp checks patterns split into
// alternatives gated one by one: each alternative is recompiled from its
// parsed form, so the flags it had inside the whole pattern ((?i), (?m),
// (?s)) must carry over, and a match spanning lines must still be found.
func TestSplitAlternativesMatchLikeRegexp(t *testing.T) {
	t.Parallel()
	patterns := []string{
		`(?m)(^fatal: |^error\[E\d+\]: |\s*\(core dumped\)|^Segmentation fault\s*$)`,
		`(?i)(still running|^open\s+door)`,
		`(?im)^wall time:?.*|abc(?-i:DEF)|(?s:start.*?end)`,
		`(?m)^xyz$|error|^okay\s`,
		`(?i)(?:^|\s)(?:aborted|bus error)\s*\(core dumped\)|no such file`,
		// No literal in "^ok\s", but it is anchored at the start.
		`(?i)(^ok\s|^pass(?:ed)?\b|no files to check|\b0 failed\b)`,
	}
	texts := []string{
		"", "fatal: x", "a fatal: x", "a\nfatal: x", "error[E1]: y", "x\nerror[E12]: y\n", "Aborted\n(core dumped)",
		"Segmentation fault\n", "Segmentation fault \nx", "x Segmentation fault", "STILL RUNNING", "ok\tgo", "x ok y",
		"x\nOK\n", "OPEN\n door", "x\nopen door", "Open \tDoor", "xyz\n", "a\nxyz", "okay\n", "WALL TIME: 3s", "a\nwall time", "abcDEF", "ABCDEF", "abcdef", "start\nmiddle\nend", "end start",
		"x", "a\nx\nb", "xx", "OK\tdone", "x ok ", "Passed", "passing", "a\npassed", "(no files to check)", "10 failed", "0 FAILED", "ERROR", " BUS ERROR\n\t(core dumped)", "No Such File", "\u212Aeep still running",
	}
	for _, p := range patterns {
		g := prose.BuildGate(p)
		if g.Alts == nil {
			t.Errorf("%q: not split into alternatives", p)
		}
		for _, s := range texts {
			if got, want := g.MatchString(s), g.Regexp().MatchString(s); got != want {
				t.Errorf("%q.MatchString(%q) = %v, the regexp says %v", p, s, got, want)
			}
		}
	}
	if facts.PassLineRe.Gate().Alts == nil {
		t.Error("passLineRe is not split: its anchored '^ok\\s' alternative left the whole pattern ungated")
	}
	if prose.BuildGate(`(?i)ok\s|error`).Alts != nil {
		t.Error("a pattern with an unanchored alternative without a literal is split")
	}
	if facts.ContentFailRe.Gate().Alts == nil {
		t.Error("contentFailRe is not split: its (core dumped) alternative spans lines, so the whole alternation would run on every output holding \"error\"")
	}
}

func TestSplitSource(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern string
		want    []string // nil: not split
	}{
		{`abc|def`, []string{`abc`, `def`}},
		{`(?im)^a\s*$|b`, []string{`(?im)^a\s*$`, `(?im)b`}},
		{`(?i)(a|b(?:c|d)|[|(]x)`, []string{`(?i)a`, `(?i)b(?:c|d)`, `(?i)[|(]x`}},
		{`(?:a|b)(?:c|d)`, nil}, // the groups do not wrap the whole
		{`(?i:a\||b)`, []string{`(?i)a\|`, `(?i)b`}},
		{`(?m)(?P<x>[]|]a|[^]|]b|[[:alpha:]|]c)`, []string{`(?m)[]|]a`, `(?m)[^]|]b`, `(?m)[[:alpha:]|]c`}},
		{`a|(?i)b|c`, nil}, // the flag reaches c as well
		{`a|\Q|\E`, nil},
		{`abc`, nil},
		{`(abc)`, nil},
	}
	for _, tc := range tests {
		if got := prose.SplitSource(tc.pattern); !slices.Equal(got, tc.want) {
			t.Errorf("splitSource(%q) = %q, want %q", tc.pattern, got, tc.want)
		}
	}
}

// TestLineScorerScoresLikeLineScore checks the per-output scorer on the
// failed results of the shared corpus (a sample under -race): leaving out the patterns whose
// literals the whole output lacks must not change any line's score.
func TestLineScorerScoresLikeLineScore(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	var failed []string
	forSharedTranscripts(func(_ string, tr *handoff.Transcript) {
		for _, m := range tr.Messages {
			for _, r := range m.ToolResults {
				if facts.Failed(r) {
					failed = append(failed, r.Content)
				}
			}
		}
	})
	checked, pruned := 0, 0
	for _, content := range raceSample(failed) {
		lines := facts.OutputBody(content)
		sc := facts.ScorerFor(strings.Join(lines, "\n"))
		if sc != facts.EveryLine {
			pruned++
		}
		for _, l := range lines {
			l = prose.HeadOf(l, facts.ScoredPrefix)
			if got, want := sc.Score(l), facts.LineScore(l); got != want {
				t.Errorf("score(%.80q) = %d, lineScore says %d", l, got, want)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Skip("../shared/transcripts not present")
	}
	if pruned == 0 {
		t.Error("no failed output left any pattern out: the scorer saves nothing")
	}
	t.Logf("%d lines of failed outputs scored, %d outputs with patterns left out", checked, pruned)
}

// TestNormalizeCommandSkipsLikeRegexps checks normalizeCommand's fast
// paths against the plain regexp chain it skips, on edge cases and every
// command of the shared corpus.
func TestNormalizeCommandSkipsLikeRegexps(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	plain := func(cmd string) string {
		c := strings.TrimSpace(facts.SpaceRun.Regexp().ReplaceAllString(cmd, " "))
		for {
			next := facts.LeadingCd.Regexp().ReplaceAllString(c, "")
			if next == c {
				break
			}
			c = next
		}
		return strings.TrimSpace(facts.TrailingCut.Regexp().ReplaceAllString(c, ""))
	}
	cmds := []string{
		"", " ", "go test ./...", "go test ./... 2>&1 | tail -n 20", "make 2>&1", "ls | head", "ls | head -5 ",
		"cd /x && npm test", "cd a; cd b && ls\t-la", "cd x &&\v ls", "echo a  b", "cat f\n", "x |tail", "run -n", "a\u00a0",
		"cd x && ", "pytest -q 2>&1 | tail -n 3", "echo 'abc'",
	}
	var corpus []string
	forSharedTranscripts(func(_ string, tr *handoff.Transcript) {
		sh := &facts.Shapes{}
		for _, m := range tr.Messages {
			for _, c := range m.ToolCalls {
				corpus = append(corpus, sh.Classify(c).Command)
			}
		}
	})
	for _, c := range append(cmds, raceSample(corpus)...) {
		if got, want := facts.NormalizeCommand(c), plain(c); got != want {
			t.Errorf("normalizeCommand(%.80q) = %q, the regexps give %q", c, got, want)
		}
	}
}

// raceSample keeps every raceStride-th item: the exactness sweeps below
// check patterns against text, with no concurrency for the race detector
// to see and ten times slower under it; the plain run keeps them whole.
func raceSample(items []string) []string {
	if raceStride == 1 {
		return items
	}
	out := make([]string, 0, len(items)/raceStride+1)
	for i := 0; i < len(items); i += raceStride {
		out = append(out, items[i])
	}
	return out
}

// TestScreensExact holds each screenedRegexp's screen to its regexp: on
// every message and line of the shared transcripts and on generated text
// built from the bytes the screens and patterns turn on, a text the
// regexp matches in passes the screen, and MatchString and FindAllString
// answer as the regexp's own.
func TestScreensExact(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	texts := messageTexts(t)
	if len(texts) < 1000 {
		t.Logf("only %d corpus texts (../../shared absent?): generated text only", len(texts))
	}
	// Generated text: short strings over an alphabet of word boundaries,
	// case changes, digits, extension letters and the screens' bytes.
	const alphabet = "aAzZgGpPjJ_./`-9 0\n×%.stmcgo"
	rng := rand.New(rand.NewPCG(12, 2026))
	for range 60000 {
		b := make([]byte, 1+rng.IntN(10))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		texts = append(texts, string(b))
	}
	// And over the bytes checkErrorRe turns on.
	const errAlphabet = "eErRoO!: *\n⨯fFaAtTlL(1,)sS[]-"
	for range 60000 {
		b := []byte{}
		for n := 1 + rng.IntN(12); len(b) < n; {
			i := rng.IntN(len(errAlphabet))
			_, w := utf8.DecodeRuneInString(errAlphabet[i:])
			if !utf8.RuneStart(errAlphabet[i]) {
				continue
			}
			b = append(b, errAlphabet[i:i+w]...)
		}
		texts = append(texts, string(b))
	}
	texts = append(texts, "a.go", "x.ts", "a_b", "fooBar", "LibraryPaths", "12", "1.5", "3 tests", "`x`", "a/b", "é.go", "aÉ", "1 MS", "x.c:3: error: y", "npm ERR! z", "make: *** [all] Error 2", "! Undefined control sequence.", "  ⨯ Failed", "[ERROR] x", "FATAL: y", "a: syntax error near", "BUILD FAILED", "error\n\n: late colon", "ſyntax",
		"[main 1a2b3c4] fix it", "x\n[main (root-commit) 1a2b3c4] first\n", "[a] b", "x[main 1a2b3c4] no", "[HEAD 0123456789abcdef] y  \n\n",
		"[  2%] Building C\n[main 1a2b3c4] fix\n", "[  2%] Built\n[ 9%] x", "[\tx 1a2b3c4] y", "[]] 1a2b3c4] y", "[x\n1a2b3c4] y", "[é 1a2b3c4] z",
		"x\n@@ -1 +1 @@\n", "@@", " @@", "a\n+++ b/x\n", "+++b", "```diff\n-a", "x```diff", "--- a/x", "--- b/x", "*** Begin Patch\n")
	texts = raceSample(texts)
	for _, tt := range []struct {
		name string
		re   prose.ScreenedRegexp
	}{{"factRe", conversation.FactRe}, {"pascalRe", conversation.PascalRe}, {"figureRe", conversation.FigureRe}, {"checkErrorRe", facts.CheckErrorRe}, {"gitCommitRe", facts.GitCommitRe}, {"diffMarkRe", facts.DiffMarkRe}} {
		re := tt.re.Regexp()
		screened := 0
		for _, s := range texts {
			want := re.MatchString(s)
			if want && !tt.re.May(s) {
				t.Errorf("%s: screen fails %.80q, which the regexp matches", tt.name, s)
			}
			if !tt.re.May(s) {
				screened++
			}
			if got := tt.re.MatchString(s); got != want {
				t.Errorf("%s: MatchString(%.80q) = %v, the regexp says %v", tt.name, s, got, want)
			}
			if got, want := tt.re.FindString(s), re.FindString(s); got != want {
				t.Errorf("%s: FindString(%.80q) = %q, the regexp finds %q", tt.name, s, got, want)
			}
			if got, want := tt.re.FindAllString(s, -1), re.FindAllString(s, -1); !slices.Equal(got, want) {
				t.Errorf("%s: FindAllString(%.80q) = %q, the regexp finds %q", tt.name, s, got, want)
			}
		}
		if screened == 0 {
			t.Errorf("%s: the screen passed all %d texts", tt.name, len(texts))
		}
	}
}

// TestFindNearLikeRegexp holds checkErrorRe's windowed FindString to the
// regexp's own on many-line text: lines drawn from fragments that start,
// continue or end a match (a "file:1:" line, a bare "error", a ": msg"
// line after blank ones, the other alternatives, blank lines of each \s
// byte and lines of prose), so matches cross blank lines and windows
// touch, overlap and stand apart; and on the corpus's texts.
func TestFindNearLikeRegexp(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	fragments := []string{
		"", " ", "\t", "\f", "\r", "  \t ", "\v", "plain prose here", "x.go:12:", "  a.c:3:4: ", "src/x.ts:9",
		"error", "ERROR", "fatal error", "error: bad", "Error[E0308]: mismatched", "error TS2322: no", ": late",
		"  : colon", "npm ERR! code 1", "make: *** [all] Error 2", "! Undefined control", "! lower",
		"Failed to compile.", "BUILD FAILED", "  ⨯ broke", "[ERROR] x", "FATAL: y", "a: syntax error near",
		"x(1,2): error TS1: y", "terrible", "ok", "err", "fatal:", "compilation terminated.",
	}
	rng := rand.New(rand.NewPCG(7, 2026))
	texts := messageTexts(t)
	for range 40000 {
		n := 1 + rng.IntN(14)
		lines := make([]string, n)
		for i := range lines {
			lines[i] = fragments[rng.IntN(len(fragments))]
		}
		texts = append(texts, strings.Join(lines, "\n"))
	}
	texts = raceSample(texts)
	re := facts.CheckErrorRe.Regexp()
	found := 0
	for _, s := range texts {
		want := re.FindString(s)
		if got := facts.CheckErrorRe.FindString(s); got != want {
			t.Errorf("FindString(%q) = %q, the regexp finds %q", s, got, want)
		}
		if want != "" {
			found++
		}
	}
	if found == 0 {
		t.Error("no text held a match: the test checks nothing")
	}
}

// TestLiteralSetsMatchLikeRegexp holds each literal-set gate (literalSet,
// setMatch) to its regexp: for every source pattern (and split
// alternative) that has a set, on text built from the set's own texts
// in random case (and K for k, ſ for s), glued to word and non-word
// bytes, K, ſ, non-ASCII and invalid UTF-8, MatchString answers as the
// regexp.
func TestLiteralSetsMatchLikeRegexp(t *testing.T) {
	t.Parallel()
	glue := []string{"", "", "a", "Z", "_", "9", " ", "-", ".", "\n", "\u212A", "ſ", "é", "'", "✅", "\xff", "\xe2"}
	rng := rand.New(rand.NewPCG(5, 2026))
	checked := 0
	var check func(name string, g *prose.RegexGate)
	check = func(name string, g *prose.RegexGate) {
		for _, a := range g.Alts {
			check(name+" (alternative)", a)
		}
		if g.Set == nil {
			return
		}
		checked++
		for range raceSample(make([]string, 400)) {
			var b strings.Builder
			for n := 1 + rng.IntN(4); n > 0; n-- {
				b.WriteString(glue[rng.IntN(len(glue))])
				w := []byte(g.Set[rng.IntN(len(g.Set))].Text)
				if len(w) > 0 && rng.IntN(4) == 0 {
					w = w[:rng.IntN(len(w))] // a near miss
				}
				for i, c := range w {
					if rng.IntN(3) == 0 && prose.IsLowerASCII(c) {
						w[i] = c - 'a' + 'A'
					}
				}
				word := string(w)
				if rng.IntN(4) == 0 { // the non-ASCII folds of k and s
					word = strings.NewReplacer("k", "\u212A", "s", "ſ").Replace(word)
				}
				b.WriteString(word)
				b.WriteString(glue[rng.IntN(len(glue))])
			}
			s := b.String()
			if got, want := g.MatchString(s), g.Regexp().MatchString(s); got != want {
				t.Errorf("%s: MatchString(%q) = %v, the regexp says %v", name, s, got, want)
			}
		}
	}
	for _, p := range sourcePatterns(t) {
		check(p.At.String(), prose.BuildGate(p.Pattern))
	}
	if checked == 0 {
		t.Error("no source pattern has a literal set: the test checks nothing")
	}
}

func TestLiteralSet(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		want    []string // nil: not a literal set
	}{
		{`(?i)(ab|c)d?`, []string{"abd", "ab", "cd", "c"}},
		{`(?i)\bno\b`, []string{"no"}},
		{`(?i)✅|x`, []string{"✅", "x"}},
		{`(?i)é`, nil},                      // also É
		{`(?i)\x{212A}ey`, []string{"key"}}, // the parser folds the Kelvin sign to k
		{`Ab`, nil},                         // an exact letter
		{`(?i)[ab]c`, []string{"ac", "bc"}}, // [AaBb]c
		{`(?i)x\d`, nil},                    // a class of ten
		{`(?i)^x`, nil},                     // an anchor
		{`(?i)a(?-i:B)`, nil},               // an exact letter inside
		{`(?i)it's 1`, []string{"it's 1"}},  // punctuation and digits need no fold
	} {
		re, err := syntax.Parse(tc.pattern, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		set, ok := prose.LiteralSet(re.Simplify())
		var got []string
		for _, s := range set {
			got = append(got, s.Text)
		}
		if !ok {
			got = nil
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("literalSet(%q) = %q (ok %v), want %q", tc.pattern, got, ok, tc.want)
		}
	}
}

// TestFoldSpecials checks the claim setReadable rests on: the only
// non-ASCII runes in the case-fold orbits of ASCII letters are kelvin
// and longS.
func TestFoldSpecials(t *testing.T) {
	for c := 'a'; c <= 'z'; c++ {
		for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
			if f >= utf8.RuneSelf && f != prose.Kelvin && f != prose.LongS {
				t.Errorf("%q folds to %q", c, f)
			}
		}
	}
}

package extractor

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff/transcript"
)

// TestLazyPatternsCompile compiles every pattern the package's source
// hands to lazyRE or gated: both compile on first use, so a bad pattern
// would otherwise panic only when a transcript first reaches it.
func TestLazyPatternsCompile(t *testing.T) {
	t.Parallel()
	patterns := sourcePatterns(t)
	for _, p := range patterns {
		if _, err := regexp.Compile(p.pattern); err != nil {
			t.Errorf("%s: %v", p.at, err)
		}
	}
	if len(patterns) < 150 {
		t.Errorf("found %d patterns; the package declares about two hundred", len(patterns))
	}
	p := compileDecisionPatterns()
	all := append(append(append([]lazyRegexp{p.notChoice, p.rationale, p.follow, p.reversal,
		p.workaround, p.skip, p.layout, p.library, p.architecture}, p.assistant...), p.user...), p.chosenAlt...)
	for _, re := range all {
		re.Regexp() // panics on a bad pattern
	}
}

// TestLazyGatesMatchLikeRegexp checks every pattern's gate on the shared
// corpus: the lazyRegexp's Find methods answer "no match" whenever its
// gate is closed, and MatchString answers as the regexp does. Each
// pattern meets every gateStride-th text, from an offset that moves with
// the pattern, so every text meets a share of the patterns: all of it
// would take half a minute of CPU.
func TestLazyGatesMatchLikeRegexp(t *testing.T) {
	t.Parallel()
	heads, lines := corpusTexts(t)
	texts := messageTexts(t)
	for _, h := range heads {
		texts = append(texts, headOf(h, 512)) // the whole heads would only slow the test
	}
	texts = append(texts, lines...)
	if len(texts) == 0 {
		t.Skip("../shared/transcripts not present")
	}
	const gateStride = 8
	for i, p := range sourcePatterns(t) {
		g := buildGate(p.pattern)
		for j := i % gateStride; j < len(texts); j += gateStride {
			s := texts[j]
			want := g.Regexp.MatchString(s)
			if want && !g.mayMatch(s) {
				t.Errorf("%s: gate closed on %.80q, which the regexp matches", p.at, s)
			}
			if got := g.MatchString(s); got != want {
				t.Errorf("%s: MatchString(%.80q) = %v, the regexp says %v", p.at, s, got, want)
			}
		}
	}
}

// messageTexts returns the heads of the shared corpus's message texts and
// their distinct lines, which the conversation patterns read.
func messageTexts(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("../../shared/transcripts/*/*")
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, f := range files {
		if strings.HasSuffix(f, "FORMATS.md") || strings.HasSuffix(f, "SOURCES.md") {
			continue
		}
		tr, err := transcript.ParseFile(context.Background(), f, transcript.Options{})
		if err != nil {
			continue
		}
		for _, m := range tr.Messages {
			text := headOf(m.Text, 512)
			add(text)
			for _, l := range strings.Split(text, "\n") {
				add(strings.TrimSpace(l))
			}
		}
	}
	return out
}

// sourcePattern is one pattern handed to lazyRE or gated, and where.
type sourcePattern struct {
	pattern string
	at      token.Position
}

// sourcePatterns returns every constant pattern the package's non-test
// source hands to lazyRE, gated or screened.
func sourcePatterns(t *testing.T) []sourcePattern {
	t.Helper()
	var out []sourcePattern
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		ast.Inspect(f, func(node ast.Node) bool {
			call, ok := node.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			fn, ok := call.Fun.(*ast.Ident)
			if !ok || !(len(call.Args) == 1 && (fn.Name == "lazyRE" || fn.Name == "gated") || len(call.Args) == 2 && fn.Name == "screened") {
				return true
			}
			pattern, ok := constString(call.Args[0])
			if !ok {
				return true // built at run time: compileDecisionPatterns, checked whole
			}
			out = append(out, sourcePattern{pattern: pattern, at: fset.Position(call.Pos())})
			return true
		})
	}
	return out
}

// constString evaluates a string literal or a + of them.
func constString(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		a, ok := constString(e.X)
		if !ok {
			return "", false
		}
		b, ok := constString(e.Y)
		return a + b, ok
	case *ast.ParenExpr:
		return constString(e.X)
	}
	return "", false
}

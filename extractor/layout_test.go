package extractor

import (
	"bytes"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fzipp/gocyclo"
)

// The limits of issue 30: a file over maxFileLines has more than one job,
// and a function over maxComplexity is a table or a cascade written as
// code. Both hold for tests too.
const (
	maxFileLines  = 800
	maxComplexity = 30
)

// generatedRe is the line Go's convention (go.dev/s/generatedcode) puts
// in a generated file, which linters leave out as this test does.
var generatedRe = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// TestLayout fails when a hand-written Go file under extractor/ is over
// maxFileLines lines or a function in one is over maxComplexity
// (gocyclo's cyclomatic complexity).
func TestLayout(t *testing.T) {
	fset := token.NewFileSet()
	var stats gocyclo.Stats
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if generatedRe.Match(src) {
			return nil // written by a tool (prose/gatetable.go), not by hand
		}
		if n := bytes.Count(src, []byte("\n")); n > maxFileLines {
			t.Errorf("%s: %d lines, over %d: split it by topic", path, n, maxFileLines)
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		stats = gocyclo.AnalyzeASTFile(f, fset, stats)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stats {
		if s.Complexity > maxComplexity {
			t.Errorf("%s: %s has complexity %d, over %d: extract helpers or make it a table",
				s.Pos, s.FuncName, s.Complexity, maxComplexity)
		}
	}
}

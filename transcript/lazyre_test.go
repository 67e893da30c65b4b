package transcript

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestLazyPatternsCompile compiles every pattern the package's source
// hands to lazyRE: they compile on first use, so a bad one would
// otherwise panic only when a transcript of its format first reaches it.
func TestLazyPatternsCompile(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	n := 0
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
			if !ok || len(call.Args) != 1 {
				return true
			}
			if fn, ok := call.Fun.(*ast.Ident); !ok || fn.Name != "lazyRE" {
				return true
			}
			pattern, ok := constString(call.Args[0])
			if !ok {
				t.Errorf("%s: pattern is not a constant string", fset.Position(call.Pos()))
				return true
			}
			if _, err := regexp.Compile(pattern); err != nil {
				t.Errorf("%s: %v", fset.Position(call.Pos()), err)
			}
			n++
			return true
		})
	}
	if n < 30 {
		t.Errorf("found %d patterns; the package declares about forty", n)
	}
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

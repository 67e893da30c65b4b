package lazyre

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Pattern is one pattern a package's source hands to a lazy constructor,
// and where.
type Pattern struct {
	Pattern string
	At      token.Position
}

// Sources returns every pattern the non-test Go files in dir hand, as
// their first argument, to a function named in arity (its name, or
// package.Name, → the number of arguments its calls take), and the places where such a call's
// pattern is not a constant string. Patterns compile on first use, so a
// package's test compiles each one from here: a bad one would otherwise
// panic only when a transcript first reaches it.
func Sources(dir string, arity map[string]int) ([]Pattern, []token.Position, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, fmt.Errorf("lazyre sources of %s: %w", dir, err)
	}
	fset := token.NewFileSet()
	var out []Pattern
	var dynamic []token.Position
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			return nil, nil, fmt.Errorf("lazyre sources: parse %s: %w", name, err)
		}
		ast.Inspect(f, func(node ast.Node) bool {
			call, ok := node.(*ast.CallExpr)
			if !ok {
				return true
			}
			name := funcName(call.Fun)
			if arity[name] == 0 || len(call.Args) != arity[name] {
				return true
			}
			pattern, ok := constString(call.Args[0])
			if !ok {
				dynamic = append(dynamic, fset.Position(call.Pos()))
				return true
			}
			out = append(out, Pattern{Pattern: pattern, At: fset.Position(call.Pos())})
			return true
		})
	}
	return out, dynamic, nil
}

// funcName is a called function's name: "lazyRE", or "lazyre.New" for
// a package's function; "" for anything else.
func funcName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			return x.Name + "." + e.Sel.Name
		}
	}
	return ""
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

// Check compiles every pattern Sources finds in dir and returns how many
// it found and what is wrong: a pattern that does not compile, or one
// that is not a constant string and so cannot be checked here.
func Check(dir string, arity map[string]int) (int, []error) {
	patterns, dynamic, err := Sources(dir, arity)
	if err != nil {
		return 0, []error{err}
	}
	var errs []error
	for _, at := range dynamic {
		errs = append(errs, fmt.Errorf("%s: pattern is not a constant string", at))
	}
	for _, p := range patterns {
		if _, err := regexp.Compile(p.Pattern); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p.At, err))
		}
	}
	return len(patterns), errs
}

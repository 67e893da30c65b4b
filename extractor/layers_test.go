package extractor

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// extractorPath is the import path of this package; its layers are the
// packages under it.
const extractorPath = "github.com/handoff-cli/handoff/extractor"

// layerOrder is the extractor's layers, lowest first. The catalogue
// (rulebook) imports nothing of the extractor, so every layer can consult
// it; the session kit builds test conversations from the domain types
// alone. The LLM client sits on top: it implements the root's Extractor.
var layerOrder = []rulebook.Layer{
	"catalogue", "sessionkit", rulebook.LayerText, rulebook.LayerFacts, rulebook.LayerConversation,
	rulebook.LayerDecisions, rulebook.LayerNext, rulebook.LayerAssembly, "llm",
}

// packageLayers declares each package under extractor/ with its layer,
// by directory.
var packageLayers = map[string]rulebook.Layer{
	"rulebook":             "catalogue",
	"internal/sessiontest": "sessionkit",
	"prose":                rulebook.LayerText,
	"facts":                rulebook.LayerFacts,
	"conversation":         rulebook.LayerConversation,
	"decisions":            rulebook.LayerDecisions,
	"nextstep":             rulebook.LayerNext,
	".":                    rulebook.LayerAssembly,
	"llm":                  "llm",
}

// TestImportsRunDownward fails when a package under extractor/ imports
// one of the extractor's packages at its own layer or above, or has no
// declared layer.
func TestImportsRunDownward(t *testing.T) {
	rank := map[rulebook.Layer]int{}
	for i, l := range layerOrder {
		rank[l] = i
	}
	imports := packageImports(t)
	for dir, deps := range imports {
		layer, ok := packageLayers[dir]
		if !ok {
			t.Errorf("extractor/%s has no layer: declare it in packageLayers", dir)
			continue
		}
		for _, dep := range deps {
			depLayer, ok := packageLayers[dep]
			if ok && rank[depLayer] < rank[layer] {
				continue
			}
			t.Errorf("extractor/%s (%s) imports extractor/%s (%s): imports run only downward", dir, layer, dep, depLayer)
		}
	}
	for dir := range packageLayers {
		if _, ok := imports[dir]; !ok {
			t.Errorf("packageLayers declares extractor/%s, which has no Go files", dir)
		}
	}
}

// packageImports maps each directory under extractor/ with non-test Go
// files to the extractor packages those files import, as directories
// relative to extractor/ ("." for the root).
func packageImports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(p))
		if _, ok := out[dir]; !ok {
			out[dir] = nil
		}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			rel, ok := strings.CutPrefix(ip, extractorPath)
			if !ok || (rel != "" && !strings.HasPrefix(rel, "/")) {
				continue
			}
			dep := strings.TrimPrefix(rel, "/")
			if dep == "" {
				dep = "."
			}
			out[dir] = append(out[dir], path.Clean(dep))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

package redact

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var listFindings = flag.Bool("shared-findings", false, "list every value redaction finds in the shared transcripts (for judging false positives)")

// TestSharedFindings lists, with -shared-findings, each distinct value
// redaction takes from the shared transcripts: its kind (the rule), how
// often, and the value with its context, so false positives can be
// counted and judged by a person. It asserts nothing.
func TestSharedFindings(t *testing.T) {
	if !*listFindings {
		t.Skip("run with -shared-findings")
	}
	root := "/work/shared/transcripts"
	if _, err := os.Stat(root); err != nil {
		t.Skip("shared transcripts not present")
	}
	type key struct{ kind, value string }
	type seen struct {
		n       int
		files   map[string]bool
		context string
	}
	all := map[key]*seen{}
	r := New()
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, "SOURCES.md") || strings.HasSuffix(path, "FORMATS.md") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		for _, f := range r.Find(s) {
			k := key{f.Kind, s[f.Start:f.End]}
			e := all[k]
			if e == nil {
				e = &seen{files: map[string]bool{}, context: strings.ReplaceAll(s[max(0, f.Start-60):min(len(s), f.End+30)], "\n", "⏎")}
				all[k] = e
			}
			e.n++
			e.files[filepath.Base(path)] = true
		}
		return nil
	})
	keys := make([]key, 0, len(all))
	total := 0
	for k, e := range all {
		keys = append(keys, k)
		total += e.n
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].kind != keys[j].kind {
			return keys[i].kind < keys[j].kind
		}
		return keys[i].value < keys[j].value
	})
	var b strings.Builder
	for _, k := range keys {
		e := all[k]
		fmt.Fprintf(&b, "%-28s ×%-3d files %d  %q\n      … %s\n", k.kind, e.n, len(e.files), clipValue(k.value), e.context)
	}
	t.Logf("%d findings, %d distinct values:\n%s", total, len(keys), b.String())
}

func clipValue(v string) string {
	if len(v) > 80 {
		return v[:80] + "…"
	}
	return v
}

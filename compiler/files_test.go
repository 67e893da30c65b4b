package compiler

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestCompactFiles: the compact line names files relative to the session
// directory or their common directory, grouped by directory, newest
// first, without tool names; a file's name is never split, so a search
// for it finds it.
func TestCompactFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		paths []string // newest first
		cwd   string
		limit int
		want  string
	}{
		{"one file", []string{"main.go"}, "", 15, "- Edited: `main.go`"},
		{"grouped by directory, names kept whole", []string{"docs/src/preamble.tex", "docs/src/sections/gradients.tex", "docs/src/sections/ops.tex", "docs/src/status.md"}, "", 15,
			"- Edited under `docs/src/` (newest first): `preamble.tex, sections/{gradients.tex,ops.tex}, status.md`"},
		{"relative to the session directory", []string{"/home/u/proj/a/x.go", "/home/u/proj/b/y.py"}, "/home/u/proj", 15,
			"- Edited (newest first): `a/x.go, b/y.py`"},
		{"common directory without a cwd", []string{"/Users/s/src/app/main.go", "/Users/s/src/app/go.mod"}, "", 15,
			"- Edited under `/Users/s/src/app/` (newest first): `main.go, go.mod`"},
		{"mixed extensions in a directory", []string{"web/app.ts", "web/index.html", "README.md"}, "", 15,
			"- Edited (newest first): `web/{app.ts,index.html}, README.md`"},
		{"dotfiles keep their names", []string{"cfg/.env", "cfg/.envrc"}, "", 15, "- Edited under `cfg/` (newest first): `.env, .envrc`"},
		{"limit counts the rest", []string{"a.go", "b.go", "c.go"}, "", 2, "- Edited (newest first): `a.go, b.go` (+1 more)"},
		{"only the root in common", []string{"/a/x.go", "/b/y.go"}, "", 15, "- Edited (newest first): `/a/x.go, /b/y.go`"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := compactLine("- Edited", tc.paths, tc.cwd, tc.limit); got != tc.want {
				t.Errorf("compactLine = %s\nwant          %s", got, tc.want)
			}
		})
	}
}

// TestEditedFilesRanks: the compact line outranks the detailed list,
// which is its longer variant; both are one group.
func TestEditedFilesRanks(t *testing.T) {
	t.Parallel()
	var files []handoff.FileChange
	for _, p := range []string{"a.go", "b.go", "c.go", "d.go", "e.go", "f.go", "g.go", "h.go", "i.go", "j.go"} {
		files = append(files, handoff.FileChange{Path: "pkg/" + p, Operations: []string{"Edit"}, Edits: 1})
	}
	p := buildPieces(&handoff.Snapshot{FilesModified: files}, "handoff show")
	var line, detail *piece
	for i := range p {
		switch p[i].kind {
		case "edited files":
			if line == nil {
				line = &p[i]
			}
		case "files modified":
			if detail == nil {
				detail = &p[i]
			}
		}
	}
	if line == nil || detail == nil {
		t.Fatalf("missing compact line or detailed list: %+v", p)
	}
	if line.group != detail.group || line.rank >= detail.rank || line.level >= detail.level {
		t.Errorf("compact line %+v is not the short variant of %+v", *line, *detail)
	}
	if !strings.HasPrefix(line.text, "- Edited under `pkg/` (newest first): `j.go, i.go, h.go, g.go, f.go, e.go` (+4 more)") {
		t.Errorf("compact line = %s", line.text)
	}
	if !strings.Contains(detail.text, "- `pkg/j.go` (Edit, 1 edit)") || !strings.Contains(detail.text, "Before these, edited under `pkg/` (newest first): `b.go, a.go`") {
		t.Errorf("detailed list = %s", detail.text)
	}
}

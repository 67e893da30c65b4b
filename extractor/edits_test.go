package extractor

import (
	"reflect"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
)

func TestFileSetOrderOfLastModification(t *testing.T) {
	s := facts.NewFileSet()
	for _, e := range []struct{ path, op string }{
		{"a.go", "Write"}, {"b.go", "Write"}, {"c.go", "Edit"}, {"a.go", "Edit"}, {"b.go", "shell"},
	} {
		s.Touch(e.path, e.op)
	}
	want := []handoff.FileChange{
		{Path: "c.go", Operations: []string{"Edit"}, Edits: 1},
		{Path: "a.go", Operations: []string{"Write", "Edit"}, Edits: 2},
		{Path: "b.go", Operations: []string{"Write", "shell"}, Edits: 2},
	}
	if got := s.List(); !reflect.DeepEqual(got, want) {
		t.Errorf("list:\n got %+v\nwant %+v", got, want)
	}
}

func TestRelativeFilesMergesOneFile(t *testing.T) {
	tests := []struct {
		name  string
		cwd   string
		files []handoff.FileChange
		want  []handoff.FileChange
	}{
		{
			name: "absolute then relative: one line, at the later position",
			cwd:  "/home/u/app/",
			files: []handoff.FileChange{
				{Path: "/home/u/app/types/state.ts", Operations: []string{"Write"}, Edits: 3},
				{Path: "README.md", Operations: []string{"Write"}, Edits: 1},
				{Path: "types/state.ts", Operations: []string{"shell"}, Edits: 1},
			},
			want: []handoff.FileChange{
				{Path: "README.md", Operations: []string{"Write"}, Edits: 1},
				{Path: "types/state.ts", Operations: []string{"Write", "shell"}, Edits: 4},
			},
		},
		{
			name: "outside the working directory stays absolute; ./ is dropped",
			cwd:  "/home/u/app",
			files: []handoff.FileChange{
				{Path: "/etc/hosts", Operations: []string{"Edit"}, Edits: 1},
				{Path: "./main.go", Operations: []string{"Edit"}, Edits: 1},
			},
			want: []handoff.FileChange{
				{Path: "/etc/hosts", Operations: []string{"Edit"}, Edits: 1},
				{Path: "main.go", Operations: []string{"Edit"}, Edits: 1},
			},
		},
		{
			name:  "no working directory",
			files: []handoff.FileChange{{Path: "x.go", Edits: 1}, {Path: "./x.go", Operations: []string{"Edit"}, Edits: 1}},
			want:  []handoff.FileChange{{Path: "x.go", Operations: []string{"Edit"}, Edits: 2}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := relativeFiles(tt.files, tt.cwd); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

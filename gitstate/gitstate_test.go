package gitstate

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "work")
	write(t, filepath.Join(dir, "a.go"), "package a\n")
	write(t, filepath.Join(dir, "b.go"), "package b\n")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "init")
	write(t, filepath.Join(dir, "a.go"), "package a\n\nvar X = 1\n")
	write(t, filepath.Join(dir, "b.go"), "package b\n\nvar Y = 2\n")
	git(t, dir, "add", "b.go")
	write(t, filepath.Join(dir, "new.txt"), "new\n")

	st := Read(context.Background(), filepath.Join(dir))
	if !st.Available {
		t.Fatalf("not available: %s", st.Note)
	}
	if st.Branch != "work" {
		t.Errorf("branch = %q, want work", st.Branch)
	}
	if len(st.Commit) != 40 {
		t.Errorf("commit = %q, want a full sha", st.Commit)
	}
	if !st.Dirty {
		t.Error("dirty = false, want true")
	}
	if !slices.Equal(st.Modified, []string{"a.go"}) {
		t.Errorf("modified = %v, want [a.go]", st.Modified)
	}
	if !slices.Equal(st.Staged, []string{"b.go"}) {
		t.Errorf("staged = %v, want [b.go]", st.Staged)
	}
	if !slices.Equal(st.Untracked, []string{"new.txt"}) {
		t.Errorf("untracked = %v, want [new.txt]", st.Untracked)
	}
	if st.Diffstat == "" {
		t.Error("diffstat empty, want a shortstat line")
	}
}

func TestReadUnavailable(t *testing.T) {
	tests := []struct {
		name string
		dir  string
	}{
		{"no directory recorded", ""},
		{"directory missing", filepath.Join(t.TempDir(), "gone")},
		{"not a repository", t.TempDir()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := Read(context.Background(), tt.dir)
			if st.Available {
				t.Fatalf("available = true for %q", tt.dir)
			}
			if st.Note == "" {
				t.Error("note empty, want a reason")
			}
		})
	}
}

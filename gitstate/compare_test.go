package gitstate

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// repoAtSnapshot makes a repository with one commit and an uncommitted
// edit, and returns it with the git state a snapshot would have recorded.
func repoAtSnapshot(t *testing.T) (string, *handoff.GitState) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write(t, filepath.Join(dir, "a.go"), "package a\n")
	write(t, filepath.Join(dir, "b.go"), "package b\n")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "one")
	write(t, filepath.Join(dir, "a.go"), "package a // edited\n")
	st := Read(context.Background(), dir)
	if !st.Available || !st.Dirty {
		t.Fatalf("setup: %+v", st)
	}
	return dir, st
}

func TestCompare(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	tests := []struct {
		name     string
		change   func(t *testing.T, dir string, snap *handoff.GitState)
		conflict string   // substring of the conflict, "" for none
		warnings []string // substrings, in order
		changed  []string
	}{
		{name: "unchanged", change: func(*testing.T, string, *handoff.GitState) {}},
		{
			name: "moved ahead on the same branch",
			change: func(t *testing.T, dir string, _ *handoff.GitState) {
				write(t, filepath.Join(dir, "b.go"), "package b // two\n")
				git(t, dir, "commit", "-q", "-am", "two")
			},
			warnings: []string{"HEAD moved 1 commit(s) ahead", "1 file(s) changed since the snapshot: b.go"},
			changed:  []string{"b.go"},
		},
		{
			name: "new untracked file",
			change: func(t *testing.T, dir string, _ *handoff.GitState) {
				write(t, filepath.Join(dir, "c.go"), "package c\n")
			},
			warnings: []string{"1 file(s) changed since the snapshot: c.go"},
			changed:  []string{"c.go"},
		},
		{
			name: "another branch",
			change: func(t *testing.T, dir string, _ *handoff.GitState) {
				git(t, dir, "checkout", "-q", "-b", "other")
			},
			conflict: "taken on branch main, the working tree is on other",
		},
		{
			name: "history rewritten",
			change: func(t *testing.T, dir string, _ *handoff.GitState) {
				git(t, dir, "commit", "-q", "--amend", "-am", "one, amended")
			},
			conflict: "does not descend from the snapshot's commit",
		},
		{
			name: "commit unknown here",
			change: func(_ *testing.T, _ string, snap *handoff.GitState) {
				snap.Commit = strings.Repeat("1", 40)
			},
			conflict: "does not have the snapshot's commit",
		},
		{
			name: "uncommitted changes stashed",
			change: func(t *testing.T, dir string, _ *handoff.GitState) {
				git(t, dir, "stash", "-q")
			},
			warnings: []string{"uncommitted changes the snapshot recorded are gone"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, snap := repoAtSnapshot(t)
			tt.change(t, dir, snap)
			d := Compare(context.Background(), dir, snap)
			if !d.Compared {
				t.Fatalf("not compared: %+v", d.Current)
			}
			err := d.Conflict()
			switch {
			case tt.conflict == "" && err != nil:
				t.Errorf("conflict: %v", err)
			case tt.conflict != "" && (err == nil || !strings.Contains(err.Error(), tt.conflict)):
				t.Errorf("conflict = %v, want one saying %q", err, tt.conflict)
			case err != nil && handoff.ErrorCode(err) != handoff.ECONFLICT:
				t.Errorf("code = %s", handoff.ErrorCode(err))
			}
			if tt.conflict != "" {
				return
			}
			w := d.Warnings()
			if len(w) != len(tt.warnings) {
				t.Fatalf("warnings = %q, want %d", w, len(tt.warnings))
			}
			for i, want := range tt.warnings {
				if !strings.Contains(w[i], want) {
					t.Errorf("warning %d = %q, want %q", i, w[i], want)
				}
			}
			if !slices.Equal(d.ChangedSince, tt.changed) {
				t.Errorf("changed since = %v, want %v", d.ChangedSince, tt.changed)
			}
		})
	}
}

func TestCompareWithoutGit(t *testing.T) {
	ctx := context.Background()
	recorded := &handoff.GitState{Available: true, Branch: "main", Commit: strings.Repeat("a", 40)}
	// The snapshot had a repository, this directory has none: a warning.
	d := Compare(ctx, t.TempDir(), recorded)
	if d.Compared || d.Conflict() != nil {
		t.Errorf("compared=%v conflict=%v for a plain directory", d.Compared, d.Conflict())
	}
	if w := d.Warnings(); len(w) != 1 || !strings.Contains(w[0], "not inside a git repository") {
		t.Errorf("warnings = %q", w)
	}
	// Nothing recorded: nothing to say.
	for _, snap := range []*handoff.GitState{nil, {Note: "git is not installed"}} {
		d := Compare(ctx, t.TempDir(), snap)
		if d.Conflict() != nil || len(d.Warnings()) != 0 {
			t.Errorf("snapshot without git: conflict %v, warnings %q", d.Conflict(), d.Warnings())
		}
	}
}

func TestReadWithoutGitBinary(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	st := Read(context.Background(), t.TempDir())
	if st.Available || st.Note != "git is not installed" {
		t.Errorf("state = %+v, want unavailable with the reason", st)
	}
}

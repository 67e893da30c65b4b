package extractor

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
	"github.com/handoff-cli/handoff/transcript"
)

// codexOut wraps output in Codex's exec_command header.
func codexOut(out string) string {
	return "Chunk ID: 1a2b3c\nWall time: 0.05 seconds\nProcess exited with code 0\nOriginal token count: 30\nOutput:\n" + out
}

func TestReadGitSeen(t *testing.T) {
	long := "On branch main\nYour branch is ahead of 'origin/main' by 2 commits.\n  (use \"git push\" to publish your local commits)\n\n" +
		"Changes to be committed:\n  (use \"git restore --staged <file>...\" to unstage)\n\tnew file:   cmd/new.go\n\n" +
		"Changes not staged for commit:\n  (use \"git add <file>...\" to update what will be committed)\n\tmodified:   library.py\n\tdeleted:    old.txt\n\n" +
		"Untracked files:\n  (use \"git add <file>...\" to include in what will be committed)\n\tsrc/\n\ttests/\n\n" +
		"no changes added to commit (use \"git add\" and/or \"git commit -a\")\n"
	porcelain := " M library.py\nM  staged.go\nMM both.go\nR  a.go -> b.go\n?? src/\n?? \"with space.txt\"\n"
	pushOK := "To github.com:me/app.git\n   1a2b3c4..5d6e7f8  main -> main\n"
	cases := []struct {
		name  string
		build func(c *sessiontest.Convo)
		want  handoff.GitSeen
	}{
		{
			name: "long form with ahead, staged, modified, untracked",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "git status", long, 0)
			},
			want: handoff.GitSeen{Status: &handoff.MessageRef{Index: 1}, Branch: "main", Upstream: "origin/main", Ahead: 2,
				Staged: []string{"cmd/new.go"}, Modified: []string{"library.py", "old.txt"}, Untracked: []string{"src/", "tests/"}},
		},
		{
			name: "porcelain in a Codex header, renames and quoted paths",
			build: func(c *sessiontest.Convo) {
				id := c.Call("", "exec_command", map[string]string{"cmd": "git status --porcelain"})
				c.Result(id, codexOut(porcelain), false, -1)
			},
			want: handoff.GitSeen{Status: &handoff.MessageRef{Index: 1},
				Modified:  []string{"library.py", "both.go"},
				Staged:    []string{"staged.go", "both.go", "b.go"},
				Untracked: []string{"src/", "with space.txt"}},
		},
		{
			name: "console paste lost the first line's blank",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "git status --short", "M CLAUDE.md\n M cli.py\nA  docs/a.jpg\n?? notes.md", 0)
			},
			want: handoff.GitSeen{Status: &handoff.MessageRef{Index: 1}, Modified: []string{"CLAUDE.md", "cli.py"},
				Staged: []string{"docs/a.jpg"}, Untracked: []string{"notes.md"}},
		},
		{
			name: "short branch header, behind and ahead",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "git status -sb", "## feat...origin/feat [ahead 1, behind 2]\n", 0)
			},
			want: handoff.GitSeen{Status: &handoff.MessageRef{Index: 1}, Branch: "feat", Upstream: "origin/feat", Ahead: 1, Behind: 2, Clean: true},
		},
		{
			name: "clean tree, long form",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "git status", "On branch main\nYour branch is up to date with 'origin/main'.\n\nnothing to commit, working tree clean\n", 0)
			},
			want: handoff.GitSeen{Status: &handoff.MessageRef{Index: 1}, Branch: "main", Upstream: "origin/main", Clean: true},
		},
		{
			name: "status then add and commit: staged leave, the branch is one more ahead",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "git status", long, 0)
				c.Bash("", "git add library.py && git commit -m 'fix: library'", "[main abc1234] fix: library\n 1 file changed\n", 0)
			},
			want: handoff.GitSeen{Status: &handoff.MessageRef{Index: 1}, Branch: "main", Upstream: "origin/main", Ahead: 3,
				Modified: []string{"old.txt"}, Untracked: []string{"src/", "tests/"}, Commits: []string{"abc1234"}, Unpushed: []string{"abc1234"}},
		},
		{
			name: "git add -A then commit takes everything",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "git status", long, 0)
				c.Bash("", "git add -A && git commit -m \"wip && more\"", "[main abc1234] wip && more\n", 0)
			},
			want: handoff.GitSeen{Status: &handoff.MessageRef{Index: 1}, Branch: "main", Upstream: "origin/main", Ahead: 3,
				Commits: []string{"abc1234"}, Unpushed: []string{"abc1234"}},
		},
		{
			name: "commit -am takes tracked changes, not untracked ones",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "git status", long, 0)
				c.Bash("", "git commit -am 'all tracked'", "[main abc1234] all tracked\n", 0)
			},
			want: handoff.GitSeen{Status: &handoff.MessageRef{Index: 1}, Branch: "main", Upstream: "origin/main", Ahead: 3,
				Untracked: []string{"src/", "tests/"}, Commits: []string{"abc1234"}, Unpushed: []string{"abc1234"}},
		},
		{
			name: "status then edit: the edited file is dirty again",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "git status", "On branch main\nnothing to commit, working tree clean\n", 0)
				id := c.Call("", "Edit", map[string]string{"file_path": "/home/dev/app/pkg/a.go", "old_string": "a", "new_string": "b"})
				c.Result(id, "ok", false, -1)
			},
			want: handoff.GitSeen{Status: &handoff.MessageRef{Index: 1}, Branch: "main", Edited: []string{"pkg/a.go"}},
		},
		{
			name: "successful push clears ahead and the unpushed commits",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "git status", long, 0)
				c.Bash("", "git commit -m x", "[main abc1234] x\n", 0)
				c.Bash("", "git push origin main", pushOK, 0)
			},
			want: handoff.GitSeen{Status: &handoff.MessageRef{Index: 1}, Branch: "main", Upstream: "origin/main",
				Staged: nil, Modified: []string{"library.py", "old.txt"}, Untracked: []string{"src/", "tests/"}, Commits: []string{"abc1234"},
				Push: &handoff.MessageRef{Index: 5}, PushRemote: "github.com:me/app.git", PushRefs: []string{"1a2b3c4..5d6e7f8 main -> main"}},
		},
		{
			name: "failed push keeps ahead and says why",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "git status", long, 0)
				c.Bash("", "git push", "To github.com:me/app.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to 'github.com:me/app.git'\n", 1)
			},
			want: handoff.GitSeen{Status: &handoff.MessageRef{Index: 1}, Branch: "main", Upstream: "origin/main", Ahead: 2,
				Staged: []string{"cmd/new.go"}, Modified: []string{"library.py", "old.txt"}, Untracked: []string{"src/", "tests/"},
				PushFailed: &handoff.MessageRef{Index: 3}, PushError: "! [rejected] main -> main (fetch first)"},
		},
		{
			name: "commits and no push: not pushed in this session",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "git commit -m one", "[main 1111111] one\n", 0)
				c.Bash("", "git push", pushOK, 0)
				c.Bash("", "git commit -m two", "[main 2222222] two\n", 0)
			},
			want: handoff.GitSeen{Branch: "main", Unpushed: []string{"2222222"},
				Push: &handoff.MessageRef{Index: 3}, PushRemote: "github.com:me/app.git", PushRefs: []string{"1a2b3c4..5d6e7f8 main -> main"}},
		},
		{
			name: "a later status replaces the earlier one",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "git status", long, 0)
				c.Bash("", "git status --short", "?? only.txt\n", 0)
			},
			want: handoff.GitSeen{Status: &handoff.MessageRef{Index: 3}, Branch: "main", Untracked: []string{"only.txt"}},
		},
		{
			name: "a status of some paths is not the tree's",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "git status --short src/", "?? src/x.go\n", 0)
			},
			want: handoff.GitSeen{},
		},
		{
			name: "a branch switch after the status is flagged, not guessed",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "git status", long, 0)
				c.Bash("", "git checkout other", "Switched to branch 'other'\n", 0)
			},
			want: handoff.GitSeen{Status: &handoff.MessageRef{Index: 1}, Branch: "main",
				Staged: []string{"cmd/new.go"}, Modified: []string{"library.py", "old.txt"}, Untracked: []string{"src/", "tests/"},
				Changed: &handoff.MessageRef{Index: 3}, ChangedBy: "git checkout other"},
		},
		{
			name: "a long status under another git command is still a status",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "git commit -m x", "On branch main\nYour branch is ahead of 'origin/main' by 1 commit.\n\nnothing to commit, working tree clean\n", 0)
			},
			want: handoff.GitSeen{Status: &handoff.MessageRef{Index: 1}, Branch: "main", Upstream: "origin/main", Ahead: 1, Clean: true},
		},
		{
			name: "a failed status and git output in other commands say nothing",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "git status", "fatal: not a git repository (or any of the parent directories): .git\n", 128)
				c.Bash("", "cat notes.txt", "On branch main\nnothing to commit\n", 0)
			},
			want: handoff.GitSeen{},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t)
			tc.build(c)
			tr := c.Transcript()
			got := facts.ReadGitSeen(tr.Messages, tr.Session.CWD)
			if got == nil {
				got = &handoff.GitSeen{}
			}
			// Messages from bash() are a call then a result: compare the
			// result's index through the refs the test names.
			if !gitSeenEqual(*got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", *got, tc.want)
			}
		})
	}
}

func gitSeenEqual(a, b handoff.GitSeen) bool {
	ref := func(x, y *handoff.MessageRef) bool {
		return (x == nil) == (y == nil) && (x == nil || x.Index == y.Index)
	}
	return ref(a.Status, b.Status) && ref(a.Push, b.Push) && ref(a.PushFailed, b.PushFailed) && ref(a.Changed, b.Changed) &&
		a.Branch == b.Branch && a.Upstream == b.Upstream && a.Ahead == b.Ahead && a.Behind == b.Behind && a.Clean == b.Clean &&
		slices.Equal(a.Modified, b.Modified) && slices.Equal(a.Staged, b.Staged) && slices.Equal(a.Untracked, b.Untracked) &&
		slices.Equal(a.Edited, b.Edited) && slices.Equal(a.Commits, b.Commits) && slices.Equal(a.Unpushed, b.Unpushed) &&
		a.PushRemote == b.PushRemote && slices.Equal(a.PushRefs, b.PushRefs) && a.PushError == b.PushError && a.ChangedBy == b.ChangedBy
}

// TestReadGitSeenReal checks a labelled session whose successor needs to
// know what is still uncommitted: a Gemini console paste that committed
// its staged screenshots but left the earlier work in the tree.
func TestReadGitSeenReal(t *testing.T) {
	p := filepath.Join(sharedDir, "transcripts/claude-code-console/bookminder-day-013-gemini-cli.txt")
	if _, err := os.Stat(p); err != nil {
		t.Skip("shared transcripts absent")
	}
	tr, err := transcript.ParseFile(context.Background(), p, transcript.Options{Source: p})
	if err != nil {
		t.Fatal(err)
	}
	g := facts.ReadGitSeen(tr.Messages, tr.Session.CWD)
	if g == nil || g.Status == nil {
		t.Fatalf("no git status read: %+v", g)
	}
	for _, want := range []string{"bookminder/apple_books/library.py", "specs/cli_spec.py"} {
		if !slices.Contains(g.Modified, want) {
			t.Errorf("modified %v lacks %s", g.Modified, want)
		}
	}
	if len(g.Staged) != 0 {
		t.Errorf("the commit after the status took the staged files, still staged: %v", g.Staged)
	}
	if !slices.Contains(g.Commits, "99b18cc") || !slices.Contains(g.Unpushed, "99b18cc") {
		t.Errorf("commit 99b18cc after the status, never pushed: commits %v unpushed %v", g.Commits, g.Unpushed)
	}
}

// A checkout or switch that git reports moves the branch, also in a chain
// whose later step fails, and a switch back wins over the commit made on
// the other branch.
func TestGitSeenFollowsSwitches(t *testing.T) {
	t.Parallel()
	c := sessiontest.NewConvo(t)
	c.Bash("", "git checkout -b fix/csv-bom main", "Switched to a new branch 'fix/csv-bom'\n", 0)
	c.Bash("", "git commit -am 'export: BOM'", "[fix/csv-bom 3f9a2c1] export: BOM\n 1 file changed\n", 0)
	c.Bash("", "git checkout feat/parquet && uv run pytest -q", "Switched to branch 'feat/parquet'\nFAILED tests/test_x.py::test_y\n1 failed\n", 1)
	tr := c.Transcript()
	got := facts.ReadGitSeen(tr.Messages, tr.Session.CWD)
	if got == nil || got.Head != "feat/parquet" {
		t.Fatalf("head = %+v, want feat/parquet", got)
	}
}

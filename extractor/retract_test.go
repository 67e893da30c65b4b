package extractor

import (
	"reflect"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

func TestMoveAndRemoveEditedFiles(t *testing.T) {
	tests := []struct {
		name  string
		cmd   string
		want  []string
		edits map[string]int
	}{
		{"mv by ~ path renames the absolute entry", "mv ~/.claude/commands/voice.md ~/.claude/commands/jarvisOn.md",
			[]string{"/home/u/app/main.go", "/home/u/app/old.py", "/home/u/.claude/commands/jarvisOn.md"}, map[string]int{"/home/u/.claude/commands/jarvisOn.md": 1}},
		{"rm drops the file", "cd app && rm -f old.py && ls",
			[]string{"/home/u/app/main.go", "/home/u/.claude/commands/voice.md"}, nil},
		{"git mv into a directory", "git mv app/main.go cmd/",
			[]string{"/home/u/.claude/commands/voice.md", "/home/u/app/old.py", "/home/u/cmd/main.go"}, nil},
		{"untracked files are left alone", "mv notes.txt archive.txt; rm -rf build",
			[]string{"/home/u/app/main.go", "/home/u/.claude/commands/voice.md", "/home/u/app/old.py"}, nil},
		{"a glob is not a file name", "rm app/*.py",
			[]string{"/home/u/app/main.go", "/home/u/.claude/commands/voice.md", "/home/u/app/old.py"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := facts.NewFileSet()
			s.Touch("/home/u/app/main.go", "Write")
			s.Touch("/home/u/.claude/commands/voice.md", "Write")
			s.Touch("/home/u/app/old.py", "Edit")
			s.AddCall(&facts.CallInfo{Kind: facts.KindShell, Command: tt.cmd})
			var got []string
			for _, f := range s.List() {
				got = append(got, f.Path)
				if n, ok := tt.edits[f.Path]; ok && f.Edits != n {
					t.Errorf("%s: %d edits, want %d", f.Path, f.Edits, n)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("files = %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestAiderUndoTakesBackCommitAndEdits: Aider's "Removed: HASH" after
// /undo drops the commit and the edits it held; a file edited again
// later keeps its later edits.
func TestAiderUndoTakesBackCommitAndEdits(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("add a --month filter to the report command")
	c.Say("budget/report.py\n```python\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```")
	c.Meta("Applied edit to budget/report.py\nCommit 8c1d2e4 feat: add --month filter")
	c.User("skip own-account transfers in the importers")
	c.Say("budget/importers/csv.py\n```python\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n\nbudget/importers/ofx.py\n```python\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```")
	c.Meta("Applied edit to budget/importers/csv.py\nApplied edit to budget/importers/ofx.py\nCommit 7e3d1b2 feat: skip own-account transfers in importers")
	c.User("/undo")
	c.Meta("Removed: 7e3d1b2 feat: skip own-account transfers in importers\nNow at:  8c1d2e4 feat: add --month filter")
	c.User("Only ofx.py, never the CSV importer")
	c.Say("budget/importers/ofx.py\n```python\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```")
	c.Meta("Applied edit to budget/importers/ofx.py\nCommit a91c3f0 feat: skip transfers in OFX import")
	snap := build(t, c, handoff.SessionInfo{})
	var hashes []string
	for _, cm := range snap.Commits {
		hashes = append(hashes, cm.Hash)
	}
	if want := []string{"8c1d2e4", "a91c3f0"}; !reflect.DeepEqual(hashes, want) {
		t.Errorf("commits = %q, want %q", hashes, want)
	}
	var undone []string
	for _, d := range snap.Decisions {
		if strings.HasPrefix(d.Description, handoff.RevertedPrefix) {
			undone = append(undone, d.Description+" | "+d.Rationale)
		}
	}
	if want := []string{handoff.RevertedPrefix + "commit `7e3d1b2` feat: skip own-account transfers in importers (undo) | the person: “Only ofx.py, never the CSV importer”"}; !reflect.DeepEqual(undone, want) {
		t.Errorf("undone decisions = %q\nwant %q", undone, want)
	}
	files := map[string]int{}
	for _, f := range snap.FilesModified {
		files[f.Path] = f.Edits
	}
	if want := map[string]int{"budget/report.py": 1, "budget/importers/ofx.py": 1}; !reflect.DeepEqual(files, want) {
		t.Errorf("files = %v, want %v", files, want)
	}
}

func TestShellRetractsCommits(t *testing.T) {
	log := func() *facts.CommitLog {
		l := &facts.CommitLog{}
		for _, h := range [][2]string{{"1111111", "feat: a"}, {"2222222", "feat: b"}, {"3333333", "feat: c"}} {
			l.Add(handoff.Commit{Hash: h[0], Message: h[1]})
		}
		return l
	}
	tests := []struct {
		name, out string
		want      []string
	}{
		{"revert drops the reverted commit, keeps the revert", "[main 4444444] Revert \"feat: b\"\n 1 file changed", []string{"1111111", "3333333", "4444444"}},
		{"hard reset to a session commit drops the later ones", "HEAD is now at 1111111 feat: a", []string{"1111111"}},
		{"reset to a commit the session did not make: unknown, kept", "HEAD is now at 9999999 chore: init", []string{"1111111", "2222222", "3333333"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := log()
			l.ObserveShell(handoff.Message{}, tt.out)
			var got []string
			for _, c := range l.List {
				got = append(got, c.Hash)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("commits = %q, want %q", got, tt.want)
			}
		})
	}
}

package compiler

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

func gitSeenSnapshot(latest string) *handoff.Snapshot {
	return &handoff.Snapshot{
		LatestRequest: latest,
		Source:        handoff.SourceInfo{Messages: 1200},
		GitSeen: &handoff.GitSeen{
			Status:    &handoff.MessageRef{Index: 812},
			Branch:    "main",
			Upstream:  "origin/main",
			Ahead:     2,
			Modified:  []string{"library.py", "cli_spec.py", "a.py", "b.py", "c.py"},
			Untracked: []string{"src/", "tests/"},
			Commits:   []string{"abc1234"},
			Unpushed:  []string{"1111111", "abc1234"},
			Push:      &handoff.MessageRef{Index: 700},
			PushRefs:  []string{"0000000..1111111 main -> main"},
		},
	}
}

// TestGitSeenRendered: with no git state from git itself, the prompt says
// what the session's git output showed, each claim with its message; the
// summary ranks better when the session ended asking for git work, and
// paths past the summary's few come as items ranked low.
func TestGitSeenRendered(t *testing.T) {
	tests := []struct {
		name     string
		snap     *handoff.Snapshot
		want     []string
		wantNot  []string
		rank     int // rank of the summary; -1: not rendered
		itemRank int // rank of the first path item; -1: none
	}{
		{
			name: "uncommitted and unpushed",
			snap: gitSeenSnapshot("add the parser"),
			want: []string{
				"As of the last `git status` (message 812 of 1200) on branch `main`, with the commit after it (`abc1234`): uncommitted changes in `library.py`, `cli_spec.py`, `a.py` (+2 more); untracked `src/`, `tests/`.",
				"2 commits not pushed to `origin/main`: `1111111`, `abc1234`.",
				"Last `git push`: message 700, `0000000..1111111 main -> main`.",
			},
			rank: rankGitSeen, itemRank: rankGitSeenFiles,
		},
		{
			name: "the last request is about committing",
			snap: gitSeenSnapshot("commit and push please"),
			want: []string{"uncommitted changes in `library.py`"},
			rank: rankGitSeenAsked, itemRank: rankGitSeenFiles,
		},
		{
			name: "git itself answered: its state wins",
			snap: func() *handoff.Snapshot {
				s := gitSeenSnapshot("x")
				s.GitState = &handoff.GitState{Available: true, Branch: "main", Commit: "abc1234"}
				return s
			}(),
			wantNot: []string{"As of the last `git status`"},
			rank:    -1, itemRank: -1,
		},
		{
			name: "no status: only what is not pushed",
			snap: &handoff.Snapshot{Source: handoff.SourceInfo{Messages: 50}, GitSeen: &handoff.GitSeen{Unpushed: []string{"2222222"}}},
			want: []string{"Commit not pushed (no `git push` after it in the transcript): `2222222`."},
			rank: rankGitSeen, itemRank: -1,
		},
		{
			name: "agents' state files are counted, not named",
			snap: &handoff.Snapshot{Source: handoff.SourceInfo{Messages: 50}, GitSeen: &handoff.GitSeen{
				Status:    &handoff.MessageRef{Index: 40},
				Modified:  []string{".gitignore", "srv/.codex/history.jsonl", "srv/.codex/state_5.sqlite", ".claude/settings.local.json", ".aider.chat.history.md"},
				Untracked: []string{".codex/"},
			}},
			want: []string{
				"uncommitted changes in `.gitignore` and 4 files of the agents' own state in `srv/.codex/`, `.claude/`, `.aider.chat.history.md`; untracked 1 file of the agents' own state in `.codex/`.",
			},
			wantNot: []string{"history.jsonl", "state_5"},
			rank:    rankGitSeen, itemRank: -1,
		},
		{
			name: "a failed push and a later unknown step",
			snap: &handoff.Snapshot{Source: handoff.SourceInfo{Messages: 50}, GitSeen: &handoff.GitSeen{
				Status: &handoff.MessageRef{Index: 10}, Clean: true, Edited: []string{"x.go"},
				Changed: &handoff.MessageRef{Index: 20}, ChangedBy: "git pull",
				PushFailed: &handoff.MessageRef{Index: 30}, PushError: "! [rejected] main -> main (fetch first)",
			}},
			want: []string{
				"As of the last `git status` (message 10 of 50): working tree clean. Edited after it (uncommitted as far as the transcript shows): `x.go`. Message 20 (`git pull`) may have changed this since: run `git status` first.",
				"The `git push` at message 30 failed: `! [rejected] main -> main (fetch first)`.",
			},
			rank: rankGitSeenStale, itemRank: -1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pieces := buildPieces(tc.snap, "handoff show")
			var texts []string
			for _, p := range pieces {
				if p.sec == secGit {
					texts = append(texts, p.text)
				}
			}
			all := strings.Join(texts, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("git section lacks %q:\n%s", w, all)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(all, w) {
					t.Errorf("git section has %q:\n%s", w, all)
				}
			}
			if got := minRankOf(pieces, "As of the last `git status`"); tc.snap.GitSeen.Status != nil && got != tc.rank {
				t.Errorf("summary rank %d, want %d", got, tc.rank)
			}
			if got := minRank(pieces, secGit, "git files"); got != tc.itemRank {
				t.Errorf("first path item rank %d, want %d", got, tc.itemRank)
			}
		})
	}
}

// TestGitSeenFitsBudget: the summary survives a small budget when the
// session ended on git work, and the prompt stays within its budget.
func TestGitSeenFitsBudget(t *testing.T) {
	s := gitSeenSnapshot("commit this")
	s.NextStep = "Commit the parser."
	res, err := Compile(s, Options{Budget: 300, Counter: testCounter(t)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Tokens > 300 {
		t.Fatalf("prompt %d tokens over budget 300", res.Tokens)
	}
	if !strings.Contains(res.Prompt, "uncommitted changes in `library.py`") || !strings.Contains(res.Prompt, "not pushed") {
		t.Errorf("git summary missing at 300 tokens:\n%s", res.Prompt)
	}
}

// The header's branch: the metadata's, corrected by the branch the
// transcript's git output last named; none is added where the metadata
// has none (the Git section names it).
func TestHeaderBranchFollowsGitSeen(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, meta, seen, want, not string
	}{
		{"switched", "main", "001-feature", "branch 001-feature", "branch main"},
		{"same", "main", "main", "branch main", ""},
		{"no metadata", "", "001-feature", "", "branch"},
		{"nothing seen", "main", "", "branch main", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &handoff.Snapshot{Source: handoff.SourceInfo{GitBranch: tt.meta}}
			if tt.seen != "" {
				s.GitSeen = &handoff.GitSeen{Branch: tt.seen, Head: tt.seen}
			}
			h := header(s)
			if tt.want != "" && !strings.Contains(h, tt.want) {
				t.Errorf("header %q lacks %q", h, tt.want)
			}
			if tt.not != "" && strings.Contains(h, tt.not) {
				t.Errorf("header %q has %q", h, tt.not)
			}
		})
	}
}

// TestGitOverflowNeedsItsStatus: a path past the status line's inline
// list is shown only beside that line, never as the whole git state.
func TestGitOverflowNeedsItsStatus(t *testing.T) {
	t.Parallel()
	s := &handoff.Snapshot{Source: handoff.SourceInfo{Messages: 50}, GitSeen: &handoff.GitSeen{
		Status:   &handoff.MessageRef{Index: 40},
		Modified: []string{"a.go", "b.go", "c.go", "d.go", "e.go", "f.go"},
	}}
	b := &builder{}
	b.gitSeen(s)
	c := &compilation{snap: s, pieces: b.pieces}
	chosen := make([]bool, len(c.pieces))
	tree := -1
	for i, p := range c.pieces {
		chosen[i] = p.kind == "git files"
		if p.kind == "git tree" {
			tree = i
		}
	}
	if tree < 0 {
		t.Fatalf("no status line among %+v", c.pieces)
	}
	if v := c.view(chosen); len(v.Sections) != 0 {
		t.Errorf("overflow paths shown without their status line: %+v", v.Sections)
	}
	chosen[tree] = true
	if v := c.view(chosen); len(v.Sections) != 1 || !strings.Contains(v.Sections[0].Body, "- uncommitted: `f.go`") {
		t.Errorf("status line and overflow = %+v", v.Sections)
	}
}

// TestSettledErrorsHeading: when no open error is shown, the errors
// section does not say "open" over fixed ones.
func TestSettledErrorsHeading(t *testing.T) {
	t.Parallel()
	fixed := handoff.ErrorRecord{ID: "e1", Command: "go test ./...", Message: "--- FAIL: TestX", Resolution: handoff.ResolutionFixed}
	open := handoff.ErrorRecord{ID: "e2", Command: "go vet ./...", Message: "vet: bad printf", Resolution: handoff.ResolutionUnresolved}
	for _, tc := range []struct {
		errs []handoff.ErrorRecord
		want string
	}{
		{[]handoff.ErrorRecord{fixed}, "## " + settledErrorsTitle},
		{[]handoff.ErrorRecord{fixed, open}, "## Open errors (newest first)"},
	} {
		res := compileWith(t, &handoff.Snapshot{Goal: "Fix the tests.", Errors: tc.errs}, 2000)
		if !strings.Contains(res.Prompt, tc.want) {
			t.Errorf("errors %+v: prompt lacks %q:\n%s", tc.errs, tc.want, res.Prompt)
		}
	}
}

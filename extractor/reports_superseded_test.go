package extractor

import (
	"context"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

// TestKeyLinesSuperseded: a key line about a thing the session spoke of
// again afterwards is not quoted as current — a versioned file produced
// anew under another version (in a tool call, its output or a later
// message), or a verdict on a name a later line gives a verdict on —
// while a line whose file is only changed later, or whose version the
// later mentions repeat, stays.
func TestKeyLinesSuperseded(t *testing.T) {
	t.Parallel()
	pad := strings.Repeat("Some narration about the work that carries nothing a successor needs. ", 6)
	cases := []struct {
		name string
		// build adds the messages after the request and the report; the
		// last message is added by the test.
		report  string
		build   func(c *sessiontest.Convo)
		want    []string
		dropped []string
	}{
		{
			name:   "a later copy under another version",
			report: "## Versions\n- `paper_v0.43.pdf` (current) - Updated C17\n- `notes.md` documents the build\n",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "cp paper.pdf ../paper_v0.44.pdf && echo done", "done", 0)
			},
			want:    []string{"`notes.md` documents the build"},
			dropped: []string{"paper_v0.43.pdf"},
		},
		{
			name:   "a later listing names the next version",
			report: "## Release\n- Built `handoff-1.2.3.tar.gz` (current): 42 files, verified\n",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "ls dist", "handoff-1.2.3.tar.gz\nhandoff-1.2.4.tar.gz\n", 0)
			},
			dropped: []string{"handoff-1.2.3"},
		},
		{
			name:   "later mentions of the same version keep the line",
			report: "## Versions\n- `paper_v0.43.pdf` (current) - Updated C17, 25 pages, verified\n",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "ls ../paper_v0.43.pdf", "../paper_v0.43.pdf", 0)
				c.Bash("", "cp x ../mypaper_v0.44.pdf", "", 0) // another file's stem
			},
			want: []string{"`paper_v0.43.pdf` (current)"},
		},
		{
			name:   "a line naming both versions is not superseded by them",
			report: "## Upgrade\n- `schema_v1.json` → `schema_v2.json`: migrated, 12 tests pass\n",
			build: func(c *sessiontest.Convo) {
				c.Bash("", "cat schema_v2.json", "{}", 0)
			},
			want: []string{"`schema_v1.json` → `schema_v2.json`"},
		},
		{
			name:   "a later verdict on the same file",
			report: "## Status\n- ❌ `parser.c` fails: 12 errors\n- `lexer.c` builds cleanly\n",
			build: func(c *sessiontest.Convo) {
				c.Say("Fixed the include: `parser.c` now builds.")
			},
			want:    []string{"`lexer.c` builds cleanly"},
			dropped: []string{"`parser.c` fails"},
		},
		{
			name:   "a pending part of the plan, later reported done",
			report: "## Plan\n- Phase 2: simplify the context loader ⏳ PENDING\n- Phase 3: review skill, next after that\n",
			build: func(c *sessiontest.Convo) {
				c.Say("STATUS: Phase 1 ✅ + Phase 2 ✅, the loop is two thirds done.")
			},
			want:    []string{"Phase 3: review skill"},
			dropped: []string{"Phase 2: simplify"},
		},
		{
			name:   "a change is not undone by a later change",
			report: "## Summary\n- Created `docs/SUMMARY.md` as an executive summary of the 10 systems\n",
			build: func(c *sessiontest.Convo) {
				c.Say("Updated `docs/SUMMARY.md`: renamed a row.")
			},
			want: []string{"Created `docs/SUMMARY.md`"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := sessiontest.NewConvo(t)
			c.User("finish the paper and the release")
			c.Say(tc.report + pad)
			tc.build(c)
			c.Say("All done, see above.")
			got, _ := conversation.KeyLines(c.Msgs, len(c.Msgs)-1, c.Msgs[0].Ref())
			var texts []string
			for _, k := range got {
				texts = append(texts, k.Text)
			}
			all := strings.Join(texts, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("key lines lack %q:\n%s", w, all)
				}
			}
			for _, d := range tc.dropped {
				if strings.Contains(all, d) {
					t.Errorf("key lines quote the superseded %q:\n%s", d, all)
				}
			}
		})
	}
}

// TestRealKeyLinesSuperseded: on vsla-paper, the report that called
// `vsla_paper_v0.43.pdf` current was followed by v0.44 and v0.45 builds;
// its version lines are no longer quoted as key lines.
func TestRealKeyLinesSuperseded(t *testing.T) {
	t.Parallel()
	msgs := realMessages(t, "claude-code/vsla-paper-0a725fb5-609lines.jsonl")
	snap, err := Build(context.Background(), &handoff.Transcript{Messages: msgs}, NewHeuristic(nil))
	if err != nil {
		t.Fatal(err)
	}
	if snap.EndState == nil {
		t.Fatal("no end state")
	}
	for _, k := range snap.EndState.KeyLines {
		if strings.Contains(k.Text, "vsla_paper_v0.43.pdf") {
			t.Errorf("key line quotes the superseded version: %q", k.Text)
		}
	}
}

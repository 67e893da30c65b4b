package extractor

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
	"github.com/handoff-cli/handoff/transcript"
)

func TestNoteLines(t *testing.T) {
	tests := []struct {
		name      string
		text      string
		want, not []string
	}{
		{
			name: "italic header and footer lines are dropped",
			text: "## Status\n- parser done\n\n---\n\n*Last Updated: 2025-07-17 - Analysis Complete*\n*Next Update: After Phase 1*",
			want: []string{"## Status", "- parser done"},
			not:  []string{"Last Updated", "Next Update", "---"},
		},
		{
			name: "state lines under another heading keep that heading",
			text: "## Modules\n**Core (core.c) - 100% Complete**\n- [x] error strings\n#### Notes\nsome prose\n- ❌ unified.c does not compile\n- plain bullet",
			want: []string{"**Core (core.c) - 100% Complete**", "- [x] error strings", "#### Notes", "- ❌ unified.c does not compile"},
			not:  []string{"some prose", "plain bullet", "## Modules"},
		},
		{
			name: "heading words match whole words only",
			text: "STORY EXPLANATION:\n1. the loader was slow\n## Tissue samples\n- none",
			not:  []string{"EXPLANATION", "loader", "Tissue"},
		},
		{
			name: "a section nobody needs is dropped",
			text: "## History\n- long story\n## Next steps\n- port the AST",
			want: []string{"## Next steps", "- port the AST"},
			not:  []string{"History", "long story"},
		},
		{
			name: "label lines head the lines below them",
			text: "ANALYSIS:\nwe looked\nNEXT:\n- Phase 3: review skill",
			want: []string{"NEXT:", "- Phase 3: review skill"},
			not:  []string{"we looked"},
		},
		{
			name: "a short text without headings is kept whole, boilerplate aside",
			text: "Use dlopen plugins for backends.\nLast updated: today",
			want: []string{"Use dlopen plugins for backends."},
			not:  []string{"Last updated"},
		},
		{
			name: "a heading with nothing under it is dropped",
			text: "RESULTS:\nNEXT:\n- Phase 3: review skill\n## Open\n",
			want: []string{"NEXT:", "- Phase 3: review skill"},
			not:  []string{"RESULTS:", "## Open"},
		},
		{
			name: "code fences are not lines of state",
			text: "## ✅ Build\n```bash\n$ make\nok\n```",
			want: []string{"## ✅ Build", "$ make"},
			not:  []string{"```"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(facts.NoteLines(tc.text), "\n")
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in:\n%s", w, got)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("kept %q in:\n%s", n, got)
				}
			}
		})
	}
}

// TestFileNotesJoinEdits: an edit of a big document changes one part, so
// the note joins the edits newest first back to the last whole write,
// without what a later edit replaced.
func TestFileNotesJoinEdits(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("Update the status doc")
	c.Call("", "Write", map[string]string{"file_path": "/repo/STATUS.md", "content": "# Status\n## Current\n- stale whole-file text"})
	c.Call("", "Write", map[string]string{"file_path": "/repo/STATUS.md", "content": "# Status\n## Current\n- lexer works\n## Next Priority\n- use cuFFT for the transform"})
	c.Call("", "Edit", map[string]string{"file_path": "/repo/STATUS.md", "old_string": "## Next Priority\n- use cuFFT for the transform", "new_string": "## Next Priority\n- write the FFT from scratch, no cuFFT"})
	c.Call("", "Edit", map[string]string{"file_path": "/repo/STATUS.md", "old_string": "x", "new_string": "#### ❌ BROKEN\n- unified.c fails to build"})
	c.Call("", "Edit", map[string]string{"file_path": "/repo/STATUS.md", "old_string": "y", "new_string": "---\n*Last Updated: today*"})
	snap := build(t, c, handoff.SessionInfo{CWD: "/repo"})
	if len(snap.FileNotes) != 1 {
		t.Fatalf("file notes = %+v", snap.FileNotes)
	}
	n := snap.FileNotes[0]
	for _, want := range []string{"unified.c fails to build", "from scratch", "lexer works"} {
		if !strings.Contains(n.Text, want) {
			t.Errorf("note lacks %q:\n%s", want, n.Text)
		}
	}
	for _, not := range []string{"Last Updated", "use cuFFT for the transform", "stale whole-file"} {
		if strings.Contains(n.Text, not) {
			t.Errorf("note keeps %q (footer, replaced or overwritten):\n%s", not, n.Text)
		}
	}
	if strings.Index(n.Text, "BROKEN") > strings.Index(n.Text, "from scratch") {
		t.Errorf("newest edit should come first:\n%s", n.Text)
	}
	if n.Source.Index != 5 {
		t.Errorf("source = %d, want the newest write (5)", n.Source.Index)
	}
}

// TestFileNotesOpenFirst: within one write, the sections that say
// something is open come before long lists of finished work.
func TestFileNotesOpenFirst(t *testing.T) {
	var doc strings.Builder
	for _, m := range []string{"core", "tensor", "ops", "io"} {
		doc.WriteString("**" + m + " module - 100% Complete**\n- [x] implemented\n- [x] tested\n")
	}
	doc.WriteString("#### ❌ BROKEN\n**unified module - 15% Complete**\n- [ ] 40+ functions missing\n")
	c := sessiontest.NewConvo(t)
	c.User("Write the status")
	c.Call("", "Write", map[string]string{"file_path": "/repo/STATUS.md", "content": doc.String()})
	snap := build(t, c, handoff.SessionInfo{CWD: "/repo"})
	if len(snap.FileNotes) != 1 {
		t.Fatalf("file notes = %+v", snap.FileNotes)
	}
	text := snap.FileNotes[0].Text
	if i, j := strings.Index(text, "40+ functions missing"), strings.Index(text, "core module"); i < 0 || j < 0 || i > j {
		t.Errorf("the open section should lead, the finished ones follow:\n%s", text)
	}
}

func TestFileNotesArchiveLast(t *testing.T) {
	tests := []struct{ path string }{
		{"/repo/docs/archive/status-2024.md"},
		{"/repo/docs/previous-status-notes.md"},
		{"/repo/history/TODO.md"},
		{"/repo/STATUS.old.md"},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			c := sessiontest.NewConvo(t)
			c.User("Move the history out of the status file")
			c.Call("", "Write", map[string]string{"file_path": "/repo/STATUS.md", "content": "## Current\n- builds with unified API off"})
			c.Call("", "Write", map[string]string{"file_path": tc.path, "content": "## Current state (before refactoring)\n- fragmented approaches"})
			snap := build(t, c, handoff.SessionInfo{CWD: "/repo"})
			if len(snap.FileNotes) != 2 || snap.FileNotes[0].Path != "STATUS.md" {
				t.Errorf("file notes = %+v: the status file must come before the history file written after it", snap.FileNotes)
			}
		})
	}
}

func TestLateReport(t *testing.T) {
	long := "## Status\nPhase 1 and 2 are done.\n\n### Completed\n- removed the loader\n- trimmed the hooks\n\n### 🎯 Next Priority\n- Implement the GPU kernel in `src/gpu.cu`\n- validate against the CPU path\n\n" + strings.Repeat("Some narration about what was done and why it matters here. ", 8)
	done := "## Completed Updates\n- ✅ macros added\n- ✅ compiles cleanly\n\n" + strings.Repeat("Some narration about what was done and why it matters here. ", 10)
	tests := []struct {
		name       string
		report     string
		last       string
		wantNote   bool
		wantText   string
		wantBefore [2]string // the first should come before the second
	}{
		{"short close after a status report", long, "Done!", true, "Implement the GPU kernel", [2]string{"Next Priority", "Completed"}},
		{"a long last message speaks for itself", long, strings.Repeat("The final report says everything. ", 20), false, "", [2]string{}},
		{"a report of finished work", done, "Done! Sleep well.", true, "compiles cleanly", [2]string{"macros added", "compiles cleanly"}},
		{"a short report", "Next: run the tests.", "Done!", false, "", [2]string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t)
			c.User("Finish phase 2")
			c.Say(tc.report)
			c.User("thanks, commit it")
			c.Say(tc.last)
			text, src, ok := facts.LateReport(c.Msgs)
			if ok != tc.wantNote {
				t.Fatalf("report = %q, want one: %v", text, tc.wantNote)
			}
			if !ok {
				return
			}
			if !strings.Contains(text, tc.wantText) || src.Index != 1 {
				t.Errorf("report = %q from %d, want %q from message 1", text, src.Index, tc.wantText)
			}
			if strings.Index(text, tc.wantBefore[0]) > strings.Index(text, tc.wantBefore[1]) {
				t.Errorf("open items should lead:\n%s", text)
			}
			if strings.Count(text, "narration") > 1 {
				t.Errorf("a paragraph should be cut to its lead:\n%s", text)
			}
		})
	}
}

func TestReasoningWork(t *testing.T) {
	withThinking := func(c *sessiontest.Convo, thinking, tool string) {
		c.N++
		m := c.Push(handoff.Message{Role: handoff.RoleAssistant, Thinking: thinking,
			ToolCalls: []handoff.ToolCall{{ID: "call_" + sessiontest.Itoa(c.N), Name: tool, Input: []byte(`{"input":"*** Begin Patch"}`)}}})
		c.Result(m.ToolCalls[0].ID, "ok", false, 0)
	}
	tests := []struct {
		name      string
		finalText string
		want      []string
	}{
		{"ended inside a tool loop", "", []string{"Designing stream parsing", "processResponse", "Then: Verifying URL handling"}},
		{"the agent spoke last", "All done: streaming works.", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t)
			c.User("Make the chat stream from LM Studio")
			c.Say("I'll look at the chat helpers first.")
			withThinking(c, "**Designing stream parsing**\n\nI'm mapping changes to handleLocalChat and processResponse to parse SSE with a buffer.", "apply_patch")
			withThinking(c, "**Verifying URL handling**", "apply_patch")
			if tc.finalText != "" {
				c.Say(tc.finalText)
			}
			text, _, ok := facts.ReasoningWork(c.Msgs)
			if tc.want == nil {
				if ok {
					t.Errorf("reasoning %q, want none after the agent's last words", text)
				}
				return
			}
			if !ok {
				t.Fatal("no reasoning")
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("reasoning lacks %q:\n%s", w, text)
				}
			}
		})
	}
}

// TestFileNotesReal: on real sessions, the note of a status document
// rewritten by edits carries its state, not its footer; a session that
// ended inside a tool loop says what it was doing.
func TestFileNotesReal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file, path string
		want       []string
		not        []string
	}{
		{"claude-code/vsla-5f8cbb78-sidechain-532lines.jsonl", "STATUS.md", []string{"_basic", "BROKEN"}, []string{"*Last Updated"}},
		{"claude-code/vsla-d7d349f9-241lines.jsonl", "STATUS.md", []string{"Single-kernel"}, nil},
		{"codex/chatbot-ui-codex0.58-shell-lmstudio.jsonl", "(reasoning)", []string{"processResponse"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			p := "../../shared/transcripts/" + tc.file
			if _, err := os.Stat(p); err != nil {
				t.Skipf("real transcript absent: %v", err)
			}
			tr, err := transcript.ParseFile(context.Background(), p, transcript.Options{})
			if err != nil {
				t.Fatal(err)
			}
			conv := conversation.Read(tr)
			notes := conv.FileNotes
			if tc.path == "(reasoning)" && conv.End != nil {
				notes = []handoff.FileNote{{Path: tc.path, Text: conv.End.Reasoning}}
			}
			for _, n := range notes {
				if n.Path != tc.path {
					continue
				}
				for _, w := range tc.want {
					if !strings.Contains(n.Text, w) {
						t.Errorf("%s note lacks %q", tc.path, w)
					}
				}
				for _, w := range tc.not {
					if strings.Contains(n.Text, w) {
						t.Errorf("%s note keeps %q", tc.path, w)
					}
				}
				return
			}
			t.Errorf("no note for %s in %d notes", tc.path, len(conv.FileNotes))
		})
	}
}

// BenchmarkFileNotes measures the notes pass on the two largest shared
// transcripts against the whole conversation read it is part of (the
// baseline, in the same run).
func BenchmarkFileNotes(b *testing.B) {
	for _, name := range []string{"claude-code/vsla-5f8cbb78-sidechain-532lines.jsonl", "specstory-md/specstory-claude-code-ok-lets-start-1.2MB.md"} {
		p := "../../shared/transcripts/" + name
		if _, err := os.Stat(p); err != nil {
			b.Skipf("real transcript absent: %v", err)
		}
		tr, err := transcript.ParseFile(context.Background(), p, transcript.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/ReadConversation", func(b *testing.B) {
			for b.Loop() {
				conversation.Read(tr)
			}
		})
		b.Run(name+"/fileNotes", func(b *testing.B) {
			for b.Loop() {
				facts.FileNotes(tr.Messages, tr.Session.CWD, nil)
			}
		})
	}
}

package compiler

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// minRankOf returns the best rank of the pieces whose text holds w (-1: none).
func minRankOf(pieces []piece, w string) int {
	best := -1
	for _, p := range pieces {
		if strings.Contains(p.text, w) && (best < 0 || p.rank < best) {
			best = p.rank
		}
	}
	return best
}

// minRank returns the best rank of the pieces of kind in sec (-1: none).
func minRank(pieces []piece, sec section, kind string) int {
	best := -1
	for _, p := range pieces {
		if p.sec == sec && p.kind == kind && (best < 0 || p.rank < best) {
			best = p.rank
		}
	}
	return best
}

func carriedSnapshot(at, messages int, atEnd bool, commitAt int) *handoff.Snapshot {
	s := &handoff.Snapshot{
		Source: handoff.SourceInfo{Messages: messages},
		Carried: &handoff.Carried{Source: handoff.MessageRef{Index: at}, AtEnd: atEnd, Sections: []handoff.CarriedSection{
			{Title: "Pending Tasks", Text: "- write the row encoder", Kind: "pending"},
			{Title: "Current Work", Text: "Writing the CSV header", Kind: "current_work"},
			{Title: "All user messages", Text: "- add CSV export", Kind: "user_messages"},
			{Title: "Errors and fixes", Text: "- nil map: fixed with make()", Kind: "problems"},
		}},
		FileNotes: []handoff.FileNote{{Path: "STATUS.md", Text: "## Next\n- ship the exporter", Source: handoff.MessageRef{Index: messages - 2}}},
		Requests:  []handoff.Request{{Text: "add CSV export", Source: handoff.MessageRef{Index: 0}}},
	}
	if commitAt >= 0 {
		s.Commits = []handoff.Commit{{Hash: "abc1234", Message: "csv: header row", Source: handoff.MessageRef{Index: commitAt}}}
	}
	return s
}

// TestCarriedStale: a compaction summary followed by much work is
// labelled with how much followed and ranked below what came after; one
// followed by little work is quoted as it stands.
func TestCarriedStale(t *testing.T) {
	tests := []struct {
		name      string
		snap      *handoff.Snapshot
		label     string // "" = no staleness label
		userMsgs  bool   // the summary's list of the person's messages is shown
		belowNote bool   // its pending tasks rank below the file note
	}{
		{"summary ends the transcript", carriedSnapshot(99, 100, true, -1), "", true, false},
		{"little work after it", carriedSnapshot(95, 100, false, -1), "", true, false},
		{"a commit after it", carriedSnapshot(95, 100, false, 97), "as of message 96 of 100; 4 messages, 1 commit since", false, true},
		{"much work after it", carriedSnapshot(10, 100, false, 50), "as of message 11 of 100; 89 messages, 1 commit since", false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Compile(tc.snap, Options{Budget: 4000, Counter: testCounter(t)})
			if err != nil {
				t.Fatal(err)
			}
			if tc.label == "" && strings.Contains(res.Prompt, "as of message") {
				t.Errorf("labelled as stale:\n%s", res.Prompt)
			}
			if tc.label != "" && !strings.Contains(res.Prompt, "Pending Tasks ("+tc.label+")") {
				t.Errorf("want label %q:\n%s", tc.label, res.Prompt)
			}
			if got := strings.Contains(res.Prompt, "All user messages"); got != tc.userMsgs {
				t.Errorf("user messages shown = %v, want %v", got, tc.userMsgs)
			}
			pieces := buildPieces(tc.snap, "handoff show")
			pending, note := -1, minRank(pieces, secNotes, "file notes")
			for _, p := range pieces {
				if p.sec == secCarried && strings.HasPrefix(p.text, "Pending Tasks") && (pending < 0 || p.rank < pending) {
					pending = p.rank
				}
			}
			if got := pending > note; got != tc.belowNote {
				t.Errorf("pending rank %d, note rank %d: below = %v, want %v", pending, note, got, tc.belowNote)
			}
		})
	}
}

// TestCarriedNotRepeated: when the goal is the summary's primary request
// (markup and spacing aside), or the next step quotes the summary's next
// step, that section is not quoted a second time; a different one is.
func TestCarriedNotRepeated(t *testing.T) {
	request := "- **Port**: Port the command-line interface to Go, keeping every flag\n- **Import**: Add the import command with a --dry-run flag"
	step := "Based on the pinned issues, the next step would be to fix the lazy download bug in `library.py` before the release."
	for _, tc := range []struct {
		name, goal, next string
		request, step    bool // the section is shown
	}{
		{"both repeated",
			"- Port: Port the command-line interface to Go, keeping every flag\n- Import: Add the import …",
			"Carry on with what the assistant said comes next: “Based on the pinned issues, the next step would be to fix the lazy download bug in `library.py` bef…”",
			false, false},
		{"neither repeated",
			"Write the release notes for version two of the exporter",
			"Carry on with what the assistant said comes next: “Run the whole test suite and then tag the release candidate.”",
			true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := carriedSnapshot(99, 100, true, -1)
			s.Goal, s.NextStep = tc.goal, tc.next
			s.Carried.Sections = append(s.Carried.Sections,
				handoff.CarriedSection{Title: "Primary Request and Intent", Text: request, Kind: "request"},
				handoff.CarriedSection{Title: "Optional Next Step", Text: step, Kind: "next_step"})
			res, err := Compile(s, Options{Budget: 4000, Counter: testCounter(t)})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(res.Prompt, "Primary Request and Intent"); got != tc.request {
				t.Errorf("summary's request shown = %v, want %v:\n%s", got, tc.request, res.Prompt)
			}
			if got := strings.Contains(res.Prompt, "Optional Next Step"); got != tc.step {
				t.Errorf("summary's next step shown = %v, want %v:\n%s", got, tc.step, res.Prompt)
			}
		})
	}
}

// TestNotesRanking: a notes file written after the latest request ranks
// before one written earlier, a history file after both; the
// conversation's own notes (a report before a short close, reasoning at
// a tool loop's end) go where the session stopped.
func TestNotesRanking(t *testing.T) {
	s := &handoff.Snapshot{
		Requests: []handoff.Request{{Text: "update the status", Source: handoff.MessageRef{Index: 10}}},
		EndState: &handoff.EndState{
			Reasoning: "Designing stream parsing: processResponse", ReasoningSource: handoff.MessageRef{Index: 20},
			Report: "### Next Priority\n- implement the GPU kernel", ReportSource: handoff.MessageRef{Index: 18},
		},
		FileNotes: []handoff.FileNote{
			{Path: "docs/archive/previous-status.md", Text: "## Next\n- old plan", Source: handoff.MessageRef{Index: 16}},
			{Path: "STATUS.md", Text: "## Next\n- fresh plan", Source: handoff.MessageRef{Index: 15}},
			{Path: "TODO.md", Text: "## Next\n- earlier plan", Source: handoff.MessageRef{Index: 5}},
		},
	}
	ranks := map[string]int{}
	for _, p := range buildPieces(s, "handoff show") {
		for _, w := range []string{"old plan", "fresh plan", "earlier plan", "processResponse", "implement the GPU kernel"} {
			if strings.Contains(p.text, w) {
				if r, ok := ranks[w]; !ok || p.rank < r {
					ranks[w] = p.rank
				}
				if (w == "processResponse" || w == "implement the GPU kernel") && p.sec != secStop {
					t.Errorf("%q rendered in section %d, want the stop section", w, p.sec)
				}
			}
		}
	}
	// Open items below a long list of finished ones keep their rank.
	var done strings.Builder
	for range 8 {
		done.WriteString("## Module - 100% Complete\n- [x] implemented\n")
	}
	long := &handoff.Snapshot{FileNotes: []handoff.FileNote{{Path: "STATUS.md", Text: done.String() + "## Unified module\n- [ ] 40+ functions missing"}}}
	if r := minRankOf(buildPieces(long, "handoff show"), "40+ functions"); r > rankNotes+3 {
		t.Errorf("open block after 8 finished ones ranks %d, want <= %d", r, rankNotes+3)
	}
	if !(ranks["fresh plan"] < ranks["earlier plan"] && ranks["earlier plan"] < ranks["old plan"]) {
		t.Errorf("ranks %v: want fresh < earlier < archive", ranks)
	}
	if ranks["processResponse"] > rankLastLonger || ranks["implement the GPU kernel"] > rankLastLonger {
		t.Errorf("ranks %v: the conversation's notes should rank with the end state", ranks)
	}
	res, err := Compile(s, Options{Budget: 2000, Counter: testCounter(t)})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Current work (from the agent's reasoning", "Its last full report before that"} {
		if !strings.Contains(res.Prompt, w) {
			t.Errorf("prompt lacks %q:\n%s", w, res.Prompt)
		}
	}
	if strings.Contains(res.Prompt, "`(assistant") {
		t.Errorf("a conversation note was shown as a file:\n%s", res.Prompt)
	}
}

// TestUntestedChanges: the Tests section says when changes were never
// tested, or came after the last run, and when nothing was changed at all.
func TestUntestedChanges(t *testing.T) {
	t.Parallel()
	files := []handoff.FileChange{{Path: "a.go", Edits: 1}, {Path: "b.go", Edits: 2}}
	tests := []struct {
		name string
		snap *handoff.Snapshot
		want string
	}{
		{"never tested", &handoff.Snapshot{FilesModified: files}, "The test suite was not run in this session (no test command seen), so the changes to 2 files are untested."},
		{"edits after the run", &handoff.Snapshot{FilesModified: files, TestState: &handoff.TestState{Command: "go test ./...", Status: handoff.TestsPassing, EditsAfter: 3}}, "3 file edits came after it and the tests were not run again: the latest changes are unverified."},
		{"nothing changed", &handoff.Snapshot{}, "No file edits were seen (no code changed by an edit tool), and no tests and no build were run"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if r := minRankOf(buildPieces(tc.snap, "handoff show"), tc.want); r < 0 {
				t.Errorf("no piece says %q", tc.want)
			}
		})
	}
	// Untested changes rank above the files list: the warning outlives it.
	s := &handoff.Snapshot{FilesModified: files}
	p := buildPieces(s, "handoff show")
	if minRank(p, secTests, "test state") >= minRank(p, secWork, "files modified") {
		t.Error("the untested warning ranks below the files it is about")
	}
}

// TestKeyLinesPlacement: the best report lines rank with the end state,
// the rest later; all render in the stop section, oldest report first; a
// long last message speaks for itself and brings none.
func TestKeyLinesPlacement(t *testing.T) {
	t.Parallel()
	lines := []handoff.KeyLine{
		{Text: "❌ `conv()` is not implemented", Score: 6, Source: handoff.MessageRef{Index: 9}},
		{Text: "`matmul` 3.5× vs cuBLAS", Score: 5, Source: handoff.MessageRef{Index: 5}},
		{Text: "a", Score: 3, Source: handoff.MessageRef{Index: 9}},
		{Text: "b", Score: 3, Source: handoff.MessageRef{Index: 9}},
	}
	s := &handoff.Snapshot{EndState: &handoff.EndState{LastAssistant: "Done!", KeyLines: lines}}
	p := buildPieces(s, "handoff show")
	if r := minRankOf(p, "conv()"); r != rankKeyLines {
		t.Errorf("best line ranks %d, want %d", r, rankKeyLines)
	}
	if r := minRankOf(p, "“b”"); r < rankKeyLinesMore {
		t.Errorf("fourth line ranks %d, want ≥ %d", r, rankKeyLinesMore)
	}
	var order []string
	for _, x := range p {
		if x.kind == "report lines" {
			if x.sec != secStop {
				t.Errorf("%q in section %d", x.text, x.sec)
			}
			order = append(order, x.text)
		}
	}
	if len(order) != 4 || !strings.Contains(order[0], "matmul") {
		t.Errorf("order %q: want the older report's line first", order)
	}
	s.EndState.LastAssistant = strings.Repeat("A long final report. ", 80)
	if r := minRankOf(buildPieces(s, "handoff show"), "conv()"); r >= 0 {
		t.Error("key lines shown beside a long last message")
	}
}

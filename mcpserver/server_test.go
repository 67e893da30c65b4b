package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/store"
)

// fixture is a real SQLite store in a temporary directory holding two
// workflows: alpha (two sessions, in projA) and beta (one session, in
// projB). Alpha's second session reverses a decision of its first, fixes
// one error and leaves another open.
type fixture struct {
	dbPath       string
	projA, projB string
	alpha, beta  []*handoff.Snapshot
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	root := t.TempDir()
	f := &fixture{dbPath: filepath.Join(root, "handoff.db"), projA: filepath.Join(root, "projA"), projB: filepath.Join(root, "projB")}
	s, err := store.Open(ctx, f.dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

	sqlite := handoff.Decision{ID: "d1", Type: handoff.DecisionLibrary, Description: "Use SQLite for the snapshot store",
		Rationale: "embedded, no server to run", Alternatives: []string{"PostgreSQL", "flat JSON files"}}
	poll := handoff.Decision{ID: "d2", Type: handoff.DecisionApproach, Description: "Poll the transcript every second",
		Rationale: "simplest to write"}
	notify := handoff.Decision{ID: "d3", Type: handoff.DecisionApproach, Description: "Watch the transcript with fsnotify",
		Rationale: "polling missed appends and wasted CPU", Alternatives: []string{"polling"}}
	flaky := handoff.ErrorRecord{ID: "e1", Type: "test_failure", Message: "TestWatch fails: timeout waiting for append",
		Command: "go test ./follow", Resolution: handoff.ResolutionUnresolved}
	build := handoff.ErrorRecord{ID: "e2", Type: "build_error", Message: "undefined: fsnotify.NewWatcher",
		Command: "go build ./...", Resolution: handoff.ResolutionUnresolved}

	// Alpha, session 1: polling chosen, the build broken.
	a1 := &handoff.Snapshot{WorkflowID: "wf_alpha", CreatedAt: t0, Trigger: handoff.TriggerPause, Goal: "make watch follow live transcripts",
		Decisions: []handoff.Decision{sqlite, poll}, Errors: []handoff.ErrorRecord{build},
		GitState: &handoff.GitState{Available: true, Branch: "main", Commit: "aaaa111", Dirty: true, Modified: []string{"follow/follow.go"}},
		Usage:    handoff.Usage{ContextUtilization: 0.5}}
	// Alpha, session 2: polling reversed in favour of fsnotify, the build
	// fixed, a test failing.
	poll.SupersededBy = "d3"
	build.Resolution = handoff.ResolutionFixed
	a2 := &handoff.Snapshot{WorkflowID: "wf_alpha", CreatedAt: t0.Add(time.Hour), Trigger: handoff.TriggerExhaustion, Goal: "make watch follow live transcripts",
		NextStep:  "make TestWatch wait for the append event",
		Decisions: []handoff.Decision{sqlite, poll, notify}, Errors: []handoff.ErrorRecord{build, flaky},
		GitState: &handoff.GitState{Available: true, Branch: "watch-fsnotify", Commit: "bbbb222", Modified: []string{"follow/follow.go", "follow/follow_test.go"},
			Diffstat: "2 files changed, 40 insertions(+), 12 deletions(-)"},
		Commits:       []handoff.Commit{{Hash: "bbbb222", Message: "follow: watch with fsnotify"}},
		FilesModified: []handoff.FileChange{{Path: "follow/follow.go", Operations: []string{"Edit"}, Edits: 3}},
		Usage:         handoff.Usage{ContextUtilization: 0.86}}
	// Beta: another project that also chose a cache.
	b1 := &handoff.Snapshot{WorkflowID: "wf_beta", CreatedAt: t0.Add(30 * time.Minute), Trigger: handoff.TriggerManual, Goal: "speed up the API",
		Decisions: []handoff.Decision{{ID: "d1", Type: handoff.DecisionArchitecture, Description: "Cache rendered pages in Redis",
			Rationale: "the SQLite reads dominate p99"}},
		Errors: []handoff.ErrorRecord{{ID: "e1", Type: "command_failed", Message: "redis-server: command not found", Resolution: handoff.ResolutionDeferred}}}

	for _, c := range []struct {
		snap *handoff.Snapshot
		dir  string
		into *[]*handoff.Snapshot
	}{{a1, f.projA, &f.alpha}, {b1, f.projB, &f.beta}, {a2, f.projA, &f.alpha}} {
		if err := s.SaveSnapshot(ctx, c.snap, store.WorkflowInfo{Name: filepath.Base(c.dir), Dir: c.dir}); err != nil {
			t.Fatal(err)
		}
		*c.into = append(*c.into, c.snap)
	}
	return f
}

// connect starts the server on one end of a pair of pipes — the stdio
// transport's newline-delimited JSON-RPC, in process — and a client on the
// other, which runs the initialize handshake.
func connect(t *testing.T, f *fixture, dir string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	counter, err := capacity.NewCounter(capacity.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Options{
		Dir:     dir,
		Counter: counter,
		Version: "test",
		Open: func(ctx context.Context) (Store, error) {
			return store.Open(ctx, f.dbPath, store.Options{ReadOnly: true})
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	clientR, serverW := io.Pipe()
	serverR, clientW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, &mcp.IOTransport{Reader: serverR, Writer: serverW}) }()

	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: clientR, Writer: clientW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server: %v", err)
		}
	})
	return cs
}

// call calls a tool and decodes its structured content into out; it fails
// the test when the call is a tool error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	txt := textOf(t, res)
	if res.IsError {
		t.Fatalf("%s(%v) failed: %s", name, args, txt)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("%s: structured content %s: %v", name, raw, err)
	}
	return txt
}

func textOf(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("want one content block, got %d", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T, not text", res.Content[0])
	}
	return tc.Text
}

func TestInitializeAndListTools(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f, f.projA)
	init := cs.InitializeResult()
	if init.ServerInfo.Name != "handoff" || init.Capabilities.Tools == nil || !strings.Contains(init.Instructions, "not instructions") {
		t.Errorf("initialize: server %+v, capabilities %+v, instructions %q", init.ServerInfo, init.Capabilities, init.Instructions)
	}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s is not annotated read-only", tool.Name)
		}
		if tool.InputSchema == nil || tool.OutputSchema == nil || tool.Description == "" {
			t.Errorf("%s lacks a schema or a description", tool.Name)
		}
	}
	slices.Sort(names)
	want := []string{"decisions", "errors", "git_changes", "handoff_note", "list_snapshots", "list_workflows", "resume_prompt", "search", "search_decisions"}
	if !slices.Equal(names, want) {
		t.Errorf("tools = %v, want %v", names, want)
	}
}

func TestResumePrompt(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f, filepath.Join(f.projA, "sub", "dir")) // below alpha's directory
	a1, a2 := f.alpha[0], f.alpha[1]
	tests := []struct {
		name     string
		args     map[string]any
		snapshot string
		budget   int
	}{
		{"the server's directory", nil, a2.ID, 2000},
		{"a workflow prefix", map[string]any{"workflow": "wf_al", "budget": 600}, a2.ID, 600},
		{"a named snapshot", map[string]any{"snapshot": a1.ID[:10]}, a1.ID, 2000},
		{"another directory", map[string]any{"dir": f.projB}, f.beta[0].ID, 2000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out PromptOutput
			txt := call(t, cs, "resume_prompt", tt.args, &out)
			if out.SnapshotID != tt.snapshot || out.Budget != tt.budget {
				t.Errorf("snapshot %s budget %d, want %s %d", out.SnapshotID, out.Budget, tt.snapshot, tt.budget)
			}
			if out.Tokens <= 0 || out.Tokens > tt.budget {
				t.Errorf("tokens %d, budget %d", out.Tokens, tt.budget)
			}
			if txt != out.Prompt || !strings.Contains(txt, out.SnapshotID) {
				t.Errorf("text is not the prompt of %s:\n%s", out.SnapshotID, txt)
			}
		})
	}
	var out PromptOutput
	txt := call(t, cs, "resume_prompt", nil, &out)
	if !strings.Contains(txt, "make TestWatch wait for the append event") {
		t.Errorf("alpha's prompt lacks its next step:\n%s", txt)
	}
}

func TestListWorkflowsAndSnapshots(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f, f.projB)

	var wfs WorkflowsOutput
	call(t, cs, "list_workflows", nil, &wfs)
	if len(wfs.Workflows) != 2 || wfs.Workflows[0].ID != "wf_alpha" || wfs.Workflows[0].SessionCount != 2 {
		t.Errorf("workflows = %+v", wfs.Workflows)
	}
	call(t, cs, "list_workflows", map[string]any{"status": "paused"}, &wfs)
	if len(wfs.Workflows) != 0 {
		t.Errorf("paused workflows = %+v, want none", wfs.Workflows)
	}

	var snaps SnapshotsOutput
	call(t, cs, "list_snapshots", nil, &snaps) // the server's directory: beta
	if snaps.WorkflowID != "wf_beta" || len(snaps.Snapshots) != 1 || snaps.Snapshots[0].ID != f.beta[0].ID {
		t.Errorf("beta's snapshots = %+v", snaps)
	}
	txt := call(t, cs, "list_snapshots", map[string]any{"workflow": "wf_alpha"}, &snaps)
	if len(snaps.Snapshots) != 2 || snaps.Snapshots[0].ID != f.alpha[1].ID || snaps.Snapshots[0].OpenErrors != 1 || snaps.Snapshots[0].Decisions != 2 {
		t.Errorf("alpha's snapshots = %+v", snaps)
	}
	if !strings.Contains(txt, "session 2, exhaustion") || !strings.Contains(txt, "context 86%") {
		t.Errorf("text:\n%s", txt)
	}
	snaps = SnapshotsOutput{}
	call(t, cs, "list_snapshots", map[string]any{"all_workflows": true, "limit": 2}, &snaps)
	if snaps.WorkflowID != "" || len(snaps.Snapshots) != 2 || snaps.Snapshots[0].ID != f.alpha[1].ID || snaps.Snapshots[1].ID != f.beta[0].ID {
		t.Errorf("all snapshots, limit 2 = %+v", snaps)
	}
}

func TestDecisions(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f, f.projA)
	descriptions := func(out DecisionsOutput) []string {
		var d []string
		for _, r := range out.Decisions {
			d = append(d, r.WorkflowID+":"+r.ID)
		}
		return d
	}
	tests := []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"decisions", nil, []string{"wf_alpha:d1", "wf_alpha:d3"}},
		{"decisions", map[string]any{"superseded": true}, []string{"wf_alpha:d1", "wf_alpha:d2", "wf_alpha:d3"}},
		{"decisions", map[string]any{"type": "Library"}, []string{"wf_alpha:d1"}},
		{"decisions", map[string]any{"grep": "FSNOTIFY"}, []string{"wf_alpha:d3"}},
		{"decisions", map[string]any{"history": true, "superseded": true}, []string{"wf_alpha:d1", "wf_alpha:d2", "wf_alpha:d3", "wf_alpha:d1", "wf_alpha:d2"}},
		{"decisions", map[string]any{"dir": f.projB}, []string{"wf_beta:d1"}},
		{"search_decisions", map[string]any{"query": "sqlite"}, []string{"wf_alpha:d1", "wf_beta:d1"}},
		{"search_decisions", map[string]any{"query": "poll"}, []string{"wf_alpha:d3"}},
		{"search_decisions", map[string]any{"query": "poll", "superseded": true}, []string{"wf_alpha:d2", "wf_alpha:d3"}},
		{"search_decisions", map[string]any{"query": "redis", "type": "architecture"}, []string{"wf_beta:d1"}},
		{"search_decisions", map[string]any{"query": "no such text"}, nil},
	}
	for _, tt := range tests {
		var out DecisionsOutput
		txt := call(t, cs, tt.tool, tt.args, &out)
		got := descriptions(out)
		slices.Sort(got)
		slices.Sort(tt.want)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s(%v) = %v, want %v", tt.tool, tt.args, got, tt.want)
		}
		if len(tt.want) > 0 && !strings.HasPrefix(txt, dataNote) {
			t.Errorf("%s(%v): text does not start by saying it is data:\n%s", tt.tool, tt.args, txt)
		}
	}
	var out DecisionsOutput
	txt := call(t, cs, "decisions", map[string]any{"grep": "fsnotify"}, &out)
	if !strings.Contains(txt, `why: "polling missed appends and wasted CPU"`) || !strings.Contains(txt, `alternatives: "polling"`) {
		t.Errorf("text lacks the rationale or alternatives:\n%s", txt)
	}
}

func TestErrorsAndGitChanges(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f, f.projA)
	ids := func(out ErrorsOutput) []string {
		var d []string
		for _, r := range out.Errors {
			d = append(d, string(r.Resolution)+":"+r.Message)
		}
		return d
	}
	tests := []struct {
		args map[string]any
		want []string
	}{
		{nil, []string{"fixed:undefined: fsnotify.NewWatcher", "unresolved:TestWatch fails: timeout waiting for append"}},
		{map[string]any{"unresolved_only": true}, []string{"unresolved:TestWatch fails: timeout waiting for append"}},
		{map[string]any{"history": true, "type": "build_error"}, []string{"fixed:undefined: fsnotify.NewWatcher", "unresolved:undefined: fsnotify.NewWatcher"}},
		{map[string]any{"workflow": "wf_beta", "unresolved_only": true}, []string{"deferred:redis-server: command not found"}},
		{map[string]any{"grep": "go test"}, []string{"unresolved:TestWatch fails: timeout waiting for append"}},
	}
	for _, tt := range tests {
		var out ErrorsOutput
		call(t, cs, "errors", tt.args, &out)
		got := ids(out)
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("errors(%v) = %v, want %v", tt.args, got, tt.want)
		}
	}

	var git GitOutput
	txt := call(t, cs, "git_changes", nil, &git)
	if git.SnapshotID != f.alpha[1].ID || git.GitState == nil || git.GitState.Branch != "watch-fsnotify" || len(git.Commits) != 1 || len(git.FilesModified) != 1 {
		t.Errorf("git_changes = %+v", git)
	}
	for _, want := range []string{"Branch watch-fsnotify at bbbb222", "follow/follow_test.go", `bbbb222 "follow: watch with fsnotify"`, "follow/follow.go (3 edit(s): Edit)"} {
		if !strings.Contains(txt, want) {
			t.Errorf("git_changes text lacks %q:\n%s", want, txt)
		}
	}
	call(t, cs, "git_changes", map[string]any{"snapshot": f.alpha[0].ID}, &git)
	if git.GitState == nil || git.GitState.Branch != "main" || !git.GitState.Dirty {
		t.Errorf("git_changes of session 1 = %+v", git.GitState)
	}
	git = GitOutput{}
	txt = call(t, cs, "git_changes", map[string]any{"workflow": "wf_beta"}, &git)
	if git.GitState != nil || len(git.Commits) != 0 || git.SnapshotID != f.beta[0].ID || !strings.Contains(txt, "No git state was recorded.") {
		t.Errorf("beta recorded no git state, got %+v", git)
	}
}

// TestBadCalls checks that a wrong argument, a missing workflow or a
// snapshot of another workflow come back as tool errors (so the model can
// read them and retry) carrying the CLI's error class and exit code.
func TestBadCalls(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f, t.TempDir()) // a directory no workflow is recorded for
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"resume_prompt", map[string]any{"budget": -5}, "error invalid (handoff exit code 2): budget must be between 0 and 32000"},
		{"resume_prompt", map[string]any{"budget": "big"}, "validating \"arguments\""},
		{"resume_prompt", nil, "error not_found (handoff exit code 3)"},
		{"resume_prompt", map[string]any{"workflow": "wf_nope"}, "error not_found (handoff exit code 3)"},
		{"resume_prompt", map[string]any{"workflow": "wf_"}, "error invalid (handoff exit code 2): workflow prefix \"wf_\" is ambiguous"},
		{"git_changes", map[string]any{"workflow": "wf_beta", "snapshot": f.alpha[0].ID}, "belongs to workflow wf_alpha, not wf_beta"},
		{"decisions", map[string]any{"workflow": "wf_alpha", "type": "hunch"}, "error invalid (handoff exit code 2): unknown decision type \"hunch\""},
		{"decisions", map[string]any{"workflow": "wf_alpha", "limit": 100000}, "limit must be between 0 and 500"},
		{"search_decisions", map[string]any{"query": "  "}, "error invalid (handoff exit code 2): query is empty"},
		{"search_decisions", nil, "validating \"arguments\""},
		{"list_workflows", map[string]any{"status": "sleeping"}, "unknown status \"sleeping\""},
		{"errors", map[string]any{"workflow": "wf_alpha", "bogus": true}, "validating \"arguments\""},
		{"handoff_note", map[string]any{"note": "I renamed some files."}, "error invalid (handoff exit code 2): not a handoff note"},
		{"handoff_note", nil, "validating \"arguments\""},
	}
	for _, tt := range tests {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
		if err != nil {
			t.Errorf("%s(%v): a protocol error, not a tool error: %v", tt.tool, tt.args, err)
			continue
		}
		if txt := textOf(t, res); !res.IsError || !strings.Contains(txt, tt.want) {
			t.Errorf("%s(%v) = error %v %q, want a tool error containing %q", tt.tool, tt.args, res.IsError, txt, tt.want)
		}
	}
	// An unknown tool is the protocol's error, not a tool's.
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "pause"}); err == nil {
		t.Error("calling an unknown tool succeeded")
	}
}

// TestHandoffNote checks that the note tool echoes a note in the
// template's shape, adding the heading a note lacks, so the call the
// transcript keeps reads as the note.
func TestHandoffNote(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f, f.projA)
	var out NoteOutput
	txt := call(t, cs, "handoff_note", map[string]any{"note": "- Next: run make check\n- Done: renamed the files\n- Remember: TitleCase names"}, &out)
	want := "## Handoff note\n- Done: renamed the files\n- Next: run make check\n- Remember: TitleCase names\n"
	if out.Note != want || !strings.Contains(txt, want) {
		t.Errorf("note = %q (text %q), want %q", out.Note, txt, want)
	}
}

// TestStoreOpenedLazily starts the server before the database exists, as an
// agent launching it in a fresh project would: a call fails as not found,
// and once a snapshot is stored the next call finds it.
func TestStoreOpenedLazily(t *testing.T) {
	f := &fixture{dbPath: filepath.Join(t.TempDir(), "later.db"), projA: t.TempDir()}
	cs := connect(t, f, f.projA)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_workflows"})
	if err != nil {
		t.Fatal(err)
	}
	if txt := textOf(t, res); !res.IsError || !strings.Contains(txt, "error not_found (handoff exit code 3): no database at") {
		t.Fatalf("before the database exists: %v %q", res.IsError, txt)
	}
	s, err := store.Open(context.Background(), f.dbPath, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SaveSnapshot(context.Background(), &handoff.Snapshot{WorkflowID: "wf_new", Trigger: handoff.TriggerManual}, store.WorkflowInfo{Dir: f.projA}); err != nil {
		t.Fatal(err)
	}
	var out WorkflowsOutput
	call(t, cs, "list_workflows", nil, &out)
	if len(out.Workflows) != 1 || out.Workflows[0].ID != "wf_new" {
		t.Errorf("workflows = %+v", out.Workflows)
	}
}

// TestSearchTool: the search tool finds sessions of every workflow by the
// words of their snapshots, within one workflow by prefix, and quotes the
// snippet as data.
func TestSearchTool(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f, f.projA)
	tests := []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"query": "sqlite"}, []string{"wf_alpha", "wf_beta"}},
		{map[string]any{"query": "sqlite", "workflow": "wf_be"}, []string{"wf_beta"}},
		{map[string]any{"query": "no such words"}, nil},
	}
	for _, tt := range tests {
		var out FullTextOutput
		txt := call(t, cs, "search", tt.args, &out)
		var got []string
		for _, h := range out.Hits {
			if !slices.Contains(got, h.WorkflowID) {
				got = append(got, h.WorkflowID)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("search(%v) = %v, want %v", tt.args, got, tt.want)
		}
		if len(tt.want) > 0 && !strings.HasPrefix(txt, dataNote) {
			t.Errorf("search(%v): text does not say it is data:\n%s", tt.args, txt)
		}
	}
}

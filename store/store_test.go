package store

import (
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	handoff "github.com/handoff-cli/handoff"
)

// openTest opens a Store on path and closes it when the test ends.
func openTest(t testing.TB, path string) *Store {
	t.Helper()
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// tempDB returns a fresh database path in the test's temp dir.
func tempDB(t testing.TB) string {
	return filepath.Join(t.TempDir(), "nested", "handoff.db")
}

// wantCode fails unless err carries the handoff error code want.
func wantCode(t *testing.T, err error, want string) {
	t.Helper()
	if got := handoff.ErrorCode(err); got != want {
		t.Fatalf("error code = %q, want %q (err: %v)", got, want, err)
	}
}

// fullSnapshot is a snapshot with every field set, times in UTC with
// nanoseconds, for round-trip tests.
func fullSnapshot(workflowID string) *handoff.Snapshot {
	ts := time.Date(2025, 3, 14, 9, 26, 53, 589793238, time.UTC)
	return &handoff.Snapshot{
		SchemaVersion: handoff.SnapshotSchemaVersion,
		WorkflowID:    workflowID,
		// Each call is a distinct agent session (a distinct session of
		// its workflow); the session tests set their own.
		SessionID:   NewID("sess-"),
		CreatedAt:   ts,
		Trigger:     handoff.TriggerExhaustion,
		PauseReason: "context at 86%",
		Goal:        "add a SQLite store",
		Tasks: []handoff.Task{
			{ID: "1", Content: "schema", Status: handoff.TaskCompleted, Priority: "high"},
			{ID: "2", Content: "migrations", Status: handoff.TaskInProgress},
			{ID: "3", Content: "tests", Status: handoff.TaskPending, Priority: "low"},
		},
		CurrentTaskID: "2",
		NextTaskID:    "3",
		NextStep:      "write the concurrency test",
		GitState: &handoff.GitState{
			Available: true, Branch: "main", Commit: "abc123", StartCommit: "def456", Dirty: true,
			Modified: []string{"store/store.go"}, Staged: []string{"store/id.go"}, Untracked: []string{"store/x_test.go"},
			Diffstat: " 3 files changed, 120 insertions(+)",
		},
		Decisions: []handoff.Decision{
			{ID: "d1", Timestamp: ts.Add(-time.Hour), TaskID: "1", Type: handoff.DecisionLibrary, Description: "use sqlx",
				Rationale: "already in go.mod", Alternatives: []string{"database/sql", "gorm"}, Source: handoff.MessageRef{Index: 4, ID: "m4"}, SupersededBy: "d2"},
			{ID: "d2", Timestamp: ts.Add(-30 * time.Minute), Type: handoff.DecisionArchitecture, Description: "one file per table",
				Source: handoff.MessageRef{Index: 9}},
		},
		Errors: []handoff.ErrorRecord{
			{ID: "e1", Type: "build_error", Message: "undefined: Foo", Context: "building", Command: "go build ./...", Tool: "Bash",
				Resolution: handoff.ResolutionFixed, ResolutionNotes: "renamed", Source: handoff.MessageRef{Index: 11, ID: "m11"},
				ResolvedBy: &handoff.MessageRef{Index: 13, ID: "m13"}, Occurrences: 2},
			{ID: "e2", Type: "test_failure", Message: "TestX failed", Resolution: handoff.ResolutionUnresolved, Source: handoff.MessageRef{Index: 20}},
			{ID: "e3", Type: "tool_error", Message: "timeout", Resolution: handoff.ResolutionDeferred, Source: handoff.MessageRef{Index: 21}},
		},
		TestState: &handoff.TestState{Command: "go test ./...", Status: handoff.TestsFailing, FailingTests: []string{"TestX"},
			Summary: "1 failed", Source: handoff.MessageRef{Index: 20}},
		Usage: handoff.Usage{TokensUsed: 170000, ContextWindow: 200000, TokensRemainingEstimate: 30000, ContextUtilization: 0.85,
			Source: handoff.UsageProvider, Model: "claude-test", LLMCalls: 40, ToolCalls: 120, CostUSD: 1.25, SessionDurationSeconds: 3600.5,
			Extraction: &handoff.ExtractionUsage{Extractor: "llm", Model: "gpt-test", Calls: 3, CacheHits: 1, PromptTokens: 9000, CompletionTokens: 700}},
		FilesModified: []handoff.FileChange{{Path: "store/store.go", Operations: []string{"Write", "Edit"}, Edits: 5}},
		Source:        handoff.SourceInfo{Path: "/tmp/s.jsonl", Format: "claude-code", Agent: "claude-code", Model: "claude-test", CWD: "/work", Messages: 200, Warnings: 1},
	}
}

// minimalSnapshot is the least a caller must set.
func minimalSnapshot(workflowID string) *handoff.Snapshot {
	return &handoff.Snapshot{WorkflowID: workflowID, Trigger: handoff.TriggerManual, Goal: "goal of " + workflowID}
}

func TestOpenCreatesAndMigratesIdempotently(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := tempDB(t)
	for i := range 3 {
		s, err := Open(ctx, path, Options{})
		if err != nil {
			t.Fatalf("open #%d: %v", i, err)
		}
		v, err := userVersion(ctx, s.db)
		if err != nil {
			t.Fatal(err)
		}
		steps, _ := LoadMigrations(migrationFiles)
		if v != len(steps) {
			t.Errorf("open #%d: user_version = %d, want %d", i, v, len(steps))
		}
		var mode string
		if err := s.db.GetContext(ctx, &mode, "PRAGMA journal_mode"); err != nil || mode != "wal" {
			t.Errorf("journal_mode = %q (%v), want wal", mode, err)
		}
		var fk int
		if err := s.db.GetContext(ctx, &fk, "PRAGMA foreign_keys"); err != nil || fk != 1 {
			t.Errorf("foreign_keys = %d (%v), want 1", fk, err)
		}
		if i == 0 {
			if err := s.SaveSnapshot(ctx, minimalSnapshot("wf"), WorkflowInfo{}); err != nil {
				t.Fatal(err)
			}
		}
		list, _, err := s.ListSnapshots(ctx, ListFilter{})
		if err != nil || len(list) != 1 {
			t.Errorf("open #%d: %d snapshots (%v), want the 1 saved before", i, len(list), err)
		}
		if s.Path() != path {
			t.Errorf("Path() = %q, want %q", s.Path(), path)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	info, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o700 {
		t.Errorf("database dir mode = %v, want 0700", perm)
	}
}

func TestOpenRejects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name    string
		prepare func(t *testing.T, path string)
		opts    Options
		code    string
		text    string
	}{
		{
			name: "random bytes",
			prepare: func(t *testing.T, path string) {
				b := make([]byte, 8192)
				rand.Read(b)
				writeFile(t, path, b)
			},
			code: handoff.ECORRUPT, text: "not a handoff database (file is not SQLite or is damaged)",
		},
		{
			name: "text file",
			prepare: func(t *testing.T, path string) {
				writeFile(t, path, []byte(strings.Repeat("hello, not a database\n", 100)))
			},
			code: handoff.ECORRUPT, text: "not a handoff database",
		},
		{
			name: "another program's SQLite file",
			prepare: func(t *testing.T, path string) {
				s := openTest(t, path)
				mustExec(t, s, "PRAGMA application_id = 42")
			},
			code: handoff.ECORRUPT, text: "belongs to another program",
		},
		{
			name: "foreign tables, no application id",
			prepare: func(t *testing.T, path string) {
				s := openTest(t, path)
				mustExec(t, s, "PRAGMA application_id = 0")
				mustExec(t, s, "PRAGMA user_version = 0")
			},
			code: handoff.ECORRUPT, text: "tables of another program",
		},
		{
			name: "newer schema",
			prepare: func(t *testing.T, path string) {
				s := openTest(t, path)
				mustExec(t, s, "PRAGMA user_version = 999")
			},
			code: handoff.ECONFLICT, text: "newer than this build of handoff knows",
		},
		{
			name:    "read-only, missing file",
			prepare: func(t *testing.T, path string) {},
			opts:    Options{ReadOnly: true},
			code:    handoff.ENOTFOUND, text: "no database",
		},
		{
			name:    "empty path",
			prepare: nil,
			code:    handoff.EINVALID, text: "empty path",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := ""
			if tc.prepare != nil {
				path = tempDB(t)
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					t.Fatal(err)
				}
				tc.prepare(t, path)
			}
			s, err := Open(ctx, path, tc.opts)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded, want an error")
			}
			wantCode(t, err, tc.code)
			if !strings.Contains(err.Error(), tc.text) {
				t.Errorf("error %q does not say %q", err, tc.text)
			}
		})
	}
}

// writeFile writes b to path or fails the test.
func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// mustExec runs raw SQL on s or fails the test.
func mustExec(t testing.TB, s *Store, query string, args ...any) {
	t.Helper()
	if _, err := s.db.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

func TestReadOnly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := tempDB(t)
	rw := openTest(t, path)
	snap := fullSnapshot("wf-ro")
	if err := rw.SaveSnapshot(ctx, snap, WorkflowInfo{Name: "ro"}); err != nil {
		t.Fatal(err)
	}
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	got, err := ro.Snapshot(ctx, snap.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, snap) {
		t.Errorf("read-only load differs from the saved snapshot")
	}
	wantCode(t, ro.SaveSnapshot(ctx, minimalSnapshot("wf-ro"), WorkflowInfo{}), handoff.EINVALID)
	wantCode(t, ro.CachePut(ctx, "k", []byte("v")), handoff.EINVALID)
	wantCode(t, ro.SetWorkflowStatus(ctx, "wf-ro", handoff.WorkflowPaused, ""), handoff.EINVALID)
}

func TestLockedDatabaseIsUnavailable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := tempDB(t)
	holder := openTest(t, path)
	tx, err := holder.db.BeginTxx(ctx, nil) // BEGIN IMMEDIATE: holds the write lock
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec("UPDATE extraction_cache SET value = value"); err != nil {
		t.Fatal(err)
	}

	waiter, err := open(ctx, path, Options{}, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer waiter.Close()
	err = waiter.SaveSnapshot(ctx, minimalSnapshot("wf"), WorkflowInfo{})
	wantCode(t, err, handoff.EUNAVAILABLE)
	if !strings.Contains(err.Error(), "try again") {
		t.Errorf("error %q gives no hint", err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := waiter.SaveSnapshot(ctx, minimalSnapshot("wf"), WorkflowInfo{}); err != nil {
		t.Errorf("save after the lock is released: %v", err)
	}
}

func TestDSNEscapesPath(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "we?ird #dir %41")
	path := filepath.Join(dir, "db?x.db")
	s := openTest(t, path)
	if err := s.SaveSnapshot(ctx, minimalSnapshot("wf"), WorkflowInfo{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("database not at the literal path: %v", err)
	}
}

func TestDefaultPath(t *testing.T) {
	tests := []struct {
		name, xdg, home, want string
	}{
		{"xdg set", "/x/data", "/home/u", "/x/data/handoff/handoff.db"},
		{"xdg empty", "", "/home/u", "/home/u/.local/share/handoff/handoff.db"},
		{"xdg relative is ignored", "rel/data", "/home/u", "/home/u/.local/share/handoff/handoff.db"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("XDG_DATA_HOME", tc.xdg)
			t.Setenv("HOME", tc.home)
			got, err := DefaultPath()
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("DefaultPath() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestNewID(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 1000 {
		id := NewID("snap_")
		rest, ok := strings.CutPrefix(id, "snap_")
		if !ok || len(rest) != idLength {
			t.Fatalf("NewID = %q, want snap_ + %d chars", id, idLength)
		}
		for _, c := range rest {
			if !strings.ContainsRune(idAlphabet, c) {
				t.Fatalf("NewID = %q has %q outside the alphabet", id, c)
			}
		}
		if seen[id] {
			t.Fatalf("NewID repeated %q", id)
		}
		seen[id] = true
	}
}

func TestCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	steps := []struct {
		op     string // put or get
		key    string
		value  string
		wantOK bool
	}{
		{"get", "h1", "", false},
		{"put", "h1", `{"decisions":[]}`, false},
		{"get", "h1", `{"decisions":[]}`, true},
		{"put", "h1", "replaced", false},
		{"get", "h1", "replaced", true},
		{"put", "empty", "", false},
		{"get", "empty", "", true},
		{"get", "h2", "", false},
	}
	for i, st := range steps {
		switch st.op {
		case "put":
			if err := s.CachePut(ctx, st.key, []byte(st.value)); err != nil {
				t.Fatalf("step %d put: %v", i, err)
			}
		case "get":
			got, ok, err := s.CacheGet(ctx, st.key)
			if err != nil {
				t.Fatalf("step %d get: %v", i, err)
			}
			if ok != st.wantOK || string(got) != st.value {
				t.Errorf("step %d get %q = %q, %v; want %q, %v", i, st.key, got, ok, st.value, st.wantOK)
			}
			if ok && got == nil {
				t.Errorf("step %d: hit returned a nil slice", i)
			}
		}
	}
}

// TestManyOpenersOfANewDatabase: fifty stores opening one new file at
// the same moment all connect and migrate. (Across processes, switching
// the new file to WAL can answer BUSY without waiting in SQLite's busy
// handler; TestHookConcurrentProcesses in cmd/handoff covers that case,
// which connect's retry fixes.)
func TestManyOpenersOfANewDatabase(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "new.db")
	const n = 50
	errs := make(chan error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			s, err := Open(context.Background(), path, Options{})
			if err == nil {
				err = s.Close()
			}
			errs <- err
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

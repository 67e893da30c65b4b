package transcript

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/handoff-cli/handoff"
)

// writeZedDB writes Zed's threads.db with the columns crates/agent/src/
// db.rs creates and migrates to: the sample thread zstd-compressed (as
// save_thread_sync does) under id "thread-new", an older thread stored
// as plain JSON, and a subagent thread newer than both.
func writeZedDB(t *testing.T, path string, folder string) {
	t.Helper()
	thread, err := os.ReadFile(filepath.Join("testdata", "zed-thread.json"))
	if err != nil {
		t.Fatal(err)
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault))
	if err != nil {
		t.Fatal(err)
	}
	compressed := enc.EncodeAll(thread, nil)
	enc.Close()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	old := `{"version":"0.2.0","summary":"Old thread","updated_at":"2025-01-01T00:00:00Z","messages":[` +
		`{"id":0,"role":"user","segments":[{"type":"text","text":"hello"}],"tool_uses":[],"tool_results":[],"context":"","creases":[],"is_hidden":false},` +
		`{"id":1,"role":"assistant","segments":[{"type":"text","text":"Listing."}],"tool_uses":[{"id":"t1","name":"list_directory","input":{"path":"."}}],` +
		`"tool_results":[{"tool_use_id":"t1","is_error":false,"content":"src\nCargo.toml","output":null}],"context":"","creases":[],"is_hidden":false}],` +
		`"request_token_usage":[{"input_tokens":0},{"input_tokens":900,"output_tokens":20}]}`
	stmts := []struct {
		q    string
		args []any
	}{
		{`CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, updated_at TEXT NOT NULL, data_type TEXT NOT NULL, data BLOB NOT NULL)`, nil},
		{`ALTER TABLE threads ADD COLUMN parent_id TEXT`, nil},
		{`ALTER TABLE threads ADD COLUMN folder_paths TEXT`, nil},
		{`ALTER TABLE threads ADD COLUMN folder_paths_order TEXT`, nil},
		{`ALTER TABLE threads ADD COLUMN created_at TEXT`, nil},
		{`INSERT INTO threads VALUES ('thread-new', 'Make the retry test deterministic', '2025-11-20T10:42:00+00:00', 'zstd', ?, NULL, ?, '0', '2025-11-20T10:00:00+00:00')`, []any{compressed, folder + "\n/home/dev/other"}},
		{`INSERT INTO threads VALUES ('thread-old', 'Old thread', '2025-01-01T00:00:00+00:00', 'json', ?, NULL, ?, '0', '2025-01-01T00:00:00+00:00')`, []any{[]byte(old), folder}},
		{`INSERT INTO threads VALUES ('thread-sub', 'subagent', '2025-11-21T00:00:00+00:00', 'json', '{"title":"s","messages":[],"updated_at":"2025-11-21T00:00:00Z"}', 'thread-new', ?, '0', NULL)`, []any{folder}},
	}
	for _, s := range stmts {
		if _, err := db.Exec(s.q, s.args...); err != nil {
			t.Fatalf("%s: %v", s.q, err)
		}
	}
}

// TestZedStore reads the newest top-level thread of threads.db (named as
// the file or its folder), a legacy plain-JSON thread by --session, and
// finds the threads of a folder for `handoff latest`.
func TestZedStore(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	path := zedStores(home)[0]
	if err := mkdirAll(filepath.Dir(path)); err != nil {
		t.Fatal(err)
	}
	writeZedDB(t, path, "/home/dev/backoff")
	ctx := context.Background()
	for _, p := range []string{path, filepath.Dir(path)} {
		tr, err := ParseFile(ctx, p, Options{Strict: true})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		checkInvariants(t, tr)
		checkPairs(t, tr)
		// as the JSON sample reads (agentSamples)
		if got, want := sampleCounts(tr), [11]int{2, 4, 2, 3, 4, 3, 0, 0, 0, 1, 2}; got != want {
			t.Errorf("%s: counts %v, want %v", p, got, want)
		}
		s := tr.Session
		if s.ID != "thread-new" || s.Format != "zed" || s.Agent != "zed" || s.CWD != "/home/dev/backoff" || s.Model != "claude-sonnet-4-5" || s.Title == "" {
			t.Errorf("%s: session %+v", p, s)
		}
	}
	tr, err := ParseFile(ctx, path, Options{Session: "thread-old", Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	checkPairs(t, tr)
	if got, want := sampleCounts(tr), [11]int{1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 1}; got != want {
		t.Errorf("legacy thread: counts %v, want %v", got, want)
	}
	if _, err := ParseFile(ctx, path, Options{Session: "nope"}); handoff.ErrorCode(err) != handoff.ENOTFOUND {
		t.Errorf("--session nope: %v, want ENOTFOUND", err)
	}
	refs := findZed(ctx, home, "/home/dev/backoff")
	if len(refs) != 2 || refs[0].Session != "thread-new" || refs[1].Session != "thread-old" {
		t.Errorf("findZed = %+v", refs)
	}
	if refs := findZed(ctx, home, "/elsewhere"); len(refs) != 0 {
		t.Errorf("findZed(/elsewhere) = %+v", refs)
	}
}

// writeGooseDB writes Goose's sessions.db with the schema session_manager.rs
// creates (version 5), holding the JSONL sample's messages as rows, an
// older session and a sub-agent session newer than both.
func writeGooseDB(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "goose-session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)`,
		`INSERT INTO schema_version (version) VALUES (5)`,
		`CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '', user_set_name BOOLEAN DEFAULT FALSE,
			session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
			extension_data TEXT DEFAULT '{}', total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER, accumulated_total_tokens INTEGER,
			accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER, schedule_id TEXT, recipe_json TEXT, user_recipe_values_json TEXT)`,
		`CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL,
			content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL, timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT)`,
		`INSERT INTO sessions (id, name, working_dir, created_at, updated_at) VALUES ('20251201_1', 'older', '/home/dev/notes-app', '2025-12-01 08:00:00', '2025-12-01 08:10:00')`,
		`INSERT INTO sessions (id, name, working_dir, created_at, updated_at, input_tokens, output_tokens) VALUES ('20251205_2', 'Fix note sorting', '/home/dev/notes-app', '2025-12-05 09:00:00', '2025-12-05 09:30:00', 19800, 600)`,
		`INSERT INTO sessions (id, name, session_type, working_dir, created_at, updated_at) VALUES ('20251205_3', 'sub', 'sub_agent', '/home/dev/notes-app', '2025-12-05 10:00:00', '2025-12-05 10:00:00')`,
		`INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES ('20251201_1', 'user', '[{"type":"text","text":"hi"}]', 1764576000)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m struct {
			Role    string          `json:"role"`
			Created int64           `json:"created"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.Role == "" {
			continue // the metadata line: the session row holds it
		}
		if _, err := db.Exec(`INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES ('20251205_2', ?, ?, ?)`, m.Role, string(m.Content), m.Created); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGooseStore reads the newest of the person's sessions from
// sessions.db as the JSONL sample reads, another by --session, and finds
// the sessions of a directory.
func TestGooseStore(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	path := gooseStore(home)
	if err := mkdirAll(filepath.Dir(path)); err != nil {
		t.Fatal(err)
	}
	writeGooseDB(t, path)
	ctx := context.Background()
	jsonl, err := ParseFile(ctx, filepath.Join("testdata", "goose-session.jsonl"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, filepath.Dir(path)} {
		tr, err := ParseFile(ctx, p, Options{Strict: true})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		checkInvariants(t, tr)
		checkPairs(t, tr)
		if got, want := sampleCounts(tr), sampleCounts(jsonl); got != want {
			t.Errorf("%s: counts %v, the JSONL sample's %v", p, got, want)
		}
		s := tr.Session
		if s.ID != "20251205_2" || s.Format != "goose" || s.CWD != "/home/dev/notes-app" || s.Title != "Fix note sorting" {
			t.Errorf("%s: session %+v", p, s)
		}
		if a, b := describeTranscript(tr), describeTranscript(jsonl); strings.Count(a, "\n") != strings.Count(b, "\n") {
			t.Errorf("%s: %d lines of description, the JSONL sample %d", p, strings.Count(a, "\n"), strings.Count(b, "\n"))
		}
	}
	if tr, err := ParseFile(ctx, path, Options{Session: "20251201_1"}); err != nil || len(tr.Messages) != 1 {
		t.Errorf("--session 20251201_1: %v", err)
	}
	if _, err := ParseFile(ctx, path, Options{Session: "nope"}); handoff.ErrorCode(err) != handoff.ENOTFOUND {
		t.Errorf("--session nope: %v, want ENOTFOUND", err)
	}
	refs := findGooseAll(ctx, home, "/home/dev/notes-app")
	if len(refs) != 2 || refs[0].Session != "20251205_2" || refs[0].Updated.IsZero() {
		t.Errorf("findGooseAll = %+v", refs)
	}
}

// TestNewAgentFinders finds Amp's, Qwen Code's and Antigravity's sessions of a directory
// where each agent keeps them.
func TestNewAgentFinders(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	ctx := context.Background()
	copyTo := func(src, dst string) {
		b, err := os.ReadFile(filepath.Join("testdata", src))
		if err != nil {
			t.Fatal(err)
		}
		if err := mkdirAll(filepath.Dir(dst)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyTo("amp-thread.json", filepath.Join(home, ".local", "share", "amp", "threads", "T-019b9d03-62e3-772f-9780-3e637f90eaec.json"))
	copyTo("qwen-session.jsonl", filepath.Join(home, ".qwen", "projects", "-home-dev-invoice-cli", "chats", "4b2f9e1a.jsonl"))
	if refs := findAmp(ctx, home, "/home/dev/photo-api"); len(refs) != 1 {
		t.Errorf("findAmp = %+v", refs)
	}
	if refs := findAmp(ctx, home, "/home/dev/photo"); len(refs) != 0 {
		t.Errorf("findAmp(/home/dev/photo) = %+v", refs)
	}
	if refs := findQwen(ctx, home, "/home/dev/invoice-cli"); len(refs) != 1 {
		t.Errorf("findQwen = %+v", refs)
	}
	copyTo("antigravity-transcript.jsonl", filepath.Join(home, ".gemini", "antigravity-cli", "brain", "c0ffee", ".system_generated", "logs", "transcript.jsonl"))
	if refs := findAntigravity(ctx, home, "/home/dev/ledger"); len(refs) != 1 {
		t.Errorf("findAntigravity = %+v", refs)
	} else if tr, err := ParseFile(ctx, refs[0].Path, Options{}); err != nil || tr.Session.ID != "c0ffee" {
		t.Errorf("the found transcript: %v, id %q", err, tr.Session.ID)
	}
	if refs := findAntigravity(ctx, home, "/home/dev/ledg"); len(refs) != 0 {
		t.Errorf("findAntigravity(/home/dev/ledg) = %+v", refs)
	}
	all := FindSessions(ctx, home, "/home/dev/invoice-cli")
	if len(all) != 1 || all[0].Format != FormatQwen || all[0].Agent != "Qwen Code" {
		t.Errorf("FindSessions = %+v", all)
	}
}

// TestVSCodeChatFinder finds VS Code's chats of a directory in the
// workspace storage whose workspace.json names it: the newer .jsonl logs
// as vscode-chat-jsonl, the older .json sessions as vscode-chat; another
// folder's workspace, a remote one and an empty file are passed over.
func TestVSCodeChatFinder(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	ctx := context.Background()
	write := func(path, text string) {
		if err := mkdirAll(filepath.Dir(path)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sample := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	storage := filepath.Join(home, ".config", "Code", "User", "workspaceStorage")
	write(filepath.Join(storage, "a1", "workspace.json"), `{"folder":"file:///home/dev/my%20app"}`)
	write(filepath.Join(storage, "a1", "chatSessions", "new.jsonl"), sample("vscode-chat.jsonl"))
	write(filepath.Join(storage, "a1", "chatSessions", "old.json"), sample("vscode-chat.json"))
	write(filepath.Join(storage, "a1", "chatSessions", "empty.jsonl"), "")
	write(filepath.Join(storage, "b2", "workspace.json"), `{"folder":"file:///home/dev/other"}`)
	write(filepath.Join(storage, "b2", "chatSessions", "x.jsonl"), sample("vscode-chat.jsonl"))
	write(filepath.Join(storage, "c3", "workspace.json"), `{"folder":"vscode-remote://ssh-remote%2Bbox/home/dev/my%20app"}`)
	write(filepath.Join(storage, "c3", "chatSessions", "y.jsonl"), sample("vscode-chat.jsonl"))
	mac := filepath.Join(home, "Library", "Application Support", "Code - Insiders", "User", "workspaceStorage")
	write(filepath.Join(mac, "d4", "workspace.json"), `{"folder":"file:///home/dev/my%20app"}`)
	write(filepath.Join(mac, "d4", "chatSessions", "mac.jsonl"), sample("vscode-chat.jsonl"))

	got := map[string]Format{}
	for _, r := range FindSessions(ctx, home, "/home/dev/my app/") {
		got[filepath.Base(r.Path)] = r.Format
		if r.Agent != "VS Code Copilot Chat" || r.Updated.IsZero() {
			t.Errorf("ref %+v", r)
		}
	}
	want := map[string]Format{"new.jsonl": FormatVSCodeChatLog, "old.json": FormatVSCodeChat, "mac.jsonl": FormatVSCodeChatLog}
	if len(got) != len(want) {
		t.Fatalf("FindSessions = %v, want %v", got, want)
	}
	for name, f := range want {
		if got[name] != f {
			t.Errorf("%s: format %q, want %q", name, got[name], f)
		}
		path := filepath.Join(storage, "a1", "chatSessions", name)
		if name == "mac.jsonl" {
			path = filepath.Join(mac, "d4", "chatSessions", name)
		}
		if _, err := ParseFile(ctx, path, Options{Format: f}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

package transcript

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/handoff-cli/handoff"
)

// ocExport is the sample export, decoded to be written back as OpenCode's
// two stores.
type ocExport struct {
	Info     map[string]json.RawMessage `json:"info"`
	Messages []struct {
		Info  map[string]json.RawMessage   `json:"info"`
		Parts []map[string]json.RawMessage `json:"parts"`
	} `json:"messages"`
}

// str reads a JSON string member.
func str(obj map[string]json.RawMessage, key string) string {
	var s string
	_ = json.Unmarshal(obj[key], &s)
	return s
}

// created reads time.created.
func created(obj map[string]json.RawMessage) int64 {
	var t struct {
		Created int64 `json:"created"`
		Updated int64 `json:"updated"`
	}
	_ = json.Unmarshal(obj["time"], &t)
	return t.Created
}

func readOCExport(t *testing.T) ocExport {
	t.Helper()
	b, err := os.ReadFile("testdata/opencode-export.json")
	if err != nil {
		t.Fatal(err)
	}
	var e ocExport
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	return e
}

// writeOCDatabase writes the export as opencode.db does
// (packages/opencode/src/session/session.sql.ts: ids in columns, the
// rest of each message and part as JSON in data), plus an older session
// that the default must not pick.
func writeOCDatabase(t *testing.T, e ocExport, path string) {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL, directory TEXT NOT NULL,
		title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL)`)
	exec(`CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)`)
	exec(`CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)`)
	s := e.Info
	exec(`INSERT INTO session VALUES (?,?,NULL,?,?,?,?,?,?)`, str(s, "id"), str(s, "projectID"), str(s, "slug"), str(s, "directory"), str(s, "title"), str(s, "version"), created(s), 1764932400000)
	exec(`INSERT INTO session VALUES ('ses_older', 'p', NULL, 'old', '/tmp', 'older', '1.0.0', 1, 2)`)
	exec(`INSERT INTO session VALUES ('ses_child', 'p', ?, 'child', '/tmp', 'a subagent', '1.0.0', 1, 9999999999999)`, str(s, "id"))
	for _, m := range e.Messages {
		id, sid, at := str(m.Info, "id"), str(m.Info, "sessionID"), created(m.Info)
		delete(m.Info, "id")
		delete(m.Info, "sessionID")
		data, _ := json.Marshal(m.Info)
		exec(`INSERT INTO message VALUES (?,?,?,?,?)`, id, sid, at, at, string(data))
		for _, p := range m.Parts {
			pid := str(p, "id")
			for _, k := range []string{"id", "sessionID", "messageID"} {
				delete(p, k)
			}
			data, _ := json.Marshal(p)
			exec(`INSERT INTO part VALUES (?,?,?,?,?,?)`, pid, id, sid, at, at, string(data))
		}
	}
}

// writeOCStorage writes the export as the storage/ directory
// (session/<project>/<id>.json, message/<session>/<id>.json,
// part/<message>/<id>.json).
func writeOCStorage(t *testing.T, e ocExport, root string) {
	t.Helper()
	write := func(v any, elem ...string) {
		t.Helper()
		p := filepath.Join(append([]string{root}, elem...)...)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		b, _ := json.MarshalIndent(v, "", "  ")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sid := str(e.Info, "id")
	write(e.Info, "session", str(e.Info, "projectID"), sid+".json")
	for _, m := range e.Messages {
		mid := str(m.Info, "id")
		write(m.Info, "message", sid, mid+".json")
		for _, p := range m.Parts {
			write(p, "part", mid, str(p, "id")+".json")
		}
	}
}

// TestOpenCodeStores reads the sample session from the export, the SQLite
// database and the storage directory, and expects the same messages from
// all three; the database's default is the newest top-level session,
// --session picks one, and a missing one is ENOTFOUND.
func TestOpenCodeStores(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	want, err := ParseFile(ctx, "testdata/opencode-export.json", Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "opencode.db")
	writeOCDatabase(t, readOCExport(t), dbPath)
	storage := filepath.Join(dir, "share", "storage")
	writeOCStorage(t, readOCExport(t), storage)
	for _, tt := range []struct {
		name, path string
		opts       Options
	}{
		{"database newest", dbPath, Options{Strict: true}},
		{"database by id", dbPath, Options{Strict: true, Session: "ses_5a1e7c0b2ffeQxq1Zr3hLk9NdA"}},
		{"database forced", dbPath, Options{Strict: true, Format: FormatOpenCode}},
		{"storage directory", storage, Options{Strict: true}},
		{"its parent directory", filepath.Dir(storage), Options{Strict: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFile(ctx, tt.path, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got.Session.ID != want.Session.ID || got.Session.CWD != want.Session.CWD || got.Session.Format != "opencode" {
				t.Errorf("session = %+v, want id %s cwd %s", got.Session, want.Session.ID, want.Session.CWD)
			}
			if !reflect.DeepEqual(got.Messages, want.Messages) {
				t.Errorf("messages differ from the export's:\n got %+v\nwant %+v", got.Messages, want.Messages)
			}
		})
	}
	for _, path := range []string{dbPath, storage} {
		_, err := ParseFile(ctx, path, Options{Session: "ses_nope"})
		if handoff.ErrorCode(err) != handoff.ENOTFOUND {
			t.Errorf("%s --session ses_nope: %v, want ENOTFOUND", path, err)
		}
	}
	// A directory or database that is no agent's store says so.
	_, err = ParseFile(ctx, t.TempDir(), Options{})
	if handoff.ErrorCode(err) != handoff.EINVALID {
		t.Errorf("empty directory: %v, want EINVALID", err)
	}
	other := filepath.Join(dir, "other.db")
	db, _ := sql.Open("sqlite3", other)
	_, _ = db.Exec(`CREATE TABLE notes (x TEXT)`)
	db.Close()
	if _, err := ParseFile(ctx, other, Options{}); handoff.ErrorCode(err) != handoff.EINVALID {
		t.Errorf("unknown database: %v, want EINVALID", err)
	}
}

package transcript

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/handoff-cli/handoff"
)

// writeCrushDB writes a Crush project database with the columns
// internal/db/migrations creates and parts as internal/message/content.go
// marshals them ({type, data}).
func writeCrushDB(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range append(crushSchema(),
		`INSERT INTO sessions VALUES ('s-old', NULL, 'older', 0, 10, 1, 0, 100, 100, NULL)`,
		`INSERT INTO sessions VALUES ('s-1', NULL, 'Fix the cache key', 5, 14200, 310, 0.02, 1764925300, 1764925200, NULL)`,
		`INSERT INTO messages VALUES ('m1', 's-1', 'user', '[{"type":"text","data":{"text":"The cache key ignores the locale; fix it."}}]', NULL, 1764925200, 1764925200, NULL, NULL)`,
		`INSERT INTO messages VALUES ('m2', 's-1', 'assistant', '[{"type":"reasoning","data":{"thinking":"Key is built in cache.go."}},{"type":"text","data":{"text":"Checking the tests."}},{"type":"tool_call","data":{"id":"call_1","name":"bash","input":"{\"command\":\"go test ./cache\"}","type":"function","finished":true}},{"type":"finish","data":{"reason":"tool_use","time":1764925210}}]', 'gpt-5', 1764925205, 1764925210, 1764925210, 'openai')`,
		`INSERT INTO messages VALUES ('m3', 's-1', 'tool', '[{"type":"tool_result","data":{"tool_call_id":"call_1","name":"bash","content":"--- FAIL: TestKeyLocale\nFAIL","metadata":"","is_error":true}}]', NULL, 1764925212, 1764925212, NULL, NULL)`,
		`INSERT INTO messages VALUES ('m4', 's-1', 'assistant', '[{"type":"tool_call","data":{"id":"call_2","name":"edit","input":"{\"file_path\":\"cache/key.go\",\"old_string\":\"k := path\",\"new_string\":\"k := locale + path\"}","type":"function","finished":true}},{"type":"finish","data":{"reason":"tool_use","time":1764925220}}]', 'gpt-5', 1764925215, 1764925220, 1764925220, 'openai')`,
		`INSERT INTO messages VALUES ('m5', 's-1', 'tool', '[{"type":"tool_result","data":{"tool_call_id":"call_2","name":"edit","content":"edited cache/key.go","metadata":"","is_error":false}}]', NULL, 1764925221, 1764925221, NULL, NULL)`,
		`INSERT INTO messages VALUES ('m6', 's-1', 'assistant', '[{"type":"text","data":{"text":"Now running all tests"}},{"type":"finish","data":{"reason":"canceled","time":1764925230}}]', 'gpt-5', 1764925225, 1764925230, 1764925230, 'openai')`,
	) {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// crushSchema is Crush's sessions and messages tables
// (internal/db/migrations), for the tests' databases.
func crushSchema() []string {
	return []string{
		`CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL, message_count INTEGER NOT NULL DEFAULT 0,
			prompt_tokens INTEGER NOT NULL DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0, cost REAL NOT NULL DEFAULT 0,
			updated_at INTEGER NOT NULL, created_at INTEGER NOT NULL, summary_message_id TEXT)`,
		`CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, parts TEXT NOT NULL DEFAULT '[]',
			model TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, finished_at INTEGER, provider TEXT)`,
	}
}

// TestCrushStore reads the newest session of a Crush database, named as
// the file, the .crush folder or the project, and by --session.
func TestCrushStore(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	path := filepath.Join(project, ".crush", "crush.db")
	if err := mkdirAll(filepath.Dir(path)); err != nil {
		t.Fatal(err)
	}
	writeCrushDB(t, path)
	ctx := context.Background()
	for _, p := range []string{path, filepath.Dir(path), project} {
		tr, err := ParseFile(ctx, p, Options{Strict: true})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		checkInvariants(t, tr)
		checkPairs(t, tr)
		// user, 3 assistant, 2 tool results, the cancel; calls bash and
		// edit, bash failed, one edit, the session tokens as usage.
		want := [11]int{1, 3, 1, 2, 2, 1, 1, 0, 0, 1, 1}
		if got := sampleCounts(tr); got != want {
			t.Errorf("%s: counts %v, want %v", p, got, want)
		}
		if tr.Session.ID != "s-1" || tr.Session.Format != "crush" || tr.Session.CWD != project || tr.Session.Model != "gpt-5" {
			t.Errorf("%s: session %+v", p, tr.Session)
		}
	}
	if tr, err := ParseFile(ctx, path, Options{Session: "s-old"}); err == nil || tr != nil {
		t.Errorf("an empty session read: %v", err)
	}
	if _, err := ParseFile(ctx, path, Options{Session: "nope"}); handoff.ErrorCode(err) != handoff.ENOTFOUND {
		t.Errorf("--session nope: %v, want ENOTFOUND", err)
	}
	if refs := findCrush(ctx, "", project); len(refs) != 1 || refs[0].Session != "s-1" {
		t.Errorf("findCrush = %+v", refs)
	}
}

func mkdirAll(dir string) error { return os.MkdirAll(dir, 0o755) }

package transcript

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestCursorStore reads the newest chat from a state.vscdb written as
// Cursor 1.x writes it (cursorDiskKV: composerData:<id> with bubble
// headers, bubbleId:<id>:<bubble> per message), and a chat by id.
func TestCursorStore(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "state.vscdb")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	rows := [][2]string{
		{"composerData:c-old", `{"composerId":"c-old","name":"old","createdAt":1,"lastUpdatedAt":2,"fullConversationHeadersOnly":[{"bubbleId":"o1","type":1}]}`},
		{"bubbleId:c-old:o1", `{"bubbleId":"o1","type":1,"text":"an old question"}`},
		{"composerData:c-1", `{"composerId":"c-1","name":"Fix the importer","createdAt":1764925200000,"lastUpdatedAt":1764925300000,` +
			`"fullConversationHeadersOnly":[{"bubbleId":"b1","type":1},{"bubbleId":"b2","type":2},{"bubbleId":"b3","type":2},{"bubbleId":"b4","type":2},{"bubbleId":"b5","type":2}]}`},
		{"bubbleId:c-1:b1", `{"bubbleId":"b1","type":1,"text":"The CSV importer skips the header twice. Fix it."}`},
		{"bubbleId:c-1:b2", `{"bubbleId":"b2","type":2,"text":"Running the importer tests.","thinking":{"text":"Probably an off-by-one."},` +
			`"toolFormerData":{"toolCallId":"tc1","name":"run_terminal_cmd","status":"completed","rawArgs":"{\"command\":\"pytest tests/test_import.py\",\"is_background\":false}","result":"{\"output\":\"1 failed\",\"exitCode\":1}"},"tokenCount":{"inputTokens":12000,"outputTokens":90}}`},
		{"bubbleId:c-1:b3", `{"bubbleId":"b3","type":2,"text":"","toolFormerData":{"toolCallId":"tc2","name":"edit_file","status":"completed","rawArgs":"{\"target_file\":\"importer.py\",\"instructions\":\"skip one header\",\"code_edit\":\"rows = rows[1:]\"}","result":"{\"diff\":\"...\"}"}}`},
		{"bubbleId:c-1:b4", `{"bubbleId":"b4","type":2,"text":"","toolFormerData":{"toolCallId":"tc3","name":"read_file","status":"error","rawArgs":"{\"target_file\":\"missing.py\"}","result":"File not found"}}`},
		{"bubbleId:c-1:b5", `{"bubbleId":"b5","type":2,"text":"The importer now skips the header once."}`},
	}
	for _, q := range []string{`CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`, `CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range rows {
		if _, err := db.Exec(`INSERT INTO cursorDiskKV VALUES (?, ?)`, r[0], []byte(r[1])); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	ctx := context.Background()
	tr, err := ParseFile(ctx, path, Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, tr)
	checkPairs(t, tr)
	// the person's message; four assistant bubbles; three results (the
	// read failed); the edit_file call (target_file, code_edit) is not in
	// the counted key set, which the extractor reads as an edit anyway.
	want := [11]int{1, 4, 0, 3, 3, 1, 0, 0, 0, 0, 1}
	if got := sampleCounts(tr); got != want {
		t.Errorf("counts %v, want %v", got, want)
	}
	if tr.Session.ID != "c-1" || tr.Session.Format != "cursor-export" || tr.Session.Agent != "cursor" {
		t.Errorf("session %+v", tr.Session)
	}
	old, err := ParseFile(ctx, path, Options{Session: "c-old"})
	if err != nil || len(old.Messages) != 1 {
		t.Errorf("--session c-old: %v", err)
	}
	if _, err := ParseFile(ctx, path, Options{Session: "nope"}); handoff.ErrorCode(err) != handoff.ENOTFOUND {
		t.Errorf("--session nope: %v, want ENOTFOUND", err)
	}
}

package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/jmoiron/sqlx"
)

// schemaAt opens a real SQLite file, named name in a temporary folder,
// with the schema as it was after the first version migrations, for the
// tests of the steps after it. exec runs a statement on it or fails the
// test. One connection, so last_insert_rowid() is the caller's.
func schemaAt(t *testing.T, name string, version int) (path string, db *sqlx.DB, exec func(q string, args ...any)) {
	t.Helper()
	ctx := context.Background()
	path = filepath.Join(t.TempDir(), name)
	steps, err := LoadMigrations(migrationFiles)
	if err != nil {
		t.Fatal(err)
	}
	db, err = sqlx.Open("sqlite3", "file:"+path+"?_foreign_keys=on")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	exec = func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, m := range steps[:version] {
		exec(m.SQL)
	}
	exec(fmt.Sprintf("PRAGMA user_version = %d", version))
	return path, db, exec
}

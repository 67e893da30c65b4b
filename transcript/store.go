package transcript

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	_ "github.com/mattn/go-sqlite3" // agents' SQLite session stores

	"github.com/handoff-cli/handoff"
)

// Some agents keep sessions in a store rather than a file per session:
// an SQLite database (OpenCode's opencode.db, Cursor's state.vscdb, …) or
// a directory of JSON files (OpenCode's storage/). ParseFile hands such
// a path to the registry's store readers; Options.Session picks the
// session, else the newest is read.

// errNotThisStore is what a store reader returns for a path that is not
// its store, so the next one is tried.
var errNotThisStore = errors.New("not this agent's store")

// storeReader reads one session from a store at path into d.
type storeReader func(ctx context.Context, path string, d *Decoder) error

// isSQLite reports whether the file at path is an SQLite database.
func isSQLite(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(sqliteMagic))
	_, err = io.ReadFull(f, head)
	return err == nil && bytes.Equal(head, []byte(sqliteMagic))
}

// openSQLite opens a database read-only, leaving the agent's file as it
// is.
func openSQLite(path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro&_busy_timeout=5000")
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// openStoreDB opens the agent store at path read-only, or answers
// errNotThisStore when path is no SQLite file, so a reader can pass it on.
func openStoreDB(path string) (*sql.DB, error) {
	if !isSQLite(path) {
		return nil, errNotThisStore
	}
	return openSQLite(path)
}

// openStoreIn is openStoreDB for a store the person may name by its
// folder: a directory path means the file called name inside it. It
// returns the file's path, for the reader's messages.
func openStoreIn(path, name string) (*sql.DB, string, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, name)
	}
	db, err := openStoreDB(path)
	return db, path, err
}

// hasTables reports whether db has every named table.
func hasTables(ctx context.Context, db *sql.DB, names ...string) bool {
	for _, n := range names {
		var found string
		if db.QueryRowContext(ctx, `SELECT name FROM sqlite_master WHERE type='table' AND name=?`, n).Scan(&found) != nil {
			return false
		}
	}
	return true
}

// parseStore reads a session from the store at path with the first
// registry format whose reader claims it (or the forced format's).
func parseStore(ctx context.Context, path string, opts Options) (*handoff.Transcript, error) {
	if opts.Source == "" {
		opts.Source = path
	}
	opts = opts.withDefaults()
	var kinds []string
	for _, s := range registry() {
		if s.store == nil || opts.Format != FormatAuto && opts.Format != s.info.Name {
			continue
		}
		kinds = append(kinds, s.info.Agent)
		d, err := NewDecoder(s.info.Name, opts)
		if err != nil {
			return nil, err
		}
		err = s.store(ctx, path, d)
		switch {
		case errors.Is(err, errNotThisStore):
			continue
		case err != nil:
			return nil, err
		}
		return d.Finish(nil)
	}
	what := "database"
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		what = "directory"
	}
	return nil, handoff.Errorf(handoff.EINVALID, "%s is a %s, but not a session store handoff knows (it reads the stores of %s)", path, what, strings.Join(kinds, ", "))
}

// storeRecord counts a record a store reader read, as Feed counts a
// line, so line numbers and the empty-input check hold for stores too.
func (d *Decoder) storeRecord() int {
	d.line++
	d.nonBlank++
	return d.line
}

// sessionNotFound is the error for a --session a store does not hold.
func sessionNotFound(store, id string) error {
	return handoff.Errorf(handoff.ENOTFOUND, "no session %q in %s", id, store)
}

// Package store keeps workflows, their session snapshots, workflow events
// and the extraction cache in one SQLite file.
//
// Several handoff processes (hooks, `watch`, a person running `compile`)
// may write to the same file at once, so the database runs in WAL mode with
// a busy timeout, and every writer takes the write lock up front (BEGIN
// IMMEDIATE): writers queue instead of failing halfway through. Each
// snapshot is written in one transaction together with its workflow row and
// its event, so a crash never leaves half a snapshot behind; a write that
// still meets SQLITE_BUSY is retried whole with jittered backoff. Pausing,
// resuming and forking change the workflow's status in that same
// transaction, through the one lifecycle check
// (handoff.WorkflowStatus.Transition). Stored snapshots are immutable (a
// trigger refuses updates); older snapshot layouts are upgraded in memory
// when read (handoff.DecodeSnapshot), and rows that do not read are
// reported and skipped by every listing.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/mattn/go-sqlite3"

	handoff "github.com/handoff-cli/handoff"
)

// defaultBusyTimeout is how long a statement waits for another process's
// lock before giving up with EUNAVAILABLE.
const defaultBusyTimeout = 5 * time.Second

// maxOpenConns bounds the connections of one Store: enough for a reader
// beside a writer, few enough that one process does not queue many writers
// against itself.
const maxOpenConns = 4

// timeLayout is how every timestamp is stored: UTC, fixed width, so text
// order is time order, and nanoseconds kept, so values round-trip exactly.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

// formatTime renders t in the stored layout.
func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// DefaultPath returns where the database lives when neither --db nor
// HANDOFF_DB says otherwise: $XDG_DATA_HOME/handoff/handoff.db, else
// ~/.local/share/handoff/handoff.db.
func DefaultPath() (string, error) {
	if dir := os.Getenv("XDG_DATA_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "handoff", "handoff.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find the home directory for the default database path: %w", err)
	}
	return filepath.Join(home, ".local", "share", "handoff", "handoff.db"), nil
}

// Options tunes Open.
type Options struct {
	// Logger receives diagnostics (migrations applied, damaged rows
	// skipped); nil discards them.
	Logger *slog.Logger
	// ReadOnly opens an existing database without ever writing to it: no
	// directory or file is created and no migration runs, so commands that
	// only read cannot change a file another version of handoff owns.
	ReadOnly bool
	// Maker is the machine and user recorded with every snapshot this
	// store saves; zero means DefaultMaker.
	Maker Maker
}

// Store is an open handoff database. It is safe for concurrent use by
// multiple goroutines, and several Stores (in one process or many) may
// share one file.
type Store struct {
	db       *sqlx.DB
	path     string
	readOnly bool
	log      *slog.Logger
	// now is the clock for rows' timestamps; tests may replace it.
	now func() time.Time
	// origin is who makes the snapshots saved here.
	origin Maker
}

// clock is now in UTC to the microsecond: what the PostgreSQL store
// keeps, so an event or status time copied between the two stays equal.
func (s *Store) clock() time.Time { return s.now().UTC().Round(time.Microsecond) }

// Open opens the database at path, creating its directory (0700) and the
// file if missing, and brings its schema up to date.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	return open(ctx, path, opts, defaultBusyTimeout)
}

// open is Open with a chosen busy timeout, so tests can meet a lock
// without waiting the full default.
func open(ctx context.Context, path string, opts Options, busy time.Duration) (*Store, error) {
	if path == "" {
		return nil, handoff.Errorf(handoff.EINVALID, "open database: empty path")
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.ReadOnly {
		if _, err := os.Stat(path); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, handoff.Errorf(handoff.ENOTFOUND, "no database at %s yet: %w", path, err)
			}
			return nil, fmt.Errorf("open database: %w", err)
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create the database directory: %w", err)
	}

	db, err := sqlx.Open("sqlite3", dsn(path, opts.ReadOnly, busy))
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	db.SetMaxOpenConns(maxOpenConns)
	db.SetMaxIdleConns(maxOpenConns)
	origin := opts.Maker
	if origin == (Maker{}) {
		origin = DefaultMaker()
	}
	s := &Store{db: db, path: path, readOnly: opts.ReadOnly, log: log, now: time.Now, origin: origin}
	if err := connect(ctx, db, busy); err != nil {
		db.Close()
		if !opts.ReadOnly && !dirWritable(filepath.Dir(path)) {
			return nil, handoff.Errorf(handoff.EUNAVAILABLE,
				"the database directory %s is not writable (SQLite keeps its -wal and -shm files beside the database); fix its permissions or use --db elsewhere: %w",
				filepath.Dir(path), err)
		}
		return nil, classify("connect", err)
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// connect opens the first connection, retrying while SQLite answers BUSY
// for up to the busy timeout. Setting WAL mode on a file other processes
// are opening at the same moment (fifty hooks on a new database) can
// answer BUSY at once, without waiting in the busy handler, so the DSN's
// timeout alone does not cover connecting.
func connect(ctx context.Context, db *sqlx.DB, busy time.Duration) error {
	deadline := time.Now().Add(busy)
	wait := 5 * time.Millisecond
	for {
		err := db.PingContext(ctx)
		if err == nil || !isBusy(err) || time.Now().Add(wait).After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 200*time.Millisecond)
	}
}

// dirWritable reports whether this process may create files in dir.
func dirWritable(dir string) bool {
	return syscall.Access(dir, 2 /* W_OK */) == nil
}

// dsn builds the go-sqlite3 connection string. The path is escaped because
// SQLite reads it as a URI, where '?', '#' and '%' have meanings.
func dsn(path string, readOnly bool, busy time.Duration) string {
	escaped := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	params := fmt.Sprintf("_foreign_keys=on&_busy_timeout=%d&_txlock=immediate", busy.Milliseconds())
	if readOnly {
		return "file:" + escaped + "?mode=ro&" + params
	}
	// synchronous=NORMAL is durable enough in WAL mode (a power cut may
	// lose the last commits, never corrupt the file) and spares an fsync
	// per commit.
	return "file:" + escaped + "?_journal_mode=WAL&_synchronous=NORMAL&" + params
}

// Close releases the database.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close database %s: %w", s.path, err)
	}
	return nil
}

// Path returns the file the Store was opened on.
func (s *Store) Path() string { return s.path }

// classify wraps a database error with op and, where SQLite says what went
// wrong, the handoff error code that tells the person what to do.
func classify(op string, err error) error {
	if err == nil {
		return nil
	}
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrNotADB, sqlite3.ErrCorrupt:
			return handoff.Errorf(handoff.ECORRUPT, "%s: not a handoff database (file is not SQLite or is damaged): %w", op, err)
		case sqlite3.ErrBusy, sqlite3.ErrLocked:
			return handoff.Errorf(handoff.EUNAVAILABLE, "%s: the database is locked by another handoff process (gave up waiting); try again: %w", op, err)
		case sqlite3.ErrFull:
			return handoff.Errorf(handoff.EUNAVAILABLE, "%s: the disk is full (free space and try again; nothing was stored): %w", op, err)
		case sqlite3.ErrCantOpen, sqlite3.ErrPerm, sqlite3.ErrReadonly:
			return handoff.Errorf(handoff.EUNAVAILABLE, "%s: cannot use the database file (check permissions and free space): %w", op, err)
		case sqlite3.ErrConstraint:
			return handoff.Errorf(handoff.ECONFLICT, "%s: %w", op, err)
		}
	}
	return fmt.Errorf("%s: %w", op, err)
}

// writable returns an EINVALID error when the Store was opened read-only.
func (s *Store) writable(op string) error {
	if s.readOnly {
		return handoff.Errorf(handoff.EINVALID, "%s: the database was opened read-only", op)
	}
	return nil
}

// Write retries: BEGIN IMMEDIATE already waits up to the busy timeout for
// the write lock, but SQLite can still answer BUSY without waiting (a
// reader holding an old WAL snapshot, a checkpoint or recovery in
// progress). Such a write is retried a few times with jittered, growing
// backoff so that processes that collided do not collide again in step.
const (
	maxWriteAttempts = 6
	retryBaseDelay   = 10 * time.Millisecond
	retryMaxDelay    = 500 * time.Millisecond
)

// isBusy reports whether err is SQLite's "try again" (BUSY or LOCKED).
func isBusy(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) {
		return se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked
	}
	return false
}

// backoff returns the pause before retry attempt n (1-based): exponential
// from retryBaseDelay, capped, with "full jitter" (uniform in [d/2, d)).
func backoff(n int) time.Duration {
	d := retryBaseDelay << min(n-1, 16)
	if d > retryMaxDelay {
		d = retryMaxDelay
	}
	return d/2 + rand.N(d/2)
}

// inTx runs fn in one write transaction (BEGIN IMMEDIATE, through the DSN's
// _txlock), committing if fn succeeds and rolling back otherwise. When
// SQLite answers BUSY anywhere in it, the whole transaction is rolled back
// and run again (fn must therefore be repeatable), up to maxWriteAttempts
// times; the last BUSY is EUNAVAILABLE.
func (s *Store) inTx(ctx context.Context, op string, fn func(tx *sqlx.Tx) error) error {
	if err := s.writable(op); err != nil {
		return err
	}
	var err error
	for attempt := 1; ; attempt++ {
		err = s.tryTx(ctx, op, fn)
		if err == nil || !isBusy(err) || attempt == maxWriteAttempts {
			return err
		}
		s.log.Debug("database busy, retrying", "op", op, "attempt", attempt)
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: %w", op, ctx.Err())
		case <-time.After(backoff(attempt)):
		}
	}
}

// tryTx is one attempt of inTx.
func (s *Store) tryTx(ctx context.Context, op string, fn func(tx *sqlx.Tx) error) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return classify(op+": begin", err)
	}
	if err := fn(tx); err != nil {
		if rbErr := tx.Rollback(); rbErr != nil && !errors.Is(rbErr, sql.ErrTxDone) {
			s.log.Warn("rollback failed", "op", op, "err", rbErr)
		}
		return err
	}
	if err := tx.Commit(); err != nil {
		if rbErr := tx.Rollback(); rbErr != nil && !errors.Is(rbErr, sql.ErrTxDone) {
			s.log.Warn("rollback after a failed commit failed", "op", op, "err", rbErr)
		}
		return classify(op+": commit", err)
	}
	return nil
}

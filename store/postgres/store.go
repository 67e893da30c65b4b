// Package postgres keeps handoff's workflows, snapshots, events and cache
// in a PostgreSQL database, so a team (laptops, CI agents, cloud agents)
// shares one history. It offers the same guarantees as the SQLite store
// (package store): stored snapshots are immutable (a trigger refuses
// updates), session numbers are gap-free under concurrent writers (the
// workflow row is locked with SELECT … FOR UPDATE before numbering), a
// snapshot, its workflow change and its events commit in one transaction,
// and every snapshot carries a content hash so a retried or synced write
// never stores it twice.
package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	"github.com/jmoiron/sqlx"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// IsURL reports whether target names a PostgreSQL database
// (postgres:// or postgresql://) rather than a SQLite file.
func IsURL(target string) bool {
	return strings.HasPrefix(target, "postgres://") || strings.HasPrefix(target, "postgresql://")
}

// Options tunes Open.
type Options struct {
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// MaxOpenConns bounds the pool; 0 means 8.
	MaxOpenConns int
	// Maker is the machine and user recorded with every snapshot this
	// store saves; zero means store.DefaultMaker.
	Maker store.Maker
}

// Store is an open PostgreSQL handoff database, safe for concurrent use.
type Store struct {
	db  *sqlx.DB
	url string // password redacted, for messages
	log *slog.Logger
	now func() time.Time
	// maker is who makes the snapshots saved through this store.
	maker store.Maker
}

// connectTimeout bounds how long Open waits for an unreachable server.
const connectTimeout = 10 * time.Second

// Open connects to the database at rawURL and brings its schema up to
// date. An unreachable server is one EUNAVAILABLE line naming the host.
func Open(ctx context.Context, rawURL string, opts Options) (*Store, error) {
	u, err := url.Parse(rawURL)
	if err != nil || !IsURL(rawURL) {
		return nil, handoff.Errorf(handoff.EINVALID, "open database: %q is not a postgres:// URL", redactURL(rawURL))
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	q := u.Query()
	if q.Get("connect_timeout") == "" {
		q.Set("connect_timeout", fmt.Sprint(int(connectTimeout.Seconds())))
		u.RawQuery = q.Encode()
	}
	db, err := sqlx.Open("pgx", u.String())
	if err != nil {
		return nil, handoff.Errorf(handoff.EINVALID, "open database %s: %w", u.Redacted(), err)
	}
	n := opts.MaxOpenConns
	if n <= 0 {
		n = 8
	}
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	db.SetConnMaxIdleTime(5 * time.Minute)
	maker := opts.Maker
	if maker == (store.Maker{}) {
		maker = store.DefaultMaker()
	}
	s := &Store{db: db, url: u.Redacted(), log: log, now: time.Now, maker: maker}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, classify("connect to "+s.url, err)
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// RedactURL returns rawURL with its password hidden, for messages.
func RedactURL(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", handoff.Errorf(handoff.EINVALID, "not a URL")
	}
	return u.Redacted(), nil
}

// redactURL hides a password in a URL that may not even parse.
func redactURL(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Redacted()
	}
	return "<unparsable URL>"
}

// Close releases the pool.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close database %s: %w", s.url, err)
	}
	return nil
}

// Path returns the database URL with its password redacted.
func (s *Store) Path() string { return s.url }

// classify wraps a database error with op and the handoff error code that
// tells the person what to do, as one line.
func classify(op string, err error) error {
	if err == nil {
		return nil
	}
	if handoff.ErrorCode(err) != handoff.EINTERNAL {
		return err // already classified further down
	}
	e := classifyRaw(op, err)
	// pgx lists every address it tried on its own line; a person reads one.
	var he *handoff.Error
	if errors.As(e, &he) && strings.ContainsAny(he.Message, "\n\t") {
		return &handoff.Error{Code: he.Code, Message: strings.Join(strings.Fields(he.Message), " "), Err: err}
	}
	if strings.ContainsAny(e.Error(), "\n\t") {
		return &handoff.Error{Code: handoff.EINTERNAL, Message: strings.Join(strings.Fields(e.Error()), " "), Err: err}
	}
	return e
}

// classifyRaw is classify before the message is flattened.
func classifyRaw(op string, err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "23505" || strings.HasPrefix(pe.Code, "23"):
			return handoff.Errorf(handoff.ECONFLICT, "%s: %w", op, err)
		case pe.Code == "3D000":
			return handoff.Errorf(handoff.ENOTFOUND, "%s: the database does not exist (create it first): %w", op, err)
		case pe.Code == "28P01" || pe.Code == "28000":
			return handoff.Errorf(handoff.EUNAVAILABLE, "%s: PostgreSQL refused the credentials: %w", op, err)
		case strings.HasPrefix(pe.Code, "08"), strings.HasPrefix(pe.Code, "57P"), pe.Code == "53300":
			return handoff.Errorf(handoff.EUNAVAILABLE, "%s: the PostgreSQL server is unavailable (restarting or full); try again: %w", op, err)
		case pe.Code == "40001" || pe.Code == "40P01":
			return handoff.Errorf(handoff.EUNAVAILABLE, "%s: the write collided with another writer too often; try again: %w", op, err)
		}
		return fmt.Errorf("%s: %w", op, err)
	}
	if isConnErr(err) {
		return handoff.Errorf(handoff.EUNAVAILABLE, "%s: cannot reach the PostgreSQL server (is it running?): %w", op, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// isConnErr reports whether err is a lost or refused connection: nothing
// the statement did is known to have committed.
func isConnErr(err error) bool {
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, driver.ErrBadConn) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || pgconn.SafeToRetry(err)
}

// retryable reports whether a whole transaction may be run again:
// serialisation failures and deadlocks always; a lost connection or a
// server shutting down only when idempotent says a second run cannot
// duplicate anything (the content hash guards snapshot saves).
func retryable(err error, idempotent bool) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "40001", pe.Code == "40P01":
			return true
		case strings.HasPrefix(pe.Code, "57P"), strings.HasPrefix(pe.Code, "08"):
			return idempotent
		}
		return false
	}
	return idempotent && isConnErr(err)
}

const (
	maxWriteAttempts = 6
	retryBaseDelay   = 20 * time.Millisecond
	retryMaxDelay    = time.Second
)

// backoff returns the jittered pause before retry attempt n (1-based).
func backoff(n int) time.Duration {
	d := retryBaseDelay << min(n-1, 16)
	if d > retryMaxDelay {
		d = retryMaxDelay
	}
	return d/2 + rand.N(d/2)
}

// inTx runs fn in one READ COMMITTED transaction, committing if it
// succeeds. Retryable failures (see retryable) run the whole of fn again,
// so fn must be repeatable; the last failure is classified.
func (s *Store) inTx(ctx context.Context, op string, idempotent bool, fn func(tx *sqlx.Tx) error) error {
	var err error
	for attempt := 1; ; attempt++ {
		err = s.tryTx(ctx, fn)
		if err == nil {
			return nil
		}
		if !retryable(err, idempotent) || attempt == maxWriteAttempts || ctx.Err() != nil {
			return classify(op, err)
		}
		s.log.Debug("transaction failed, retrying", "op", op, "attempt", attempt, "err", err)
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: %w", op, ctx.Err())
		case <-time.After(backoff(attempt)):
		}
	}
}

// tryTx is one attempt of inTx; errors are returned unclassified so inTx
// can see whether to retry.
func (s *Store) tryTx(ctx context.Context, fn func(tx *sqlx.Tx) error) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		if rbErr := tx.Rollback(); rbErr != nil && !errors.Is(rbErr, sql.ErrTxDone) {
			s.log.Debug("rollback failed", "err", rbErr)
		}
		return err
	}
	return tx.Commit()
}

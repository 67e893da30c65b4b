package postgres

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jmoiron/sqlx"
)

const cacheUpsert = `INSERT INTO extraction_cache (key, value, created_at) VALUES ($1, $2, $3)
	ON CONFLICT (key) DO UPDATE SET value = excluded.value, created_at = excluded.created_at`

// CacheGet returns the value stored under key and whether there was one.
func (s *Store) CacheGet(ctx context.Context, key string) ([]byte, bool, error) {
	var value []byte
	err := s.db.GetContext(ctx, &value, "SELECT value FROM extraction_cache WHERE key = $1", key)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, classify("read the extraction cache", err)
	}
	if value == nil {
		value = []byte{}
	}
	return value, true, nil
}

// CachePut stores value under key, replacing what was there.
func (s *Store) CachePut(ctx context.Context, key string, value []byte) error {
	if value == nil {
		value = []byte{}
	}
	_, err := s.db.ExecContext(ctx, cacheUpsert, key, value, s.now().UTC())
	return classify("write the extraction cache", err)
}

// CacheUpdate replaces the value under key with fn's answer to the current
// one atomically: the row is locked (or, when missing, the key's advisory
// lock is held) so concurrent updaters see each other's results. fn may
// run more than once when the transaction is retried.
func (s *Store) CacheUpdate(ctx context.Context, key string, fn func(old []byte, found bool) ([]byte, error)) error {
	const op = "update the cache"
	return s.inTx(ctx, op, false, func(tx *sqlx.Tx) error {
		// The advisory lock also covers a key with no row yet, which
		// FOR UPDATE cannot lock.
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", key); err != nil {
			return classify(op+": lock", err)
		}
		var old []byte
		found := true
		err := tx.GetContext(ctx, &old, "SELECT value FROM extraction_cache WHERE key = $1", key)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			old, found = nil, false
		case err != nil:
			return classify(op+": read", err)
		}
		next, err := fn(old, found)
		if err != nil {
			return err
		}
		if next == nil {
			next = []byte{}
		}
		_, err = tx.ExecContext(ctx, cacheUpsert, key, next, s.now().UTC())
		return classify(op+": write", err)
	})
}

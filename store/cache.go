package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jmoiron/sqlx"
)

// cacheSelect reads the value under a key.
const cacheSelect = "SELECT value FROM extraction_cache WHERE key = ?"

// cacheUpsert stores a value under a key, replacing what was there.
const cacheUpsert = `INSERT INTO extraction_cache (key, value, created_at) VALUES (?, ?, ?)
	ON CONFLICT (key) DO UPDATE SET value = excluded.value, created_at = excluded.created_at`

// CacheGet returns the extraction result stored under key (a content hash
// of the extractor's input), and whether there was one, so a rerun over
// the same history asks the LLM nothing twice.
func (s *Store) CacheGet(ctx context.Context, key string) ([]byte, bool, error) {
	var value []byte
	err := s.db.GetContext(ctx, &value, cacheSelect, key)
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
	const op = "write the extraction cache"
	if err := s.writable(op); err != nil {
		return err
	}
	if value == nil {
		value = []byte{}
	}
	_, err := s.db.ExecContext(ctx, cacheUpsert, key, value, formatTime(s.now()))
	return classify(op, err)
}

// CacheUpdate replaces the value under key with fn's answer to the current
// one (nil and false when there is none), atomically: fn runs inside a
// write transaction, so concurrent updaters of one key — two hook
// processes of one agent session firing at once — each see the other's
// result instead of overwriting it. fn holds the write lock, so it must
// be quick, and it may run more than once when a busy write is retried.
func (s *Store) CacheUpdate(ctx context.Context, key string, fn func(old []byte, found bool) ([]byte, error)) error {
	const op = "update the cache"
	return s.inTx(ctx, op, func(tx *sqlx.Tx) error {
		var old []byte
		found := true
		err := tx.GetContext(ctx, &old, cacheSelect, key)
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
		_, err = tx.ExecContext(ctx, cacheUpsert, key, next, formatTime(s.now()))
		return classify(op+": write", err)
	})
}

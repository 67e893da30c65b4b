package store

import (
	"context"
	"database/sql"
	"errors"
)

// CacheGet returns the extraction result stored under key (a content hash
// of the extractor's input), and whether there was one, so a rerun over
// the same history asks the LLM nothing twice.
func (s *Store) CacheGet(ctx context.Context, key string) ([]byte, bool, error) {
	var value []byte
	err := s.db.GetContext(ctx, &value, "SELECT value FROM extraction_cache WHERE key = ?", key)
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
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO extraction_cache (key, value, created_at) VALUES (?, ?, ?)
		 ON CONFLICT (key) DO UPDATE SET value = excluded.value, created_at = excluded.created_at`,
		key, value, formatTime(s.now()))
	return classify(op, err)
}

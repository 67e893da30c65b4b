package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	handoff "github.com/handoff-cli/handoff"
)

// migrationFiles holds the schema, one numbered file per step
// (0001_init.sql, 0002_….sql). A step is never edited once released; a
// change is a new file.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// searchStep is the migration that adds the search index;
// derivedSessionsStep the one from which session numbers follow
// SessionNumbers.
const (
	searchStep          = 5
	derivedSessionsStep = 4
)

// applicationID marks a SQLite file as handoff's ("HAND"); migration 0001
// sets it.
const applicationID = 0x48414E44

// Migration is one numbered schema step of a store (this SQLite store's
// PRAGMA user_version is the number of the last step applied; the
// PostgreSQL store records each in a table).
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// LoadMigrations reads the steps in fsys's migrations folder in order and
// checks they are numbered 1, 2, 3… with no gap. Every store keeps its
// dialect's steps in such a folder, embedded.
func LoadMigrations(fsys fs.FS) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, "migrations")
	if err != nil {
		return nil, fmt.Errorf("read embedded migrations: %w", err)
	}
	var out []Migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v != len(out)+1 {
			return nil, handoff.Errorf(handoff.EINTERNAL, "embedded migration %s is out of sequence (want number %d)", e.Name(), len(out)+1)
		}
		body, err := fs.ReadFile(fsys, "migrations/"+e.Name())
		if err != nil {
			return nil, fmt.Errorf("read embedded migration %s: %w", e.Name(), err)
		}
		out = append(out, Migration{Version: v, Name: e.Name(), SQL: string(body)})
	}
	return out, nil
}

// migrate brings the schema up to the newest step this build knows, each
// step in its own write transaction. Several processes may open a fresh
// file at once: each step re-reads the version under the write lock, so
// only one of them applies it.
func (s *Store) migrate(ctx context.Context) (err error) {
	steps, err := LoadMigrations(migrationFiles)
	if err != nil {
		return err
	}
	latest := len(steps)
	version, err := s.checkOwnership(ctx, latest)
	if err != nil {
		return err
	}
	if version == latest {
		return nil
	}
	if s.readOnly {
		return handoff.Errorf(handoff.ECONFLICT,
			"database %s has schema version %d but this build needs %d: open it once without read-only to upgrade it", s.path, version, latest)
	}
	defer func() {
		// Snapshots stored before the search index existed are indexed
		// once, when the step that adds it has just been applied.
		if version < derivedSessionsStep && err == nil {
			err = s.renumberAll(ctx)
		}
		if version < searchStep && err == nil {
			err = s.indexMissing(ctx)
		}
	}()
	for _, m := range steps[version:] {
		err := s.inTx(ctx, "apply migration "+m.Name, func(tx *sqlx.Tx) error {
			current, err := userVersion(ctx, tx)
			if err != nil {
				return err
			}
			if current >= m.Version {
				return nil // another process got there first
			}
			if current != m.Version-1 {
				return handoff.Errorf(handoff.ECORRUPT, "database schema version %d cannot take migration %s", current, m.Name)
			}
			if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
				return classify("apply migration "+m.Name, err)
			}
			if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.Version)); err != nil {
				return classify("record migration "+m.Name, err)
			}
			s.log.Debug("applied migration", "db", s.path, "migration", m.Name)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// checkOwnership returns the applied schema version after refusing files
// that are SQLite but not handoff's, and handoff databases written by a
// newer build, before anything is changed. The three facts are read in one
// statement, so they are consistent even while another process is
// applying the first migration.
func (s *Store) checkOwnership(ctx context.Context, latest int) (int, error) {
	var facts struct {
		Version int   `db:"version"`
		AppID   int64 `db:"app_id"`
		Tables  int   `db:"tables"`
	}
	err := s.db.GetContext(ctx, &facts, `SELECT
		(SELECT user_version FROM pragma_user_version) AS version,
		(SELECT application_id FROM pragma_application_id) AS app_id,
		(SELECT count(*) FROM sqlite_schema WHERE name NOT LIKE 'sqlite\_%' ESCAPE '\') AS tables`)
	if err != nil {
		return 0, classify("inspect the database", err)
	}
	if facts.AppID != 0 && facts.AppID != applicationID {
		return 0, handoff.Errorf(handoff.ECORRUPT, "%s: not a handoff database (it belongs to another program, application id %#x)", s.path, facts.AppID)
	}
	if facts.Version > latest {
		return 0, handoff.Errorf(handoff.ECONFLICT,
			"database %s has schema version %d, newer than this build of handoff knows (%d): upgrade handoff, or use --db to point at another file", s.path, facts.Version, latest)
	}
	if facts.Version == 0 && facts.Tables > 0 {
		return 0, handoff.Errorf(handoff.ECORRUPT, "%s: not a handoff database (it already holds %d tables of another program)", s.path, facts.Tables)
	}
	return facts.Version, nil
}

// userVersion reads the applied schema version.
func userVersion(ctx context.Context, q sqlx.QueryerContext) (int, error) {
	var v int
	if err := sqlx.GetContext(ctx, q, &v, "PRAGMA user_version"); err != nil {
		return 0, classify("read the database schema version", err)
	}
	return v, nil
}

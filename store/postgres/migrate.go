package postgres

import (
	"context"
	"database/sql"
	"embed"

	"github.com/jmoiron/sqlx"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// migrationFiles holds the Postgres schema, one numbered file per step. A
// released step is never edited; a change is a new file.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationLock is the advisory lock key ("HAND") that serialises
// migrations of several processes opening a fresh database at once.
const migrationLock = 0x48414E44

// migrate applies the steps this database has not recorded yet, each in its
// own transaction with its row in schema_migrations, under an advisory
// lock so concurrent openers apply each step once.
func (s *Store) migrate(ctx context.Context) error {
	steps, err := store.LoadMigrations(migrationFiles)
	if err != nil {
		return err
	}
	// An up-to-date database is only read: a team member's role needs no
	// right to create anything in the schema (README: roles and grants).
	var exists bool
	if err := s.db.GetContext(ctx, &exists, "SELECT to_regclass('handoff_schema_migrations') IS NOT NULL"); err != nil {
		return classify("read the schema version", err)
	}
	if exists {
		var current sql.NullInt64
		if err := s.db.GetContext(ctx, &current, "SELECT MAX(version) FROM handoff_schema_migrations"); err != nil {
			return classify("read the schema version", err)
		}
		if current.Valid && int(current.Int64) == len(steps) {
			return nil
		}
	}
	applied, before := 0, 0
	err = s.inTx(ctx, "migrate the schema", false, func(tx *sqlx.Tx) error {
		applied = 0
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", migrationLock); err != nil {
			return classify("lock for migration", err)
		}
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS handoff_schema_migrations (
			version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
			return classify("create the migrations table", err)
		}
		var version int
		if err := tx.GetContext(ctx, &version, "SELECT COALESCE(MAX(version), 0) FROM handoff_schema_migrations"); err != nil {
			return classify("read the schema version", err)
		}
		before = version
		if version > len(steps) {
			return handoff.Errorf(handoff.ECONFLICT,
				"the database has schema version %d but this build knows only %d: upgrade handoff", version, len(steps))
		}
		for _, m := range steps[version:] {
			if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
				return classify("apply migration "+m.Name, err)
			}
			if _, err := tx.ExecContext(ctx, "INSERT INTO handoff_schema_migrations (version, name) VALUES ($1, $2)", m.Version, m.Name); err != nil {
				return classify("record migration "+m.Name, err)
			}
			s.log.Info("applied migration", "name", m.Name)
			applied = m.Version
		}
		return nil
	})
	if err == nil && applied >= derivedSessionsStep && before < derivedSessionsStep {
		// Older databases numbered sessions in order of arrival.
		err = s.renumberAll(ctx)
	}
	if err == nil && applied >= searchStep && before < searchStep {
		// Snapshots stored before the search index existed are indexed
		// once, after the step that adds it.
		err = s.indexMissing(ctx)
	}
	return err
}

// searchStep is the migration that adds the search index;
// derivedSessionsStep the one from which session numbers follow
// store.SessionNumbers.
const (
	searchStep          = 4
	derivedSessionsStep = 3
)

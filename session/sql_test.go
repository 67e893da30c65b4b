package session

import (
	"database/sql"

	_ "github.com/mattn/go-sqlite3" // the driver the store uses
)

// sqlOpen opens the test's database file directly, to inject faults the
// store's API cannot.
func sqlOpen(path string) (*sql.DB, error) { return sql.Open("sqlite3", path) }

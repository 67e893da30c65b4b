package storetest

import (
	"database/sql"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff/store"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, to create throw-away schemas
)

// PostgresEnv names the variable holding the test server's URL.
const PostgresEnv = "HANDOFF_TEST_POSTGRES"

// PostgresURL returns the test server's URL from HANDOFF_TEST_POSTGRES.
// Without one the test is skipped with a message saying how to run it;
// under CI (CI=true) a missing server fails instead, so CI can never pass
// by skipping the Postgres suite.
func PostgresURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(PostgresEnv)
	if u != "" {
		return u
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not set under CI: the PostgreSQL store must be tested there (see .ci/run)", PostgresEnv)
	}
	t.Skipf("PostgreSQL tests skipped: set %s=postgres://… to a throw-away database to run them", PostgresEnv)
	return ""
}

// FreshPostgres returns a URL whose search_path is a new, empty schema in
// the test server, dropped when the test ends, so each test sees a fresh
// database without creating one.
func FreshPostgres(t testing.TB) string {
	t.Helper()
	base := PostgresURL(t)
	db, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("open %s: %v", PostgresEnv, err)
	}
	t.Cleanup(func() { db.Close() })
	name := "t_" + strings.ToLower(strings.NewReplacer("/", "_", "-", "_", "#", "_", " ", "_").Replace(t.Name()))
	if len(name) > 50 {
		name = name[:50]
	}
	name += "_" + store.NewID("")
	if _, err := db.Exec(`CREATE SCHEMA "` + name + `"`); err != nil {
		t.Fatalf("create schema %s: %v", name, err)
	}
	t.Cleanup(func() {
		if _, err := db.Exec(`DROP SCHEMA "` + name + `" CASCADE`); err != nil {
			t.Logf("drop schema %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s is not a URL: %v", PostgresEnv, err)
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String()
}

package postgres_test

import (
	"context"
	"testing"

	"github.com/handoff-cli/handoff/store/postgres"
	"github.com/handoff-cli/handoff/store/storetest"
)

// TestConformance runs the shared store suite against PostgreSQL, each
// test in a fresh schema of the HANDOFF_TEST_POSTGRES server.
func TestConformance(t *testing.T) {
	storetest.PostgresURL(t) // skip (or fail under CI) before any subtest
	storetest.Run(t, func(t *testing.T) storetest.Store {
		s, err := postgres.Open(context.Background(), storetest.FreshPostgres(t), postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}, storetest.Options{})
}

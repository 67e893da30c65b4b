package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/storetest"
)

// TestConformance runs the shared store suite against SQLite, on a real
// file per test; the migration case opens a file written with the old
// schema.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	open := func(t *testing.T, path string) storetest.Store {
		s, err := store.Open(context.Background(), path, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	storetest.Run(t, func(t *testing.T) storetest.Store {
		return open(t, filepath.Join(t.TempDir(), "handoff.db"))
	}, storetest.Options{OpenOld: func(t *testing.T) storetest.Store {
		rows := make([]store.OldRow, len(storetest.OldRows))
		for i, r := range storetest.OldRows {
			rows[i] = store.OldRow(r)
		}
		return open(t, store.OldSchemaDB(t, rows, storetest.OldSessionCounts))
	}})
}

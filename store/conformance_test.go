package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/storetest"
)

// TestConformance runs the shared store suite against SQLite, on a real
// file per test.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Store {
		s, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "handoff.db"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}, storetest.Options{})
}

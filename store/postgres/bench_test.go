package postgres_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/postgres"
	"github.com/handoff-cli/handoff/store/storetest"
)

// benchStores opens both backends on fresh databases, so one run measures
// them side by side: go test -bench . ./store/postgres (with
// HANDOFF_TEST_POSTGRES set; without it the postgres half is skipped).
func benchStores(b *testing.B) map[string]func(b *testing.B) storetest.Store {
	return map[string]func(b *testing.B) storetest.Store{
		"sqlite": func(b *testing.B) storetest.Store {
			s, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "h.db"), store.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			return s
		},
		"postgres": func(b *testing.B) storetest.Store {
			s, err := postgres.Open(context.Background(), storetest.FreshPostgres(b), postgres.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			return s
		},
	}
}

// BenchmarkSave measures one SaveSnapshot (one transaction, fsync'd by
// each engine's default durability).
func BenchmarkSave(b *testing.B) {
	for _, name := range []string{"sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			s := benchStores(b)[name](b)
			ctx := context.Background()
			i := 0
			for b.Loop() {
				if err := s.SaveSnapshot(ctx, storetest.Snap("wf_bench", i), store.WorkflowInfo{}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkList measures listing the newest 20 of 500 snapshots, what
// `handoff list` does.
func BenchmarkList(b *testing.B) {
	for _, name := range []string{"sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			s := benchStores(b)[name](b)
			ctx := context.Background()
			for i := range 500 {
				if err := s.SaveSnapshot(ctx, storetest.Snap("wf_bench", i), store.WorkflowInfo{}); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				list, _, err := s.ListSnapshots(ctx, store.ListFilter{Limit: 20})
				if err != nil || len(list) != 20 {
					b.Fatal(len(list), err)
				}
			}
		})
	}
}

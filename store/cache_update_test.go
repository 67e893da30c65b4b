package store

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
)

// TestCacheUpdateSerialises: concurrent read-modify-write updates of one
// key through separate handles on one file (as separate processes would
// be) lose none of each other's changes.
func TestCacheUpdateSerialises(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := tempDB(t)
	const handles, perHandle = 4, 25
	stores := make([]*Store, handles)
	for i := range stores {
		stores[i] = openTest(t, path)
	}
	increment := func(old []byte, found bool) ([]byte, error) {
		n := 0
		if found {
			var err error
			if n, err = strconv.Atoi(string(old)); err != nil {
				return nil, err
			}
		}
		return []byte(strconv.Itoa(n + 1)), nil
	}
	var wg sync.WaitGroup
	errs := make(chan error, handles*perHandle)
	for _, s := range stores {
		wg.Go(func() {
			for range perHandle {
				if err := s.CacheUpdate(ctx, "counter", increment); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got, ok, err := stores[0].CacheGet(ctx, "counter")
	if err != nil || !ok {
		t.Fatalf("CacheGet: %v, found %v", err, ok)
	}
	if want := strconv.Itoa(handles * perHandle); string(got) != want {
		t.Errorf("counter = %s after %d concurrent increments, want %s", got, handles*perHandle, want)
	}
}

// TestCacheUpdateError: an error from fn leaves the stored value as it was.
func TestCacheUpdateError(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	if err := s.CachePut(ctx, "k", []byte("old")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := s.CacheUpdate(ctx, "k", func(old []byte, found bool) ([]byte, error) {
		if !found || string(old) != "old" {
			t.Errorf("fn saw %q, found %v; want \"old\", true", old, found)
		}
		return nil, boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("CacheUpdate error = %v, want boom", err)
	}
	if got, _, _ := s.CacheGet(ctx, "k"); string(got) != "old" {
		t.Errorf("value = %q after a failed update, want \"old\"", got)
	}
}

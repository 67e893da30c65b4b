package store

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	handoff "github.com/handoff-cli/handoff"
)

// seeded creates a database at path holding n snapshots of workflow "wf",
// closes it (checkpointing the WAL into the file) and returns their ids.
func seeded(t *testing.T, path string, n int) []string {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for range n {
		snap := fullSnapshot("wf")
		if err := s.SaveSnapshot(ctx, snap, WorkflowInfo{}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, snap.ID)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return ids
}

// checkSeeded fails unless the database at path holds exactly ids, whole.
func checkSeeded(t *testing.T, path string, ids []string) {
	t.Helper()
	s := openTest(t, path)
	if n := checkIntact(t, s); n != len(ids) {
		t.Fatalf("%d snapshots, want %d", n, len(ids))
	}
	for _, id := range ids {
		if _, err := s.Snapshot(context.Background(), id); err != nil {
			t.Errorf("snapshot %s: %v", id, err)
		}
	}
}

func TestGarbageHeader(t *testing.T) {
	t.Parallel()
	path := tempDB(t)
	ids := seeded(t, path, 3)
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	damaged := bytes.Clone(orig)
	copy(damaged, "garbage garbage garbage garbage!")
	writeFile(t, path, damaged)

	for _, opts := range []Options{{}, {ReadOnly: true}} {
		s, err := Open(context.Background(), path, opts)
		if err == nil {
			s.Close()
			t.Fatalf("Open(%+v) of a garbage header succeeded", opts)
		}
		wantCode(t, err, handoff.ECORRUPT)
		if !strings.Contains(err.Error(), "not a handoff database") || strings.Count(err.Error(), "\n") > 0 {
			t.Errorf("error is not one clear line: %q", err)
		}
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(after, damaged) {
		t.Fatal("a failed open changed the file")
	}
	// Restoring the header restores everything: nothing else was touched.
	writeFile(t, path, orig)
	checkSeeded(t, path, ids)
}

// mount runs mount(8) and unmounts when the test ends; it skips the test
// when mounting is not possible here (not root, no mount, a container
// without the capability).
func mount(t *testing.T, args ...string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting needs root")
	}
	if out, err := exec.Command("mount", args...).CombinedOutput(); err != nil {
		t.Skipf("mount %v: %v: %s", args, err, out)
	}
	target := args[len(args)-1]
	t.Cleanup(func() {
		if out, err := exec.Command("umount", target).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", target, err, out)
		}
	})
}

func TestReadOnlyDirectory(t *testing.T) {
	t.Parallel()
	path := tempDB(t)
	dir := filepath.Dir(path)
	ids := seeded(t, path, 3)
	// A read-only bind mount of the directory over itself: even root
	// cannot write there (plain permissions do not stop root).
	mount(t, "--bind", dir, dir)
	if out, err := exec.Command("mount", "-o", "remount,bind,ro", dir).CombinedOutput(); err != nil {
		t.Skipf("remount read-only: %v: %s", err, out)
	}

	s, err := Open(context.Background(), path, Options{})
	if err == nil {
		// SQLite may open a WAL database read-only when it cannot create
		// the -shm file; then every write must fail cleanly instead.
		err = s.SaveSnapshot(context.Background(), minimalSnapshot("wf"), WorkflowInfo{})
		s.Close()
	}
	if err == nil {
		t.Fatal("writing into a read-only directory succeeded")
	}
	wantCode(t, err, handoff.EUNAVAILABLE)
	if !strings.Contains(err.Error(), "not writable") {
		t.Errorf("error does not say what to check: %q", err)
	}
	t.Logf("read-only directory: %v", err)

	if out, err := exec.Command("mount", "-o", "remount,bind,rw", dir).CombinedOutput(); err != nil {
		t.Fatalf("remount read-write: %v: %s", err, out)
	}
	checkSeeded(t, path, ids)
}

func TestFullDisk(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// 1 MiB holds the schema, the WAL of its migrations and a few
	// snapshots (512 KiB held one until migration 0007, then none).
	mount(t, "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir)
	path := filepath.Join(dir, "handoff.db")
	ctx := context.Background()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var stored []string
	var failure error
	for i := range 1000 {
		snap := fullSnapshot("wf")
		snap.Goal = strings.Repeat("fill the disk ", 1200) // ~16 KiB
		if err := s.SaveSnapshot(ctx, snap, WorkflowInfo{}); err != nil {
			failure = err
			if snap.ID != "" {
				t.Errorf("a failed save %d set the snapshot id", i)
			}
			break
		}
		stored = append(stored, snap.ID)
	}
	if failure == nil {
		t.Fatal("1 MiB never filled up")
	}
	wantCode(t, failure, handoff.EUNAVAILABLE)
	if !strings.Contains(failure.Error(), "free space") {
		t.Errorf("error does not mention free space: %q", failure)
	}
	t.Logf("disk full after %d snapshots: %v", len(stored), failure)

	// What was stored before is whole, and the failed save left nothing.
	if n := checkIntact(t, s); n != len(stored) {
		t.Errorf("%d snapshots readable, want the %d stored", n, len(stored))
	}
	checkSessions(t, s, "wf", len(stored))
	// Once there is room again, writing resumes.
	if out, err := exec.Command("mount", "-o", "remount,size=8m", dir).CombinedOutput(); err != nil {
		t.Fatalf("grow tmpfs: %v: %s", err, out)
	}
	if err := s.SaveSnapshot(ctx, fullSnapshot("wf"), WorkflowInfo{}); err != nil {
		t.Errorf("save after freeing space: %v", err)
	}
	checkSessions(t, s, "wf", len(stored)+1)
}

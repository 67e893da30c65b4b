package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/storetest"
)

// seed saves n snapshots of workflow wf, numbered from first, into the
// SQLite file db.
func seed(t *testing.T, db, wf string, first, n int) {
	t.Helper()
	s, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range n {
		if err := s.SaveSnapshot(context.Background(), storetest.Snap(wf, first+i), store.WorkflowInfo{Name: wf, Dir: "/work/" + wf}); err != nil {
			t.Fatal(err)
		}
	}
}

// count returns how many snapshots target holds.
func count(t *testing.T, target string) int {
	t.Helper()
	a := &app{getenv: func(string) string { return "" }}
	s, err := a.openTarget(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	list, _, err := s.ListSnapshots(context.Background(), store.ListFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}

// testSync checks the sync contract between a local SQLite file and
// remote: copies what is missing, twice copies nothing, then exactly the
// new ones, and back the other way.
func testSync(t *testing.T, remote string) {
	dir := t.TempDir()
	local := filepath.Join(dir, "local.db")
	seed(t, local, "wf_a", 0, 3)
	seed(t, local, "wf_b", 10, 2)

	steps := []struct {
		name   string
		db     string
		args   []string
		before func()
		want   string
		total  int // snapshots at the destination after the step
		dst    string
	}{
		{name: "first push", db: local, args: []string{"sync", "--to", remote}, want: "copied 5 snapshots, 0 already there", total: 5, dst: remote},
		{name: "second push copies nothing", db: local, args: []string{"sync", "--to", remote}, want: "copied 0 snapshots, 5 already there", total: 5, dst: remote},
		{name: "100 new local snapshots", db: local, args: []string{"sync", "--to", remote},
			before: func() { seed(t, local, "wf_a", 100, 100) }, want: "copied 100 snapshots, 5 already there", total: 105, dst: remote},
		{name: "pull into an empty file", db: filepath.Join(dir, "other.db"), args: []string{"sync", "--from", remote},
			want: "copied 105 snapshots, 0 already there", total: 105, dst: filepath.Join(dir, "other.db")},
		{name: "pull again copies nothing", db: filepath.Join(dir, "other.db"), args: []string{"sync", "--from", remote},
			want: "copied 0 snapshots, 105 already there", total: 105, dst: filepath.Join(dir, "other.db")},
	}
	for _, st := range steps {
		if st.before != nil {
			st.before()
		}
		r := runCLI(t, st.db, "", st.args...)
		if r.err != nil {
			t.Fatalf("%s: %v\n%s", st.name, r.err, r.stderr)
		}
		if !strings.Contains(r.stderr, st.want) {
			t.Fatalf("%s: stderr %q lacks %q", st.name, r.stderr, st.want)
		}
		if got := count(t, st.dst); got != st.total {
			t.Fatalf("%s: destination holds %d snapshots, want %d", st.name, got, st.total)
		}
	}
	// Session numbers at the pulled copy follow the source's order.
	a := &app{getenv: func(string) string { return "" }}
	s, err := a.openTarget(context.Background(), filepath.Join(dir, "other.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	list, _, err := s.ListSnapshots(context.Background(), store.ListFilter{WorkflowID: "wf_b"})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].SessionNumber != 2 || list[0].Goal != "goal wf_b #11" {
		t.Fatalf("wf_b at the copy: %+v", list)
	}
	wf, err := s.Workflow(context.Background(), "wf_b")
	if err != nil || wf.Dir != "/work/wf_b" {
		t.Fatalf("copied workflow: %+v %v", wf, err)
	}
}

func TestSyncSQLite(t *testing.T) {
	t.Parallel()
	testSync(t, filepath.Join(t.TempDir(), "team.db"))
}

func TestSyncPostgres(t *testing.T) {
	testSync(t, storetest.FreshPostgres(t))
}

func TestSyncFlags(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "h.db")
	for _, args := range [][]string{{"sync"}, {"sync", "--to", "a.db", "--from", "b.db"}} {
		r := runCLI(t, db, "", args...)
		if handoff.ErrorCode(r.err) != handoff.EINVALID {
			t.Errorf("%v: %v, want EINVALID", args, r.err)
		}
	}
	// Every command now runs on a postgres --db (TestCLIOnPostgres); an
	// unreachable one is "try again", without the password.
	r := runCLI(t, "postgres://me:secret@127.0.0.1:1/team?connect_timeout=1", "", "list")
	if handoff.ErrorCode(r.err) != handoff.EUNAVAILABLE || strings.Contains(r.stderr, "secret") {
		t.Errorf("a postgres --db for list: %v\n%s", r.err, r.stderr)
	}
	r = runCLI(t, db, "", "sync", "--to", "postgres://me:secret@127.0.0.1:1/team?connect_timeout=1")
	if handoff.ErrorCode(r.err) != handoff.EUNAVAILABLE || strings.Contains(r.stderr, "secret") {
		t.Errorf("unreachable team server: %v\n%s", r.err, r.stderr)
	}
}

package postgres_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/postgres"
	"github.com/handoff-cli/handoff/store/storetest"
)

// pgDataEnv names the data directory of the test server, which
// TestServerRestartMidWrite stops hard and starts again. Opt-in: only a
// throw-away cluster should be given.
const pgDataEnv = "HANDOFF_TEST_PGDATA"

// pgCtl runs pg_ctl on the test cluster, as the postgres user when root.
func pgCtl(t *testing.T, args ...string) {
	t.Helper()
	bin, err := exec.LookPath("pg_ctl")
	if err != nil {
		t.Fatalf("pg_ctl: %v", err)
	}
	argv := append([]string{bin, "-D", os.Getenv(pgDataEnv)}, args...)
	if os.Geteuid() == 0 {
		argv = append([]string{"runuser", "-u", "postgres", "--"}, argv...)
	}
	if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", argv, err, out)
	}
}

// TestServerRestartMidWrite stops the server with `pg_ctl stop -m
// immediate` while 4 writers save, then starts it: every acknowledged
// snapshot must be present and whole, numbers gap-free, and every failure
// a one-line EUNAVAILABLE.
func TestServerRestartMidWrite(t *testing.T) {
	if os.Getenv(pgDataEnv) == "" {
		t.Skipf("set %s to the throw-away test cluster's data directory to run it (it restarts the server)", pgDataEnv)
	}
	u := storetest.FreshPostgres(t)
	s, err := postgres.Open(context.Background(), u, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, stop := context.WithCancel(context.Background())
	var (
		mu    sync.Mutex
		acked []string
		fails []error
		wg    sync.WaitGroup
	)
	for w := range 4 {
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				snap := storetest.Snap("wf_restart", w*100000+i)
				err := s.SaveSnapshot(context.Background(), snap, store.WorkflowInfo{})
				mu.Lock()
				if err == nil {
					acked = append(acked, snap.ID)
				} else {
					fails = append(fails, err)
				}
				mu.Unlock()
				if err != nil {
					time.Sleep(50 * time.Millisecond)
				}
			}
		})
	}
	time.Sleep(500 * time.Millisecond)
	pgCtl(t, "stop", "-m", "immediate")
	time.Sleep(300 * time.Millisecond)
	pgCtl(t, "start", "-w", "-l", os.Getenv(pgDataEnv)+"/../log")
	time.Sleep(700 * time.Millisecond)
	stop()
	wg.Wait()

	for _, err := range fails {
		if handoff.ErrorCode(err) != handoff.EUNAVAILABLE || strings.Contains(err.Error(), "\n") {
			t.Errorf("a writer's failure is not a one-line EUNAVAILABLE: %q (%s)", err, handoff.ErrorCode(err))
		}
	}
	var ce *handoff.Error
	if len(fails) > 0 && !errors.As(fails[0], &ce) {
		t.Errorf("failure is not a handoff error: %v", fails[0])
	}
	list, damaged, err := s.ListSnapshots(context.Background(), store.ListFilter{WorkflowID: "wf_restart"})
	if err != nil || len(damaged) != 0 {
		t.Fatal(err, damaged)
	}
	stored := map[string]bool{}
	var nums []int
	for _, x := range list {
		stored[x.ID] = true
		nums = append(nums, x.SessionNumber)
	}
	for _, id := range acked {
		if !stored[id] {
			t.Errorf("acknowledged snapshot %s is missing after the restart", id)
		}
		if _, err := s.Snapshot(context.Background(), id); err != nil {
			t.Errorf("acknowledged snapshot %s does not load: %v", id, err)
		}
	}
	slices.Sort(nums)
	for i, n := range nums {
		if n != i+1 {
			t.Fatalf("session numbers not gap-free after the restart: position %d holds %d", i+1, n)
		}
	}
	t.Logf("%d acknowledged, %d stored, %d writer failures (all one-line EUNAVAILABLE)", len(acked), len(list), len(fails))
	if len(fails) > 0 {
		t.Logf("a failure: %v", fails[0])
	}
}

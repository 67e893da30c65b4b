package postgres_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"testing"

	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/postgres"
	"github.com/handoff-cli/handoff/store/storetest"
)

// Environment of the multi-process test: HANDOFF_PG_PROCS=PROCSxSAVES
// (e.g. 8x300) turns it on; the children get the URL and their share.
const (
	procsEnv      = "HANDOFF_PG_PROCS"
	childURLEnv   = "HANDOFF_PG_CHILD_URL"
	childIndexEnv = "HANDOFF_PG_CHILD_INDEX"
	childSavesEnv = "HANDOFF_PG_CHILD_SAVES"
)

// TestProcsChild is one writer process of TestMultiProcessSavers; it does
// nothing when run directly.
func TestProcsChild(t *testing.T) {
	u := os.Getenv(childURLEnv)
	if u == "" {
		t.Skip("a child of TestMultiProcessSavers")
	}
	idx, _ := strconv.Atoi(os.Getenv(childIndexEnv))
	n, _ := strconv.Atoi(os.Getenv(childSavesEnv))
	s, err := postgres.Open(context.Background(), u, postgres.Options{MaxOpenConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range n {
		if err := s.SaveSnapshot(context.Background(), storetest.Snap("wf_procs", idx*n+i), store.WorkflowInfo{}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMultiProcessSavers runs PROCS processes saving SAVES snapshots each
// into one workflow at once (the 8 × 300): every save must be
// stored, numbered 1..PROCS*SAVES without a gap. Opt-in, as it is a load
// test: HANDOFF_PG_PROCS=8x300 go test -run TestMultiProcessSavers ./store/postgres
func TestMultiProcessSavers(t *testing.T) {
	spec := os.Getenv(procsEnv)
	if spec == "" {
		t.Skipf("load test: set %s=8x300 to run it", procsEnv)
	}
	var procs, saves int
	if _, err := fmt.Sscanf(spec, "%dx%d", &procs, &saves); err != nil || procs < 1 || saves < 1 {
		t.Fatalf("%s=%q: want PROCSxSAVES", procsEnv, spec)
	}
	u := storetest.FreshPostgres(t)
	s, err := postgres.Open(context.Background(), u, postgres.Options{}) // migrate once up front
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cmds := make([]*exec.Cmd, procs)
	for i := range cmds {
		c := exec.Command(os.Args[0], "-test.run=^TestProcsChild$", "-test.count=1")
		c.Env = append(os.Environ(), childURLEnv+"="+u, childIndexEnv+"="+strconv.Itoa(i), childSavesEnv+"="+strconv.Itoa(saves))
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i] = c
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	list, damaged, err := s.ListSnapshots(context.Background(), store.ListFilter{WorkflowID: "wf_procs"})
	if err != nil || len(damaged) != 0 {
		t.Fatal(err, damaged)
	}
	nums := make([]int, 0, len(list))
	for _, x := range list {
		nums = append(nums, x.SessionNumber)
	}
	slices.Sort(nums)
	want := procs * saves
	if len(nums) != want || nums[0] != 1 || nums[len(nums)-1] != want {
		t.Fatalf("stored %d snapshots numbered %d..%d, want %d numbered 1..%d", len(nums), nums[0], nums[len(nums)-1], want, want)
	}
	for i, n := range nums {
		if n != i+1 {
			t.Fatalf("gap or duplicate at %d: %d", i+1, n)
		}
	}
	t.Logf("%d processes × %d saves: %d/%d stored, session numbers 1..%d gap-free", procs, saves, len(nums), want, want)
}

package main

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/handoff-cli/handoff/store/storetest"
)

// testResumeClaim: resuming a paused workflow is a claim. Of two resumes
// run at once exactly one prints the prompt; the other exits 7
// (exitClaimed) saying so, until --force takes the workflow over.
func testResumeClaim(t *testing.T, db string) {
	repo, session := sessionInRepo(t)
	mustRun(t, db, session, "pause")
	var (
		wg      sync.WaitGroup
		results [2]result
	)
	for i := range results {
		wg.Go(func() { results[i] = runCLI(t, db, "", "resume", "--dir", repo) })
	}
	wg.Wait()
	won, claimed := 0, 0
	for _, r := range results {
		switch {
		case r.err == nil && r.stdout != "":
			won++
		case exitCode(r.err) == exitClaimed:
			claimed++
		default:
			t.Errorf("a concurrent resume: exit %d, %v\n%s", exitCode(r.err), r.err, r.stderr)
		}
	}
	if won != 1 || claimed != 1 {
		t.Fatalf("%d resumes won and %d were refused as claimed, want 1 and 1", won, claimed)
	}
	wantExit(t, runCLI(t, db, "", "resume", "--dir", repo), exitClaimed, "already in progress")
	mustRun(t, db, "", "resume", "--dir", repo, "--force")
}

func TestResumeClaimSQLite(t *testing.T) {
	t.Parallel()
	testResumeClaim(t, filepath.Join(t.TempDir(), "h.db"))
}

func TestResumeClaimPostgres(t *testing.T) {
	testResumeClaim(t, storetest.FreshPostgres(t))
}

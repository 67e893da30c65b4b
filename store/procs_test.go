package store

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	handoff "github.com/handoff-cli/handoff"
)

// Environment of a writer child: the database, how many snapshots to save
// (0: until killed), the workflow, and the size of the goal text.
const (
	writerDBEnv       = "HANDOFF_STORE_WRITER_DB"
	writerCountEnv    = "HANDOFF_STORE_WRITER_COUNT"
	writerWorkflowEnv = "HANDOFF_STORE_WRITER_WORKFLOW"
	writerPadEnv      = "HANDOFF_STORE_WRITER_PAD"
)

// TestWriterChild is the body of a writer process started by the
// multi-process tests; run directly it does nothing. It prints "saved N"
// after each snapshot so the parent knows where it stands.
func TestWriterChild(t *testing.T) {
	path := os.Getenv(writerDBEnv)
	if path == "" {
		t.Skip("only runs as a child of the multi-process tests")
	}
	n, _ := strconv.Atoi(os.Getenv(writerCountEnv))
	pad, _ := strconv.Atoi(os.Getenv(writerPadEnv))
	wf := os.Getenv(writerWorkflowEnv)
	ctx := context.Background()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("child open: %v", err)
	}
	defer s.Close()
	out := bufio.NewWriter(os.Stdout)
	for i := 1; n == 0 || i <= n; i++ {
		snap := fullSnapshot(wf)
		// Dated by the store's clock, as real writers are: sessions are
		// numbered by time, so a fixed date would make every save a tie
		// broken by renumbering the whole workflow.
		snap.CreatedAt = time.Time{}
		if pad > 0 {
			snap.Goal = strings.Repeat("x", pad)
		}
		if err := s.SaveSnapshot(ctx, snap, WorkflowInfo{Name: wf}); err != nil {
			t.Fatalf("child save %d: %v", i, err)
		}
		if n == 0 {
			fmt.Fprintf(out, "saved %d\n", i)
			out.Flush()
		}
	}
}

// lockedBuffer collects a child's output while the parent reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// writer starts a child process running TestWriterChild.
func writer(t *testing.T, path, workflow string, count, pad int) (*exec.Cmd, *lockedBuffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriterChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), writerDBEnv+"="+path, writerWorkflowEnv+"="+workflow,
		writerCountEnv+"="+strconv.Itoa(count), writerPadEnv+"="+strconv.Itoa(pad))
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, out
}

// checkIntact fails unless the database passes SQLite's integrity check and
// every stored snapshot decodes; it returns how many there are.
func checkIntact(t *testing.T, s *Store) int {
	t.Helper()
	var res []string
	if err := s.db.Select(&res, "PRAGMA integrity_check"); err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0] != "ok" {
		t.Fatalf("integrity_check: %v", res)
	}
	var fk []struct {
		Table  string `db:"table"`
		RowID  int64  `db:"rowid"`
		Parent string `db:"parent"`
		FKID   int    `db:"fkid"`
	}
	if err := s.db.Select(&fk, "PRAGMA foreign_key_check"); err != nil || len(fk) != 0 {
		t.Fatalf("foreign_key_check: %v %v", fk, err)
	}
	list, damaged, err := s.ListSnapshots(context.Background(), ListFilter{})
	if err != nil || len(damaged) != 0 {
		t.Fatalf("listing: %v, damaged %v", err, damaged)
	}
	return len(list)
}

// TestManyProcessWriters: 8 processes save 300 snapshots each to one
// fresh database, racing to create it too; every write must be stored,
// numbered without gaps, counted and logged.
func TestManyProcessWriters(t *testing.T) {
	t.Parallel()
	if os.Getenv(writerDBEnv) != "" {
		t.Skip("already a child")
	}
	if testing.Short() {
		t.Skip("starts 8 processes writing 2400 snapshots")
	}
	procs, each := 8, 300
	if raceEnabled {
		each = 75 // 8 × 75 under -race (see raceEnabled)
	}
	if v, err := strconv.Atoi(os.Getenv("HANDOFF_STORE_WRITES")); err == nil && v > 0 {
		each = v
	}
	path := tempDB(t)
	start := time.Now()
	cmds := make([]*exec.Cmd, procs)
	outs := make([]*lockedBuffer, procs)
	for i := range procs {
		cmds[i], outs[i] = writer(t, path, "multi", each, 0)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("writer %d: %v\n%s", i, err, outs[i])
		} else if !strings.Contains(outs[i].String(), "--- PASS: TestWriterChild") {
			t.Errorf("writer %d did not run:\n%s", i, outs[i])
		}
	}
	elapsed := time.Since(start)
	s := openTest(t, path)
	checkSessions(t, s, "multi", procs*each)
	if n := checkIntact(t, s); n != procs*each {
		t.Errorf("%d snapshots readable, want %d", n, procs*each)
	}
	t.Logf("%d processes × %d snapshots in %v (%.0f commits/s, process start-up included)",
		procs, each, elapsed.Round(time.Millisecond), float64(procs*each)/elapsed.Seconds())
}

// TestKillWriters kills a writer with SIGKILL at a random moment, 20
// times, on one database: afterwards SQLite's integrity check passes,
// every snapshot decodes, and sessions, counts and events agree — a
// snapshot is stored whole or not at all.
func TestKillWriters(t *testing.T) {
	t.Parallel()
	if os.Getenv(writerDBEnv) != "" {
		t.Skip("already a child")
	}
	if testing.Short() {
		t.Skip("starts and kills 20 processes")
	}
	const kills = 20
	path := tempDB(t)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 6))
	midWrite := 0
	for i := range kills {
		cmd, out := writer(t, path, "killed", 0, 64<<10) // 64 KiB snapshots span many pages
		// Half the kills wait for the first commit (so they land in the
		// middle of the write loop), half may land anywhere, open and
		// migration included.
		if i%2 == 0 {
			deadline := time.Now().Add(20 * time.Second)
			for !strings.Contains(out.String(), "saved") && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			midWrite++
		}
		time.Sleep(time.Duration(rng.IntN(40_000)) * time.Microsecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Logf("kill %d: writer ended on its own (%v):\n%s", i, err, out)
		}
		if _, err := os.Stat(path); err != nil {
			continue // killed before it created the file
		}
		s, err := Open(context.Background(), path, Options{})
		if err != nil {
			t.Fatalf("kill %d: reopen: %v", i, err)
		}
		n := checkIntact(t, s)
		if n > 0 {
			checkSessions(t, s, "killed", n)
		}
		s.Close()
	}
	s := openTest(t, path)
	t.Logf("%d kills (%d after the first commit), %d whole snapshots stored", kills, midWrite, checkIntact(t, s))
	var wf handoff.Workflow
	if err := s.db.Get(&wf, "SELECT "+workflowColumns+" FROM workflows WHERE id = 'killed'"); err != nil {
		t.Fatal(err)
	}
}

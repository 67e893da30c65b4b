package server

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/transcript"
)

// load runs readers concurrent API reads (each one GET of a rotating
// endpoint) against f while writers processes checkpoint the sample
// transcript into the same database file, as `handoff compile` processes
// would. Reading starts once every writer has stored its first snapshot.
// It returns every read's latency and the number of snapshots the writers
// stored.
func load(t testing.TB, f *fixture, readers, readsEach, writers int) ([]time.Duration, int) {
	t.Helper()
	paths := []string{
		"/api/workflows",
		"/api/workflows/" + sampleWF,
		"/api/workflows/" + sampleWF + "/snapshots",
		"/api/workflows/" + sampleWF + "/events",
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var (
		wg      sync.WaitGroup
		written int
		mu      sync.Mutex
		errs    []error
	)
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	for w := range writers {
		p, err := startWriter(f.store.Path(), w)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-ctx.Done()
			n, err := p.stop()
			if err != nil {
				fail(fmt.Errorf("writer process %d: %w", w, err))
			}
			mu.Lock()
			written += n
			mu.Unlock()
		}()
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: readers}}
	lat := make([]time.Duration, readers*readsEach)
	var rg sync.WaitGroup
	for r := range readers {
		rg.Add(1)
		go func() {
			defer rg.Done()
			for i := range readsEach {
				path := paths[(r+i)%len(paths)]
				start := time.Now()
				resp, err := client.Get(f.srv.URL + path)
				if err != nil {
					fail(err)
					return
				}
				_, err = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				lat[r*readsEach+i] = time.Since(start)
				if err != nil || resp.StatusCode != 200 {
					fail(fmt.Errorf("GET %s: %d %v", path, resp.StatusCode, err))
				}
			}
		}()
	}
	rg.Wait()
	stop()
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	return lat, written
}

func percentile(lat []time.Duration, p float64) time.Duration {
	s := slices.Clone(lat)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

// TestConcurrentReadsWhileWriting: 200 concurrent readers and 4 writer
// processes on one database file, and not one failed request or write.
func TestConcurrentReadsWhileWriting(t *testing.T) {
	if testing.Short() {
		t.Skip("load test in -short mode")
	}
	f := newFixture(t, nil)
	f.checkpoint("")
	f.checkpoint("")
	lat, written := load(t, f, 200, 2, 4)
	t.Logf("%d reads with %d snapshots written meanwhile: p50 %v, p99 %v", len(lat), written, percentile(lat, 0.50), percentile(lat, 0.99))
}

// BenchmarkConcurrentReads measures read latency under 200 concurrent
// readers, alone and with 4 writers compiling into the same file; compare
// the two p50/p99 figures of one run.
func BenchmarkConcurrentReads(b *testing.B) {
	for _, writers := range []int{0, 4} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			f := newFixture(b, nil)
			f.checkpoint("")
			f.checkpoint("")
			var all []time.Duration
			for b.Loop() {
				lat, _ := load(b, f, 200, 5, writers)
				all = append(all, lat...)
			}
			b.ReportMetric(float64(percentile(all, 0.50).Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(percentile(all, 0.99).Microseconds())/1000, "p99-ms")
		})
	}
}

// writerProc is a writer process: this test binary re-run as
// TestLoadWriterProcess.
type writerProc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Scanner
}

// startWriter starts a writer process on db and waits until it has stored
// its first snapshot.
func startWriter(db string, n int) (*writerProc, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestLoadWriterProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), "HANDOFF_LOAD_WRITER_DB="+db, "HANDOFF_LOAD_WRITER_ID="+strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start writer process: %w", err)
	}
	p := &writerProc{cmd: cmd, stdin: stdin, out: bufio.NewScanner(stdout)}
	for p.out.Scan() {
		if p.out.Text() == "ready" {
			return p, nil
		}
	}
	_ = cmd.Wait()
	return nil, fmt.Errorf("writer process %d ended before its first snapshot", n)
}

// stop closes the writer's standard input, which ends its loop, and
// returns how many snapshots it stored.
func (p *writerProc) stop() (int, error) {
	p.stdin.Close()
	n := -1
	for p.out.Scan() {
		if v, ok := strings.CutPrefix(p.out.Text(), "wrote "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	if err := p.cmd.Wait(); err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, fmt.Errorf("no count reported")
	}
	return n, nil
}

// TestLoadWriterProcess is the writer process of the load test, not a
// test of its own: it checkpoints the sample transcript into
// $HANDOFF_LOAD_WRITER_DB until its standard input closes.
func TestLoadWriterProcess(t *testing.T) {
	db := os.Getenv("HANDOFF_LOAD_WRITER_DB")
	if db == "" {
		t.Skip("the load test's writer process; runs only when started by it")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
	}()
	st, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	data := readSample(t)
	wf := "wf_writer_" + os.Getenv("HANDOFF_LOAD_WRITER_ID")
	n := 0
	for ctx.Err() == nil {
		tr, err := transcript.Parse(ctx, bytes.NewReader(data), transcript.Options{Source: "-"})
		if err == nil {
			_, err = session.Checkpoint(ctx, st, tr, session.CheckpointOptions{Build: session.BuildOptions{
				Counter: testCounter(t), Extractor: extractor.NewHeuristic(nil),
				Trigger: handoff.TriggerManual, Workflow: wf,
			}})
		}
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			t.Fatalf("checkpoint: %v", err)
		}
		n++
		if n == 1 {
			fmt.Println("ready")
		}
	}
	fmt.Printf("wrote %d\n", n)
}

// Command testprogress prints `go test -json` as it happens: one line per
// package as soon as it finishes (go test's own output waits for packages
// in order, so a slow first package hides every later result), the output
// of each failing test, a line every -every while packages are still
// running, and a summary. It exits 1 when a package or the build failed.
//
//	go test -json ./... | go run ./internal/testprogress
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

func main() {
	every := flag.Duration("every", 30*time.Second, "print the packages still running this often (0: never)")
	flag.Parse()
	p := newPrinter(os.Stdout, time.Now)
	if *every > 0 {
		t := time.NewTicker(*every)
		defer t.Stop()
		go func() {
			for range t.C {
				p.heartbeat()
			}
		}()
	}
	os.Exit(p.run(os.Stdin))
}

// event is one line of `go test -json` (test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

// printer turns events into progress lines.
type printer struct {
	mu                  sync.Mutex
	out                 io.Writer
	now                 func() time.Time
	start               time.Time
	running             map[string]time.Time // package → when it started
	output              map[string][]string  // package/test → its output lines
	ok, failed, noTests int
	failedPkgs          []string
}

func newPrinter(out io.Writer, now func() time.Time) *printer {
	return &printer{out: out, now: now, start: now(), running: map[string]time.Time{}, output: map[string][]string{}}
}

// run reads events until the input ends and returns the exit code.
func (p *printer) run(in io.Reader) int {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			p.printf("%s\n", line) // not JSON: a build error or go's own message
			continue
		}
		p.handle(e)
	}
	return p.summary(sc.Err())
}

func (p *printer) handle(e event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	key := e.Package + "\x00" + e.Test
	switch e.Action {
	case "start":
		p.running[e.Package] = p.now()
	case "output", "build-output":
		p.output[key] = append(p.output[key], e.Output)
	case "build-fail":
		p.failed++
		p.failedPkgs = append(p.failedPkgs, e.Package)
		fmt.Fprintf(p.out, "FAIL %s [build failed]\n%s", e.Package, strings.Join(p.output[key], ""))
	case "fail":
		if e.Test != "" {
			fmt.Fprintf(p.out, "--- FAIL %s %s (%.1fs)\n%s", e.Package, e.Test, e.Elapsed, strings.Join(p.output[key], ""))
			delete(p.output, key)
			return
		}
		delete(p.running, e.Package)
		p.failed++
		p.failedPkgs = append(p.failedPkgs, e.Package)
		fmt.Fprintf(p.out, "FAIL %s %.1fs\n", e.Package, e.Elapsed)
	case "pass", "skip":
		if e.Test != "" {
			delete(p.output, key) // a passing test's output is noise here
			return
		}
		delete(p.running, e.Package)
		if e.Action == "skip" {
			p.noTests++
			return // no test files: not worth a line
		}
		p.ok++
		fmt.Fprintf(p.out, "ok   %s %.1fs\n", e.Package, e.Elapsed)
	}
}

// heartbeat names the packages still running and for how long.
func (p *printer) heartbeat() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.running) == 0 {
		return
	}
	var names []string
	for pkg, since := range p.running {
		names = append(names, fmt.Sprintf("%s (%.0fs)", pkg, p.now().Sub(since).Seconds()))
	}
	slices.Sort(names)
	fmt.Fprintf(p.out, "… %.0fs: running %s\n", p.now().Sub(p.start).Seconds(), strings.Join(names, ", "))
}

func (p *printer) summary(readErr error) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.out, "%d packages ok, %d failed, %d without tests · %.0fs\n", p.ok, p.failed, p.noTests, p.now().Sub(p.start).Seconds())
	if readErr != nil {
		fmt.Fprintf(p.out, "reading go test's output: %v\n", readErr)
		return 1
	}
	if p.failed > 0 || len(p.running) > 0 || p.ok == 0 {
		// A package still running when the input ended: go test died.
		if len(p.failedPkgs) > 0 {
			fmt.Fprintf(p.out, "FAIL: %s\n", strings.Join(p.failedPkgs, " "))
		}
		return 1
	}
	return 0
}

func (p *printer) printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.out, format, args...)
}

package main

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/session"
)

// progress reports a batch on stderr: one line rewritten in place when
// stderr is a terminal, an occasional plain line when it is not (a log
// file, CI), nothing with --quiet.
type progress struct {
	a     *app
	tty   bool
	total int
	// every is how many sessions pass between plain lines.
	every int

	mu                          sync.Mutex
	n, calls, tokens, cacheHits int
	lastLen                     int
}

func (a *app) newProgress(total int) *progress {
	p := &progress{a: a, total: total, every: max(total/10, 1)}
	errOut := a.stderr
	if l, ok := errOut.(*lockedWriter); ok {
		errOut = l.w
	}
	if f, ok := errOut.(*os.File); ok && isTerminal(f) {
		p.tty = true
	}
	if total < 20 {
		p.every = 0 // a short batch needs only the closing summary
	}
	return p
}

// done counts one finished session and what its extraction cost.
func (p *progress) done(out session.Outcome) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	if out.Snapshot != nil && !out.Resumed {
		p.add(out.Snapshot.Usage.Extraction)
	}
	if p.a.quiet {
		return
	}
	switch {
	case p.tty:
		line := fmt.Sprintf("handoff: extract %d/%d sessions · %s", p.n, p.total, p.totalsLocked())
		fmt.Fprintf(p.a.stderr, "\r%-*s", p.lastLen, line)
		p.lastLen = len(line)
	case p.every > 0 && (p.n%p.every == 0 || p.n == p.total):
		fmt.Fprintf(p.a.stderr, "handoff: extract %d/%d sessions · %s\n", p.n, p.total, p.totalsLocked())
	}
}

func (p *progress) add(u *handoff.ExtractionUsage) {
	if u == nil {
		return
	}
	p.calls += u.Calls
	p.tokens += u.PromptTokens + u.CompletionTokens
	p.cacheHits += u.CacheHits
}

// note prints a status line (a skipped file) without mangling the
// in-place progress line: it takes that line's place, and the next update
// redraws the progress below it.
func (p *progress) note(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.a.quiet {
		return
	}
	line := fmt.Sprintf("handoff: "+format, args...)
	if p.tty {
		fmt.Fprintf(p.a.stderr, "\r%-*s\n", p.lastLen, line)
		p.lastLen = 0
		return
	}
	fmt.Fprintln(p.a.stderr, line)
}

// finish ends the in-place line so the summary starts on its own.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.lastLen > 0 && !p.a.quiet {
		fmt.Fprintln(p.a.stderr)
	}
}

// totals is the model usage so far: calls, tokens, cache hits.
func (p *progress) totals() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.totalsLocked()
}

func (p *progress) totalsLocked() string {
	return fmt.Sprintf("%d call(s) · %d tokens · %d cache hit(s)", p.calls, p.tokens, p.cacheHits)
}

// lockedWriter serialises writes to w: a batch's workers, its progress
// line and the logger share stderr.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// syncStderr makes the app's stderr (and its logger) safe for concurrent
// use, for commands that run workers.
func (a *app) syncStderr() {
	if _, ok := a.stderr.(*lockedWriter); ok {
		return
	}
	a.stderr = &lockedWriter{w: a.stderr}
	a.setupLogger()
}

// Package follow reads a file as it grows, the way `tail -F` does, and
// hands out only complete lines: a live agent transcript is written a
// record at a time, and a record cut in the middle of a write is not yet a
// record.
//
// A Follower wakes on file system events (fsnotify) and also polls on an
// interval, because events are missing on network and FUSE file systems
// and can be dropped when their queue overflows; polling alone would work,
// events only make it prompt. It keeps its byte offset, holds a partial
// last line until its newline arrives, starts over from the beginning when
// the file shrinks below the offset (truncated in place) and reopens it
// when the name points at a different file (rotated or replaced), after
// draining what the old file still had.
//
// Truncation is detected by size: a file truncated and then refilled past
// the old offset between two looks cannot be told from one that grew, so
// such a rewrite is read as an append. Writers that replace a transcript
// replace it by rename, which rotation catches.
package follow

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// DefaultPoll is the polling interval when Options.Poll is zero and file
// events are unavailable: short enough that a checkpoint is not late by
// more than a human notices.
const DefaultPoll = 250 * time.Millisecond

// EventPoll is the polling interval while file events arrive (unless
// Options.Poll is longer): a safety net for an event the kernel dropped,
// not the way changes are seen, so an idle follower sleeps. Polling at
// DefaultPoll beside events cost an idle watch 2 ms of CPU a second.
const EventPoll = 5 * time.Second

// DefaultMaxLineBytes bounds a line when Options.MaxLineBytes is zero. A
// Claude Code line holding a large tool result can be several megabytes.
const DefaultMaxLineBytes = 64 << 20

// readChunk is how much one read asks for.
const readChunk = 64 << 10

// Options configure a Follower.
type Options struct {
	// Poll is the interval at which the file is checked when file events
	// are unavailable; zero means DefaultPoll. With events the file is
	// checked on each, and otherwise every EventPoll (or Poll if longer).
	Poll time.Duration
	// NoNotify disables fsnotify, leaving polling alone (for file systems
	// that report no events, and for tests of the fallback).
	NoNotify bool
	// MaxLineBytes bounds a line; a longer one is drained without being
	// kept and reported as a TooLong event. Zero means DefaultMaxLineBytes.
	MaxLineBytes int
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// Kind says what an Event is.
type Kind int

// The event kinds.
const (
	// Line is one complete line, without its newline (or a trailing \r).
	Line Kind = iota + 1
	// TooLong is a line longer than MaxLineBytes, drained and not kept.
	TooLong
	// Truncated: the file shrank below the offset; what follows is read
	// from its beginning. A consumer starts over.
	Truncated
	// Rotated: the path now names a different file; what follows is read
	// from the new file's beginning. A consumer starts over.
	Rotated
)

func (k Kind) String() string {
	switch k {
	case Line:
		return "line"
	case TooLong:
		return "too long"
	case Truncated:
		return "truncated"
	case Rotated:
		return "rotated"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Event is one thing that happened to the followed file.
type Event struct {
	Kind Kind
	// Data is the line (Kind Line); the caller may keep it.
	Data []byte
	// Offset is where the line starts in the file (Line, TooLong), or 0.
	Offset int64
	// Size is the line's length in bytes without its newline (Line,
	// TooLong).
	Size int
}

// Follower follows one file. It is not safe for concurrent use: one
// goroutine calls Next.
type Follower struct {
	path    string
	opts    Options
	log     *slog.Logger
	f       *os.File
	info    os.FileInfo // of f, for the rotation check
	offset  int64       // bytes of f consumed into lines or pending
	pending []byte      // the current, unterminated line
	start   int64       // file offset of pending's first byte
	scanned int         // bytes of pending already searched for '\n'
	tooLong bool        // the current line passed MaxLineBytes
	size    int         // the current line's length so far
	buf     []byte
	queue   []Event
	watcher *fsnotify.Watcher
	ticker  *time.Ticker
}

// Open opens path and returns a Follower positioned at its beginning. The
// file must exist: following a name that never appears is a mistake the
// caller should hear about at once.
func Open(path string, opts Options) (*Follower, error) {
	if opts.Poll <= 0 {
		opts.Poll = DefaultPoll
	}
	if opts.MaxLineBytes <= 0 {
		opts.MaxLineBytes = DefaultMaxLineBytes
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	f, info, err := openFile(path)
	if err != nil {
		return nil, err
	}
	fl := &Follower{path: path, opts: opts, log: log, f: f, info: info, buf: make([]byte, readChunk)}
	if !opts.NoNotify {
		fl.watcher = newWatcher(path, log)
	}
	fl.ticker = time.NewTicker(fl.pollInterval())
	return fl, nil
}

func openFile(path string) (*os.File, os.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("follow %s: %w", path, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("follow %s: %w", path, err)
	}
	if info.IsDir() {
		f.Close()
		return nil, nil, fmt.Errorf("follow %s: is a directory", path)
	}
	return f, info, nil
}

// pollInterval is how often to check the file without an event: rarely
// while events arrive, at Options.Poll when they do not.
func (fl *Follower) pollInterval() time.Duration {
	if fl.watcher != nil {
		return max(fl.opts.Poll, EventPoll)
	}
	return fl.opts.Poll
}

// dropWatcher falls back to polling at Options.Poll once file events
// stop: the watcher closed, or reported an error that may have lost some.
func (fl *Follower) dropWatcher() {
	if fl.watcher != nil {
		fl.watcher.Close()
	}
	fl.watcher = nil
	fl.ticker.Reset(fl.pollInterval())
}

// newWatcher watches the file's directory, so a rename or re-creation of
// the name is seen as well as writes. A failure (no inotify instances
// left, an unsupported file system) is logged and leaves polling alone.
func newWatcher(path string, log *slog.Logger) *fsnotify.Watcher {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		log.Info("file events unavailable; polling only", "path", path, "err", err)
		return nil
	}
	if err := w.Add(filepath.Dir(path)); err != nil {
		log.Info("file events unavailable; polling only", "path", path, "err", err)
		w.Close()
		return nil
	}
	return w
}

// Offset returns how many bytes of the current file have been read,
// including a partial line being held.
func (fl *Follower) Offset() int64 { return fl.offset }

// Close releases the file and the watcher.
func (fl *Follower) Close() error {
	fl.ticker.Stop()
	if fl.watcher != nil {
		fl.watcher.Close()
	}
	return fl.f.Close()
}

// Next returns the next event, waiting for the file to grow when there is
// nothing new. It returns ctx.Err() when ctx is done and there is nothing
// left to hand out.
func (fl *Follower) Next(ctx context.Context) (Event, error) {
	for {
		if len(fl.queue) > 0 {
			ev := fl.queue[0]
			fl.queue = fl.queue[1:]
			return ev, nil
		}
		got, err := fl.poll()
		if err != nil {
			return Event{}, err
		}
		if got {
			continue
		}
		if err := fl.wait(ctx); err != nil {
			return Event{}, err
		}
	}
}

// poll reads what the file has now and checks for truncation and
// rotation, without waiting; it reports whether there are events to hand
// out.
func (fl *Follower) poll() (bool, error) {
	if len(fl.queue) > 0 {
		return true, nil
	}
	if err := fl.read(); err != nil {
		return false, err
	}
	if len(fl.queue) > 0 {
		return true, nil
	}
	// At the end of the file: has it shrunk, or been replaced?
	if err := fl.checkTruncated(); err != nil {
		return false, err
	}
	if len(fl.queue) == 0 {
		if err := fl.checkRotated(); err != nil {
			return false, err
		}
	}
	return len(fl.queue) > 0, nil
}

// wait blocks until an event on the file's directory, the poll tick, or
// ctx.
func (fl *Follower) wait(ctx context.Context) error {
	var events <-chan fsnotify.Event
	var errs <-chan error
	if fl.watcher != nil {
		events, errs = fl.watcher.Events, fl.watcher.Errors
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-fl.ticker.C:
			return nil
		case ev, ok := <-events:
			if !ok {
				fl.dropWatcher()
				return nil
			}
			if filepath.Clean(ev.Name) == filepath.Clean(fl.path) {
				return nil
			}
		case err, ok := <-errs:
			if !ok {
				fl.dropWatcher()
				return nil
			}
			// An overflow drops events: check now; the slow tick covers
			// a later gap.
			fl.log.Debug("file event error; checking the file", "path", fl.path, "err", err)
			return nil
		}
	}
}

// read reads to the current end of the file, queuing each complete line.
func (fl *Follower) read() error {
	for {
		n, err := fl.f.ReadAt(fl.buf, fl.offset)
		if n > 0 {
			fl.consume(fl.buf[:n])
		}
		if errors.Is(err, io.EOF) || (err == nil && n == 0) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", fl.path, err)
		}
		if len(fl.queue) > 0 {
			return nil // hand these out before reading further
		}
	}
}

// consume splits b (the bytes at fl.offset) into lines.
func (fl *Follower) consume(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		part := b
		if i >= 0 {
			part = b[:i]
		}
		if fl.size == 0 && len(fl.pending) == 0 && !fl.tooLong {
			fl.start = fl.offset
		}
		fl.size += len(part)
		if !fl.tooLong {
			if fl.size > fl.opts.MaxLineBytes {
				fl.tooLong, fl.pending = true, nil
			} else {
				fl.pending = append(fl.pending, part...)
			}
		}
		fl.offset += int64(len(part))
		if i < 0 {
			return
		}
		fl.offset++ // the newline
		fl.emitLine()
		b = b[i+1:]
	}
}

// emitLine queues the line gathered in pending.
func (fl *Follower) emitLine() {
	if fl.tooLong {
		fl.queue = append(fl.queue, Event{Kind: TooLong, Offset: fl.start, Size: fl.size})
	} else {
		data := fl.pending
		if n := len(data); n > 0 && data[n-1] == '\r' {
			data = data[:n-1]
		}
		// The queue owns a copy: pending is reused for the next line.
		fl.queue = append(fl.queue, Event{Kind: Line, Data: bytes.Clone(data), Offset: fl.start, Size: len(data)})
	}
	fl.pending = fl.pending[:0]
	if cap(fl.pending) > 4<<20 {
		fl.pending = nil // one huge line should not pin its buffer
	}
	fl.size, fl.tooLong = 0, false
}

// restart forgets the current position and partial line.
func (fl *Follower) restart() {
	if len(fl.pending) > 0 || fl.size > 0 {
		fl.log.Debug("partial line discarded on restart", "path", fl.path, "bytes", fl.size)
	}
	fl.offset, fl.pending, fl.size, fl.tooLong, fl.start = 0, fl.pending[:0], 0, false, 0
}

func (fl *Follower) checkTruncated() error {
	info, err := fl.f.Stat()
	if err != nil {
		return fmt.Errorf("stat %s: %w", fl.path, err)
	}
	if info.Size() < fl.offset {
		fl.log.Info("file truncated; reading from the start", "path", fl.path, "size", info.Size(), "offset", fl.offset)
		fl.restart()
		fl.queue = append(fl.queue, Event{Kind: Truncated})
		return fl.read()
	}
	return nil
}

// checkRotated reopens the path when it names another file now. A missing
// path (removed, not yet re-created) keeps the old file open.
func (fl *Follower) checkRotated() error {
	info, err := os.Stat(fl.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("stat %s: %w", fl.path, err)
	}
	if os.SameFile(info, fl.info) {
		return nil
	}
	f, newInfo, err := openFile(fl.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // gone again between the stat and the open
	}
	if err != nil {
		return err
	}
	fl.log.Info("file replaced; reading the new one from the start", "path", fl.path)
	fl.f.Close()
	fl.f, fl.info = f, newInfo
	fl.restart()
	fl.queue = append(fl.queue, Event{Kind: Rotated})
	return fl.read()
}

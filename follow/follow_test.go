package follow

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fastPoll keeps the polling tests quick without relying on events.
const fastPoll = 10 * time.Millisecond

func open(t *testing.T, path string, opts Options) *Follower {
	t.Helper()
	if opts.Poll == 0 {
		opts.Poll = fastPoll
	}
	fl, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fl.Close() })
	return fl
}

func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// next returns the next event, failing the test after a few seconds.
func next(t *testing.T, fl *Follower) Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ev, err := fl.Next(ctx)
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	return ev
}

// none asserts that no event arrives within a few poll intervals.
func none(t *testing.T, fl *Follower) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 8*fastPoll)
	defer cancel()
	ev, err := fl.Next(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got event %v %q (err %v), want none", ev.Kind, ev.Data, err)
	}
}

func wantLine(t *testing.T, fl *Follower, text string, offset int64) {
	t.Helper()
	ev := next(t, fl)
	if ev.Kind != Line || string(ev.Data) != text || ev.Offset != offset {
		t.Fatalf("got %v %q at %d, want line %q at %d", ev.Kind, ev.Data, ev.Offset, text, offset)
	}
}

func wantKind(t *testing.T, fl *Follower, k Kind) {
	t.Helper()
	if ev := next(t, fl); ev.Kind != k {
		t.Fatalf("got %v %q, want %v", ev.Kind, ev.Data, k)
	}
}

// modes runs a test with file events and with polling alone.
func modes(t *testing.T, fn func(t *testing.T, opts Options)) {
	t.Run("notify", func(t *testing.T) { fn(t, Options{Poll: time.Hour}) })
	t.Run("poll", func(t *testing.T) { fn(t, Options{NoNotify: true}) })
}

func TestExistingContentThenAppends(t *testing.T) {
	modes(t, func(t *testing.T, opts Options) {
		if !opts.NoNotify {
			// With an hour-long poll only events can wake the follower.
			opts.Poll = time.Hour
		}
		path := filepath.Join(t.TempDir(), "s.jsonl")
		appendTo(t, path, "one\ntwo\r\n")
		fl := open(t, path, opts)
		wantLine(t, fl, "one", 0)
		wantLine(t, fl, "two", 4)
		appendTo(t, path, "three\n")
		wantLine(t, fl, "three", 9)
		if fl.Offset() != 15 {
			t.Errorf("Offset = %d, want 15", fl.Offset())
		}
	})
}

func TestPartialLineHeldUntilNewline(t *testing.T) {
	modes(t, func(t *testing.T, opts Options) {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		appendTo(t, path, `{"a":`)
		fl := open(t, path, opts)
		if opts.NoNotify {
			none(t, fl)
		}
		appendTo(t, path, `1}`)
		if opts.NoNotify {
			none(t, fl)
		}
		appendTo(t, path, "\n{\"b\":2}\n")
		wantLine(t, fl, `{"a":1}`, 0)
		wantLine(t, fl, `{"b":2}`, 8)
	})
}

func TestTruncationRestartsFromZero(t *testing.T) {
	modes(t, func(t *testing.T, opts Options) {
		opts.Poll = fastPoll // truncation is seen at end of file, on any wake
		path := filepath.Join(t.TempDir(), "s.jsonl")
		appendTo(t, path, "first line\nsecond line\n")
		fl := open(t, path, opts)
		wantLine(t, fl, "first line", 0)
		wantLine(t, fl, "second line", 11)
		if err := os.WriteFile(path, []byte("new\n"), 0o644); err != nil { // O_TRUNC in place
			t.Fatal(err)
		}
		wantKind(t, fl, Truncated)
		wantLine(t, fl, "new", 0)
		appendTo(t, path, "more\n")
		wantLine(t, fl, "more", 4)
	})
}

func TestRotationReopensFromZero(t *testing.T) {
	modes(t, func(t *testing.T, opts Options) {
		opts.Poll = fastPoll
		dir := t.TempDir()
		path := filepath.Join(dir, "s.jsonl")
		appendTo(t, path, "old 1\n")
		fl := open(t, path, opts)
		wantLine(t, fl, "old 1", 0)

		// The old file gets a last line, then is renamed away and a new
		// file takes the name: the last line is still read, then the new
		// file from its start.
		appendTo(t, path, "old 2\n")
		if err := os.Rename(path, filepath.Join(dir, "s.jsonl.1")); err != nil {
			t.Fatal(err)
		}
		tmp := filepath.Join(dir, "new.tmp")
		appendTo(t, tmp, "new 1 is longer than the old file\n")
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
		wantLine(t, fl, "old 2", 6)
		wantKind(t, fl, Rotated)
		wantLine(t, fl, "new 1 is longer than the old file", 0)
		appendTo(t, path, "new 2\n")
		wantLine(t, fl, "new 2", 34)
	})
}

func TestRemovedFileKeepsWaiting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	appendTo(t, path, "a\n")
	fl := open(t, path, Options{NoNotify: true})
	wantLine(t, fl, "a", 0)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	none(t, fl)
	appendTo(t, path, "b\n") // re-created: a new file
	wantKind(t, fl, Rotated)
	wantLine(t, fl, "b", 0)
}

func TestTooLongLineIsSkipped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	appendTo(t, path, "short\n0123456789abcdef\nok\n")
	fl := open(t, path, Options{NoNotify: true, MaxLineBytes: 10})
	wantLine(t, fl, "short", 0)
	ev := next(t, fl)
	if ev.Kind != TooLong || ev.Offset != 6 || ev.Size != 16 || ev.Data != nil {
		t.Fatalf("got %+v, want TooLong at 6 size 16", ev)
	}
	wantLine(t, fl, "ok", 23)
}

func TestLongLineAcrossReads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	long := make([]byte, 3*readChunk+17)
	for i := range long {
		long[i] = 'a' + byte(i%26)
	}
	appendTo(t, path, string(long)+"\nend\n")
	fl := open(t, path, Options{NoNotify: true})
	wantLine(t, fl, string(long), 0)
	wantLine(t, fl, "end", int64(len(long)+1))
}

func TestContextCancel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	appendTo(t, path, "")
	fl := open(t, path, Options{Poll: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := fl.Next(ctx)
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Next after cancel: %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Next did not return after cancel")
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(filepath.Join(dir, "missing"), Options{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
	if _, err := Open(dir, Options{}); err == nil {
		t.Error("directory: no error")
	}
}

// TestPollInterval: with file events the poll is only a safety net
// (EventPoll, or a longer Poll); without them it is Poll.
func TestPollInterval(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	appendTo(t, path, "one\n")
	for _, tc := range []struct {
		name string
		opts Options
		want time.Duration
	}{
		{"events, default poll", Options{}, EventPoll},
		{"events, poll longer than the net", Options{Poll: time.Hour}, time.Hour},
		{"no events", Options{NoNotify: true, Poll: time.Second}, time.Second},
	} {
		fl := open(t, path, tc.opts)
		if fl.watcher == nil && !tc.opts.NoNotify {
			t.Skip("file events unavailable here")
		}
		if got := fl.pollInterval(); got != tc.want {
			t.Errorf("%s: pollInterval = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestLostEventsFallBackToPolling: once the watcher is gone, appends are
// seen by polling at Options.Poll.
func TestLostEventsFallBackToPolling(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	appendTo(t, path, "one\n")
	fl := open(t, path, Options{Poll: 10 * time.Millisecond})
	wantLine(t, fl, "one", 0)
	fl.dropWatcher()
	if fl.watcher != nil || fl.pollInterval() != 10*time.Millisecond {
		t.Fatalf("after dropWatcher: watcher %v, poll %v; want none and 10ms", fl.watcher, fl.pollInterval())
	}
	appendTo(t, path, "two\n")
	wantLine(t, fl, "two", 4)
}

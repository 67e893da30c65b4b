package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/handoff-cli/handoff/capacity"
)

func TestStatusLine(t *testing.T) {
	t.Parallel()
	st := capacity.Status{Model: "claude-sonnet-4-5", TokensUsed: 150_000, ContextWindow: 200_000, Utilization: 0.75}

	// Not a terminal (a buffer, a regular file): nothing at all.
	var buf bytes.Buffer
	quietBuf := newStatusLine(&buf, false)
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	quietFile := newStatusLine(f, false)
	for _, s := range []*statusLine{quietBuf, quietFile} {
		s.show(st)
		s.clear()
		s.done()
	}
	if fi, _ := f.Stat(); buf.Len() != 0 || fi.Size() != 0 {
		t.Errorf("status line written to a non-terminal: %q", buf.String())
	}

	// On a terminal: redrawn in place, cleared, ended with a newline.
	buf.Reset()
	s := &statusLine{w: &buf, on: true}
	s.show(st)
	s.show(st) // within statusLineEvery: not redrawn
	s.done()
	want := "\r\x1b[Khandoff: claude-sonnet-4-5 · 150000/200000 tokens · 75.0%\n"
	if buf.String() != want {
		t.Errorf("terminal status line %q, want %q", buf.String(), want)
	}

	// A narrow terminal: the line is cut one column short, so it never
	// wraps (a wrapped line is not redrawn in place).
	buf.Reset()
	narrow := &statusLine{w: &buf, on: true, width: func() int { return 30 }}
	narrow.show(st)
	if got := strings.TrimPrefix(buf.String(), "\r\x1b[K"); utf8.RuneCountInString(got) != 29 || !strings.HasSuffix(got, "…") {
		t.Errorf("narrow status line %q: want 29 columns ending in …", got)
	}
}

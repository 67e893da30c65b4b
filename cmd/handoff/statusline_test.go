package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/handoff-cli/handoff/capacity"
)

func TestStatusLine(t *testing.T) {
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
}

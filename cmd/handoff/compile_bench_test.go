package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/transcript"
)

// largestClaudeTranscript is the biggest real Claude Code session in
// ../shared/transcripts (about 2.3 MB), or "" when the folder is absent.
func largestClaudeTranscript(tb testing.TB) (string, int64) {
	tb.Helper()
	files, _ := filepath.Glob("../../../shared/transcripts/claude-code/*.jsonl")
	var best string
	var size int64
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.Size() > size {
			best, size = f, fi.Size()
		}
	}
	if best == "" {
		tb.Skip("../shared/transcripts/claude-code not present")
	}
	return best, size
}

// BenchmarkCompileLargest measures `handoff compile` end to end on the
// largest real transcript: parse, redact, measure, extract, compile to a
// 2000-token budget and (in "store") save to SQLite. "parse-only" is the
// baseline in the same run: reading the file with no other work, so the
// ratio says what everything after parsing costs; "tokenizer-load" is the
// fixed per-process cost of building the o200k_base tables, which every
// run pays once whatever the transcript's size.
func BenchmarkCompileLargest(b *testing.B) {
	path, size := largestClaudeTranscript(b)
	b.Logf("file: %s (%d bytes)", filepath.Base(path), size)
	ctx := context.Background()

	b.Run("parse-only", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			if _, err := transcript.ParseFile(ctx, path, transcript.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("tokenizer-load", func(b *testing.B) {
		for b.Loop() {
			if _, err := capacity.NewCounter(capacity.O200kBase); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, mode := range []struct {
		name string
		args []string
	}{
		{"no-store", []string{"--no-store"}},
		{"store", nil},
	} {
		b.Run(mode.name, func(b *testing.B) {
			db := filepath.Join(b.TempDir(), "h.db")
			args := append([]string{"--db", db, "--no-git", "-q"}, mode.args...)
			args = append(args, path)
			b.SetBytes(size)
			for b.Loop() {
				a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
				if err := a.execute(ctx, args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package transcript

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/handoff-cli/handoff"
)

// Seed corpora live in testdata/fuzz/<FuzzName>/; f.Add adds the fixture
// files on top.

func FuzzDetect(f *testing.F) {
	if b, err := os.ReadFile("testdata/claude-basic.jsonl"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		format, err := Detect(head)
		if err != nil {
			if handoff.ErrorCode(err) != handoff.EINVALID {
				t.Fatalf("Detect error with code %s: %v", handoff.ErrorCode(err), err)
			}
			return
		}
		if !slices.ContainsFunc(Formats(), func(f FormatInfo) bool { return f.Name == format }) {
			t.Fatalf("Detect returned %q, not a listed format", format)
		}
	})
}

// fuzzParse parses input in a format (forced, then detected) and checks
// the invariants every successful parse must hold.
func fuzzParse(t *testing.T, format Format, input []byte) {
	for _, opts := range []Options{
		{Format: format, MaxLineBytes: 4096, MaxToolOutputBytes: 64},
		{Format: format, Strict: true},
	} {
		tr, err := Parse(context.Background(), bytes.NewReader(input), opts)
		if err != nil {
			if code := handoff.ErrorCode(err); code != handoff.EINVALID {
				t.Fatalf("error with code %s: %v", code, err)
			}
			continue
		}
		if len(tr.Messages) == 0 {
			t.Fatal("success with no messages")
		}
		if tr.Session.Format != string(format) {
			t.Fatalf("session format %q, want %q", tr.Session.Format, format)
		}
		for i, m := range tr.Messages {
			if m.Index != i {
				t.Fatalf("message %d has Index %d", i, m.Index)
			}
			if m.Line < 0 {
				t.Fatalf("message %d has Line %d", i, m.Line)
			}
			if m.Role == handoff.RoleTool && len(m.ToolResults) == 0 {
				t.Fatalf("tool message %d without results", i)
			}
			for _, r := range m.ToolResults {
				if opts.MaxToolOutputBytes > 0 && len(r.Content) > opts.MaxToolOutputBytes+64 {
					t.Fatalf("tool output %d bytes over the limit %d", len(r.Content), opts.MaxToolOutputBytes)
				}
			}
		}
		for _, w := range tr.Warnings {
			if w.Reason == "" {
				t.Fatal("warning without a reason")
			}
		}
	}
}

func FuzzParseClaudeCode(f *testing.F) {
	if b, err := os.ReadFile("testdata/claude-basic.jsonl"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, input []byte) { fuzzParse(t, FormatClaudeCode, input) })
}

func FuzzParseOpenAIChat(f *testing.F) {
	f.Fuzz(func(t *testing.T, input []byte) { fuzzParse(t, FormatOpenAIChat, input) })
}

func FuzzParsePlain(f *testing.F) {
	f.Fuzz(func(t *testing.T, input []byte) { fuzzParse(t, FormatPlain, input) })
}

// BenchmarkParseClaudeCode parses the largest shared Claude Code
// transcript; b.SetBytes makes `go test -bench` report MB/s.
func BenchmarkParseClaudeCode(b *testing.B) {
	var largest string
	var size int64
	for _, p := range claudeFiles(b) {
		if fi, err := os.Stat(p); err == nil && fi.Size() > size {
			largest, size = p, fi.Size()
		}
	}
	data, err := os.ReadFile(largest)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%s: %d bytes", filepath.Base(largest), len(data))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(context.Background(), bytes.NewReader(data), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

package transcript

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// Seed corpora live in testdata/fuzz/<FuzzName>/: FuzzParse has a seed
// (a valid sample and often a damaged one) for every format, named
// <format>[-variant], so one target covers every parser.

func FuzzDetect(f *testing.F) {
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

// FuzzParse parses input as the named format (an unknown name picks one
// by its length), then with detection, checking the invariants every
// successful parse must hold.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, name string, input []byte) {
		format, err := ParseFormat(name)
		if err != nil || format == FormatAuto {
			all := Formats()
			format = all[len(name)%len(all)].Name
		}
		fuzzParse(t, format, input)
		tr, err := Parse(context.Background(), bytes.NewReader(input), Options{MaxLineBytes: 4096})
		if err != nil {
			if code := handoff.ErrorCode(err); code != handoff.EINVALID {
				t.Fatalf("auto: error with code %s: %v", code, err)
			}
			return
		}
		checkInvariants(t, tr)
	})
}

// fuzzParse parses input in a format (lenient with small limits, then
// strict) and checks the invariants every successful parse must hold.
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
		checkInvariants(t, tr)
		for i, m := range tr.Messages {
			if m.Line < 0 {
				t.Fatalf("message %d has Line %d", i, m.Line)
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

// readSeed reads a `go test fuzz v1` file's values.
func readSeed(tb testing.TB, path string) []string {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var vals []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		for _, p := range []string{"string(", "[]byte("} {
			if strings.HasPrefix(l, p) {
				s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(l, p), ")"))
				if err != nil {
					tb.Fatalf("%s: %v", path, err)
				}
				vals = append(vals, s)
			}
		}
	}
	return vals
}

// TestSeedsPerFormat checks the FuzzParse seeds: every format has one,
// each valid seed is detected as its format, parses with the format's
// own parser, and damaged records become warnings, not failures.
func TestSeedsPerFormat(t *testing.T) {
	t.Parallel()
	seeds, _ := filepath.Glob("testdata/fuzz/FuzzParse/*")
	covered := map[Format]bool{}
	for _, p := range seeds {
		v := readSeed(t, p)
		if len(v) != 2 {
			t.Fatalf("%s: %d values", p, len(v))
		}
		format := Format(v[0])
		covered[format] = true
		t.Run(filepath.Base(p), func(t *testing.T) {
			tr, err := Parse(context.Background(), strings.NewReader(v[1]), Options{Format: format})
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			checkInvariants(t, tr)
			if strings.Contains(p, "malformed") {
				if len(tr.Warnings) == 0 {
					t.Error("damaged seed parsed without a warning")
				}
				return
			}
			// Detected as itself, also behind a byte-order mark and blank
			// lines.
			for _, prefix := range []string{"", "\uFEFF", "\n\n", "\uFEFF\r\n \n"} {
				if got, err := Detect([]byte(prefix + v[1])); err != nil || got != format {
					t.Errorf("Detect(%q + seed) = %q, %v; want %q", prefix, got, err, format)
				}
			}
		})
	}
	for _, s := range registry() {
		if storeOnly(s) {
			continue // read from its database (TestCrushStore)
		}
		if !covered[s.info.Name] {
			t.Errorf("format %s has no FuzzParse seed", s.info.Name)
		}
	}
}

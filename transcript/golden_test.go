package transcript

import (
	"context"
	goflag "flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

var update = goflag.Bool("update", false, "rewrite testdata/golden/*.txt from the current output")

// TestGoldenPerFormat parses the valid FuzzParse seed of every format and
// compares a full description of the result (session, every message with
// its flags, text, thinking, calls with their input, results with error
// and exit code, usage, warnings) with testdata/golden/<seed>.txt. The
// golden files were read line by line against the seeds when written:
// they are the normalisation contract per format, in reviewable form.
func TestGoldenPerFormat(t *testing.T) {
	t.Parallel()
	seeds, _ := filepath.Glob("testdata/fuzz/FuzzParse/*")
	for _, p := range seeds {
		name := filepath.Base(p)
		if strings.Contains(name, "malformed") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			v := readSeed(t, p)
			tr, err := Parse(context.Background(), strings.NewReader(v[1]), Options{Format: Format(v[0]), MaxToolOutputBytes: 200})
			if err != nil {
				t.Fatal(err)
			}
			got := describeTranscript(tr)
			golden := filepath.Join("testdata", "golden", name+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGoldenPerFormat -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
		})
	}
}

// describeTranscript renders everything a parser produced, one fact per
// line.
func describeTranscript(tr *handoff.Transcript) string {
	var b strings.Builder
	s := tr.Session
	fmt.Fprintf(&b, "session format=%s id=%q agent=%q model=%q cwd=%q branch=%q version=%q window=%d\n", s.Format, s.ID, s.Agent, s.Model, s.CWD, s.GitBranch, s.Version, s.ContextWindow)
	if s.EndSignal != "" || s.Subagent != "" {
		fmt.Fprintf(&b, "end=%q subagent=%q\n", s.EndSignal, s.Subagent)
	}
	if !s.StartedAt.IsZero() {
		fmt.Fprintf(&b, "span %s – %s\n", s.StartedAt.UTC().Format("2006-01-02T15:04:05Z"), s.EndedAt.UTC().Format("2006-01-02T15:04:05Z"))
	}
	for _, m := range tr.Messages {
		fmt.Fprintf(&b, "#%d L%d %s", m.Index, m.Line, m.Role)
		for _, f := range []struct {
			on   bool
			name string
		}{{m.Meta, "meta"}, {m.Sidechain, "sidechain"}, {m.CompactSummary, "compact-summary"}} {
			if f.on {
				b.WriteString(" " + f.name)
			}
		}
		if m.ID != "" {
			fmt.Fprintf(&b, " id=%s", m.ID)
		}
		if m.Model != "" {
			fmt.Fprintf(&b, " model=%s", m.Model)
		}
		if !m.Timestamp.IsZero() {
			fmt.Fprintf(&b, " at=%s", m.Timestamp.UTC().Format("15:04:05"))
		}
		b.WriteString("\n")
		if m.Text != "" {
			fmt.Fprintf(&b, "  text %q\n", m.Text)
		}
		if m.Thinking != "" {
			fmt.Fprintf(&b, "  thinking %q\n", m.Thinking)
		}
		for _, c := range m.ToolCalls {
			fmt.Fprintf(&b, "  call id=%q name=%q input=%s\n", c.ID, c.Name, string(c.Input))
		}
		for _, r := range m.ToolResults {
			fmt.Fprintf(&b, "  result call=%q name=%q error=%v", r.CallID, r.Name, r.IsError)
			if r.ExitCode != nil {
				fmt.Fprintf(&b, " exit=%d", *r.ExitCode)
			}
			if r.OriginalBytes > 0 {
				fmt.Fprintf(&b, " original=%d", r.OriginalBytes)
			}
			fmt.Fprintf(&b, " content=%q\n", r.Content)
		}
		if u := m.Usage; u != nil {
			fmt.Fprintf(&b, "  usage input=%d cache_read=%d cache_write=%d output=%d window=%d\n", u.InputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens, u.OutputTokens, u.ContextWindow)
		}
	}
	for _, w := range tr.Warnings {
		fmt.Fprintf(&b, "warning L%d %s\n", w.Line, w.Reason)
	}
	return b.String()
}

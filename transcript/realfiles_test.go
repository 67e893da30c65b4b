package transcript

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/handoff-cli/handoff"
)

const sharedClaudeDir = "../../shared/transcripts/claude-code"

// claudeFiles lists the shared real Claude Code transcripts, skipping the
// test when they are absent.
func claudeFiles(tb testing.TB) []string {
	tb.Helper()
	files, _ := filepath.Glob(filepath.Join(sharedClaudeDir, "*.jsonl"))
	if len(files) == 0 {
		tb.Skipf("no shared transcripts in %s", sharedClaudeDir)
	}
	return files
}

func TestRealClaudeCodeFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	for _, path := range claudeFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			head := readHead(t, path)
			f, err := Detect(head)
			if err != nil || f != FormatClaudeCode {
				t.Fatalf("Detect = %q, %v; want claude-code", f, err)
			}
			tr, err := ParseFile(context.Background(), path, Options{})
			if err != nil {
				t.Fatalf("ParseFile: %v", err)
			}
			if len(tr.Messages) == 0 {
				t.Fatal("no messages")
			}
			if tr.Session.Format != string(FormatClaudeCode) || tr.Session.ID == "" || tr.Session.Source != path {
				t.Errorf("session = %+v", tr.Session)
			}
			if tr.Session.StartedAt.IsZero() || tr.Session.EndedAt.Before(tr.Session.StartedAt) {
				t.Errorf("time span %v – %v", tr.Session.StartedAt, tr.Session.EndedAt)
			}
			checkInvariants(t, tr)
			if len(tr.Warnings) > 0 {
				t.Errorf("%d warnings on a real file, first: %+v", len(tr.Warnings), tr.Warnings[0])
			}
			var calls, results, unnamed, usage int
			for _, m := range tr.Messages {
				calls += len(m.ToolCalls)
				results += len(m.ToolResults)
				for _, r := range m.ToolResults {
					if r.Name == "" {
						unnamed++
					}
				}
				if m.Usage != nil {
					usage++
				}
			}
			if results > 0 && unnamed*10 > results {
				t.Errorf("%d of %d tool results not paired with a call", unnamed, results)
			}
			if usage == 0 {
				t.Error("no provider usage on any message")
			}
			t.Logf("%d messages (%d main), %d calls, %d results, model %s",
				len(tr.Messages), len(tr.MainThread()), calls, results, tr.Session.Model)
		})
	}
}

func readHead(tb testing.TB, path string) []byte {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, detectBytes)
	n, _ := f.Read(buf)
	return buf[:n]
}

// checkInvariants asserts what every parsed transcript must satisfy.
func checkInvariants(tb testing.TB, tr *handoff.Transcript) {
	tb.Helper()
	for i, m := range tr.Messages {
		if m.Index != i {
			tb.Fatalf("message %d has Index %d", i, m.Index)
		}
		switch m.Role {
		case handoff.RoleUser, handoff.RoleAssistant, handoff.RoleSystem, handoff.RoleTool:
		default:
			tb.Fatalf("message %d has role %q", i, m.Role)
		}
		if m.Role == handoff.RoleTool && len(m.ToolResults) == 0 {
			tb.Fatalf("tool message %d has no results", i)
		}
	}
}

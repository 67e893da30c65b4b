package main

import (
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
)

// TestTerminalMainColumns: on a 100-column terminal the decisions and
// errors tables keep their main column (DECISION, ERROR) readable, and
// doctor at 80 columns prints the database path whole.
func TestTerminalMainColumns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "a-rather-long-directory-name-for-the-database", "handoff.db")
	mustRun(t, db, readFile(t, sampleTranscript), "--no-git", "-q")
	for _, c := range []struct {
		cmd  string
		main string // header of the main column
	}{{"decisions", "DECISION"}, {"errors", "ERROR"}} {
		out := runOnTTY(t, db, 100, c.cmd)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		start := strings.Index(lines[0], c.main)
		if start < 0 {
			t.Fatalf("%s: no %s column:\n%s", c.cmd, c.main, out)
		}
		// The main column is at least 40 columns wide: the header's next
		// column starts that far on.
		rest := lines[0][start+len(c.main):]
		if w := len(c.main) + len(rest) - len(strings.TrimLeft(rest, " ")); w < 40 && strings.TrimSpace(rest) != "" {
			t.Errorf("%s at 100 columns: %s is %d columns wide:\n%s", c.cmd, c.main, w, out)
		}
	}
	out := runOnTTY(t, db, 80, "doctor")
	if !strings.Contains(strings.ReplaceAll(out, "\n", ""), db) {
		t.Errorf("doctor at 80 columns cut the database path %s:\n%s", db, out)
	}
}

// TestNewcomerFrictions: the small things a first hour trips on.
func TestNewcomerFrictions(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "h.db")
	sample := readFile(t, sampleTranscript)

	if got := mustRun(t, db, "", "list", "--json").stdout; strings.TrimSpace(got) != "[]" {
		t.Errorf("list --json on an empty store = %q, want []", got)
	}
	wantExit(t, runCLI(t, db, sample, "--budget", "abc", "--no-store"), exitInvalid, `--budget "abc" is not a whole number`)
	wantExit(t, runCLI(t, db, "", "diff"), exitInvalid, "diff takes one or two snapshots")
	wantExit(t, runCLI(t, db, sample, "--budget", "10", "--no-store", "--no-git"), exitInvalid, "--budget 10 is too small")
	wantExit(t, runCLI(t, "/proc/nope/x.db", "", "list"), exitUnavailable, "/proc/nope")

	r := mustRun(t, db, sample, "--no-git", "--budget", "300")
	if !strings.Contains(r.stderr, "1 open error,") && !strings.Contains(r.stderr, "1 open error ") && strings.Contains(r.stderr, "1 open errors") {
		t.Errorf("budget cut says %q", r.stderr)
	}

	// show --tasks --files prints both views, each under its name.
	both := mustRun(t, db, "", "show", "--tasks", "--files").stdout
	if !strings.Contains(both, "== tasks\n") || !strings.Contains(both, "== files\n") || !strings.Contains(both, "internal/api") {
		t.Errorf("show --tasks --files:\n%s", both)
	}
	var views map[string]json.RawMessage
	if err := json.Unmarshal([]byte(mustRun(t, db, "", "show", "--tasks", "--files", "--json").stdout), &views); err != nil || views["tasks"] == nil || views["files"] == nil {
		t.Errorf("show --tasks --files --json: %v %v", err, views)
	}

	// resume --json is --format json.
	var snap struct {
		ID string `json:"id"`
	}
	res := mustRun(t, db, "", "resume", "--workflow", "7f3c", "--json", "--force")
	if err := json.Unmarshal([]byte(res.stdout), &snap); err != nil || !strings.HasPrefix(snap.ID, "snap_") {
		t.Errorf("resume --json: %v\n%s", err, res.stdout)
	}
}

func TestCountOf(t *testing.T) {
	for _, tt := range []struct {
		n      int
		phrase string
		want   string
	}{
		{1, "open errors", "1 open error"},
		{2, "open errors", "2 open errors"},
		{1, "errors worked around", "1 error worked around"},
		{1, "git state", "1 git state"},
		{1, "files modified", "1 file modified"},
		{0, "recent turns", "0 recent turns"},
	} {
		if got := countOf(tt.n, tt.phrase); got != tt.want {
			t.Errorf("countOf(%d, %q) = %q, want %q", tt.n, tt.phrase, got, tt.want)
		}
	}
}

// TestOnceHandler: a repeated record is logged once; another attribute
// value is another record.
func TestOnceHandler(t *testing.T) {
	var b strings.Builder
	log := slog.New(newOnceHandler(slog.NewTextHandler(&b, nil)))
	for range 3 {
		log.Info("unknown model; assuming the default context window", "model", "m1")
	}
	log.Info("unknown model; assuming the default context window", "model", "m2")
	if n := strings.Count(b.String(), "unknown model"); n != 2 {
		t.Errorf("logged %d times, want 2 (once per model):\n%s", n, b.String())
	}
}

// TestCompletion: shell completion offers stored ids (snap_ may be left
// out), workflow statuses and transcript formats.
func TestCompletion(t *testing.T) {
	t.Parallel()
	db := refsDB(t)
	tests := []struct {
		args []string
		want []string
		not  []string
	}{
		{[]string{"show", ""}, []string{refSnapB, refWorkflowA}, nil},
		{[]string{"diff", "q4x"}, []string{refSnapOld, refSnapNew}, []string{refSnapB}},
		{[]string{"resume", "--workflow", "k7m2b"}, []string{refWorkflowB}, []string{refWorkflowA, refSnapB}},
		{[]string{"resume", "--snapshot", "snap_h"}, []string{refSnapB}, []string{refWorkflowB}},
		{[]string{"status", "--set", ""}, []string{"paused", "completed", "imported"}, nil},
		{[]string{"compile", "--format", ""}, []string{"claude-code", "specstory", "swe-agent"}, nil},
		{[]string{"resume", "--format", ""}, []string{"resume-md"}, []string{"claude-code"}},
	}
	for _, tt := range tests {
		out := mustRun(t, db, "", append([]string{"__complete"}, tt.args...)...).stdout
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("complete %q lacks %s:\n%s", tt.args, w, out)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(out, n) {
				t.Errorf("complete %q offers %s:\n%s", tt.args, n, out)
			}
		}
	}
}

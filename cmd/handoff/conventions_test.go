package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"github.com/handoff-cli/handoff"
)

func TestVersion(t *testing.T) {
	t.Parallel()
	r := runCLI(t, filepath.Join(t.TempDir(), "h.db"), "", "--version")
	if r.err != nil {
		t.Fatal(r.err)
	}
	if !strings.HasPrefix(r.stdout, "handoff ") || !strings.Contains(r.stdout, runtime.Version()) {
		t.Errorf("--version = %q, want handoff <version> … %s", r.stdout, runtime.Version())
	}
}

// TestUnknownCommand: a mistyped command is not read as a missing file.
func TestUnknownCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		arg      string
		wantCode int
		want     string
	}{
		{"stauts", exitInvalid, `did you mean "status"?`},
		{"fomrats", exitInvalid, `did you mean "formats"?`},
		{"lsit", exitInvalid, `did you mean "list"?`},
		{"wibble", exitNotFound, "neither a command nor a file"},
		{"missing.jsonl", exitNotFound, "does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			dir := t.TempDir()
			r := runCLI(t, filepath.Join(dir, "h.db"), "", tt.arg)
			if got := exitCode(r.err); got != tt.wantCode || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d (want %d), stderr:\n%s", got, tt.wantCode, r.stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "h.db")); err == nil {
				t.Error("a mistyped command opened the database")
			}
		})
	}
}

// TestShowPrefixes: show takes a snapshot id or prefix with or without
// "snap_", or a workflow id prefix (its latest snapshot), like git takes
// a short hash; an ambiguous prefix is exit 2, no match exit 3.
func TestShowPrefixes(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "h.db")
	mustRun(t, db, readFile(t, sampleTranscript), "--no-git", "-q")
	second := mustRun(t, db, readFile(t, sampleTranscript), "--no-git", "-q", "--new-workflow", "abc-two", "--json")
	mustRun(t, db, readFile(t, sampleTranscript), "--no-git", "-q", "--new-workflow", "abc-three")
	var snap handoff.Snapshot
	if err := json.Unmarshal([]byte(second.stdout), &snap); err != nil {
		t.Fatal(err)
	}
	bare := strings.TrimPrefix(snap.ID, "snap_")
	tests := []struct {
		ref      string
		wantCode int
		want     string
	}{
		{snap.ID, 0, "snapshot " + snap.ID},
		{snap.ID[:9], 0, "snapshot " + snap.ID},
		{bare[:5], 0, "snapshot " + snap.ID},
		{"7f3c", 0, "workflow " + sampleWorkflow},
		{sampleWorkflow, 0, "workflow " + sampleWorkflow},
		{"abc-t", 0, "workflow abc-t"}, // abc-two and abc-three: checked below
		{"abc-tw", 0, "workflow abc-two"},
		{"zzzz", exitNotFound, "no snapshot or workflow"},
	}
	for _, tt := range tests {
		r := runCLI(t, db, "", "show", tt.ref)
		if tt.ref == "abc-t" {
			if got := exitCode(r.err); got != exitInvalid || !strings.Contains(r.stderr, "ambiguous") {
				t.Errorf("show %s: exit %d, want %d (ambiguous)\n%s", tt.ref, got, exitInvalid, r.stderr)
			}
			continue
		}
		if got := exitCode(r.err); got != tt.wantCode {
			t.Errorf("show %s: exit %d, want %d\n%s", tt.ref, got, tt.wantCode, r.stderr)
			continue
		}
		if !strings.Contains(r.stdout+r.stderr, tt.want) {
			t.Errorf("show %s lacks %q:\n%s%s", tt.ref, tt.want, r.stdout, r.stderr)
		}
	}
}

// TestShowHumanUnlessJSON: show prints a summary; JSON only with --json.
func TestShowHumanUnlessJSON(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "h.db")
	mustRun(t, db, readFile(t, sampleTranscript), "--no-git", "-q")
	r := mustRun(t, db, "", "show")
	if json.Valid([]byte(r.stdout)) || !strings.Contains(r.stdout, "next step:") || !strings.Contains(r.stdout, "decisions: 2 current, 1 superseded") {
		t.Errorf("show is not the human summary:\n%s", r.stdout)
	}
	if r := mustRun(t, db, "", "show", "--json"); !json.Valid([]byte(r.stdout)) {
		t.Errorf("show --json is not JSON:\n%s", r.stdout)
	}
}

// TestTablesPiped: piped, list and status print tab-separated values with
// whole ids and no padding; list --json has the whole ids too.
func TestTablesPiped(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "h.db")
	mustRun(t, db, readFile(t, sampleTranscript), "--no-git", "-q")
	for _, cmd := range [][]string{{"list"}, {"status"}, {"decisions"}, {"errors"}, {"formats"}} {
		r := mustRun(t, db, "", cmd...)
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		cols := strings.Count(lines[0], "\t") + 1
		if cols < 3 {
			t.Errorf("%v: header is not TSV: %q", cmd, lines[0])
		}
		for _, l := range lines {
			if strings.Count(l, "\t")+1 != cols {
				t.Errorf("%v: row has %d fields, header %d: %q", cmd, strings.Count(l, "\t")+1, cols, l)
			}
			for _, f := range strings.Split(l, "\t") {
				if f != strings.TrimSpace(f) {
					t.Errorf("%v: padded field %q", cmd, f)
				}
			}
		}
		if cmd[0] != "formats" && !strings.Contains(r.stdout, sampleWorkflow) {
			t.Errorf("%v: the workflow id is cut when piped:\n%s", cmd, r.stdout)
		}
	}
	var list []struct {
		WorkflowID string `json:"workflow_id"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, db, "", "list", "--json").stdout), &list); err != nil || len(list) != 1 || list[0].WorkflowID != sampleWorkflow {
		t.Errorf("list --json = %+v (%v), want the whole workflow id", list, err)
	}
}

// openPTY opens a pseudo-terminal cols wide: the CLI writes to tty, the
// test reads what a person would see from pty.
func openPTY(t *testing.T, cols int) (pty, tty *os.File) {
	t.Helper()
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	t.Cleanup(func() { pty.Close() })
	if err := unix.IoctlSetPointerInt(int(pty.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlock pty: %v", err)
	}
	n, err := unix.IoctlGetInt(int(pty.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("pty number: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pty %d: %v", n, err)
	}
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: uint16(cols), Row: 24}); err != nil {
		t.Fatal(err)
	}
	return pty, tty
}

// runOnTTY runs the CLI with stdout on a pseudo-terminal cols wide and
// returns what the terminal shows.
func runOnTTY(t *testing.T, db string, cols int, args ...string) string {
	t.Helper()
	pty, tty := openPTY(t, cols)
	got := make(chan string)
	go func() {
		b, _ := io.ReadAll(pty) // ends with EIO once tty is closed
		got <- string(b)
	}()
	var stderr bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: tty, stderr: &stderr, getenv: func(string) string { return "" }}
	err := a.execute(context.Background(), append([]string{"--db", db}, args...))
	tty.Close()
	out := strings.ReplaceAll(<-got, "\r\n", "\n")
	if err != nil {
		t.Fatalf("%v: %v\n%s", args, err, stderr.String())
	}
	return out
}

// TestTablesOnTerminal: on a (pseudo-)terminal the tables are aligned,
// fit its width and show short workflow ids.
func TestTablesOnTerminal(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "h.db")
	mustRun(t, db, readFile(t, sampleTranscript), "--no-git", "-q")
	for _, cols := range []int{60, 120} {
		for _, cmd := range [][]string{{"list"}, {"status"}, {"decisions"}, {"formats"}} {
			out := runOnTTY(t, db, cols, cmd...)
			if strings.Contains(out, "\t") {
				t.Errorf("%v at %d columns: tabs on a terminal:\n%s", cmd, cols, out)
			}
			for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				if n := utf8.RuneCountInString(l); n > cols {
					t.Errorf("%v: line of %d runes on a %d-column terminal: %q", cmd, n, cols, l)
				}
			}
			if cmd[0] != "formats" && cols > 100 && (strings.Contains(out, sampleWorkflow) || !strings.Contains(out, sampleWorkflow[:8])) {
				t.Errorf("%v at %d columns: want the short workflow id:\n%s", cmd, cols, out)
			}
		}
	}
	// show on a terminal is the summary too.
	if out := runOnTTY(t, db, 100, "show"); !strings.Contains(out, "next step:") {
		t.Errorf("show on a terminal:\n%s", out)
	}
}

// TestQuietHidesWarnings: -q keeps the logger's WARN lines off stderr.
func TestQuietHidesWarnings(t *testing.T) {
	t.Parallel()
	// The model cites a message that does not exist: a WARN from the
	// extractor ("invalid parts").
	f := newFakeLLM(t, func(_ int, _ string, w http.ResponseWriter, _ *http.Request) {
		answer(w, `{"decisions":[{"source_index":9999,"decision_type":"architecture","description":"made up","rationale":"","alternatives_considered":[],"chosen":""}],"errors":[]}`)
	})
	loud := runEnv(context.Background(), t, filepath.Join(t.TempDir(), "h.db"), f.env(), readFile(t, sampleTranscript), "--no-git")
	if loud.err != nil || !strings.Contains(loud.stderr, "level=WARN") {
		t.Fatalf("no WARN to hide (err %v):\n%s", loud.err, loud.stderr)
	}
	quiet := runEnv(context.Background(), t, filepath.Join(t.TempDir(), "h.db"), f.env(), readFile(t, sampleTranscript), "--no-git", "-q")
	if quiet.err != nil {
		t.Fatal(quiet.err)
	}
	if quiet.stderr != "" {
		t.Errorf("-q printed on stderr:\n%s", quiet.stderr)
	}
}

// TestStdinTerminal: with a terminal on stdin and no FILE, compile says
// to pipe a transcript in (exit 2) instead of waiting for input.
func TestStdinTerminal(t *testing.T) {
	t.Parallel()
	_, tty := openPTY(t, 80)
	defer tty.Close()
	var stdout, stderr bytes.Buffer
	a := &app{stdin: tty, stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	err := a.execute(context.Background(), []string{"--db", filepath.Join(t.TempDir(), "h.db"), "--no-git"})
	if exitCode(err) != exitInvalid || !strings.Contains(stderr.String(), "pipe one in") || stdout.Len() != 0 {
		t.Errorf("exit %d, stderr %q, stdout %q", exitCode(err), stderr.String(), stdout.String())
	}
}

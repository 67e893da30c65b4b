package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// storedSnapshots counts what `list --json` finds in db: the evidence that
// a failed command left nothing behind.
func storedSnapshots(t *testing.T, db string) int {
	t.Helper()
	if _, err := os.Stat(db); os.IsNotExist(err) {
		return 0
	}
	r := runCLI(t, db, "", "list", "--json", "-n", "0")
	if r.err != nil {
		t.Fatalf("list: %v\n%s", r.err, r.stderr)
	}
	var rows []json.RawMessage
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil {
		t.Fatalf("list --json: %v\n%s", err, r.stdout)
	}
	return len(rows)
}

// TestTemplateFailsAtRunTime: a --template that parses but fails while
// rendering exits 2 and stores nothing; the same run with the built-in
// template stores one snapshot.
func TestTemplateFailsAtRunTime(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tmpl := filepath.Join(dir, "bad.tmpl")
	// Parses (text/template cannot know the fields), fails on execution.
	if err := os.WriteFile(tmpl, []byte("{{.NoSuchField}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "h.db")
	for _, args := range [][]string{
		{"--no-git", "--template", tmpl},
		{"compile", "--no-git", "--template", tmpl},
	} {
		r := runCLI(t, db, readFile(t, sampleTranscript), args...)
		if got := exitCode(r.err); got != exitInvalid {
			t.Errorf("%v: exit %d, want %d: %v", args, got, exitInvalid, r.err)
		}
		if r.stdout != "" {
			t.Errorf("%v: stdout on failure: %q", args, r.stdout)
		}
		if !strings.Contains(r.stderr, "template") {
			t.Errorf("%v: the error does not name the template:\n%s", args, r.stderr)
		}
	}
	if n := storedSnapshots(t, db); n != 0 {
		t.Fatalf("%d snapshot(s) stored by failed compiles", n)
	}
	if r := runCLI(t, db, readFile(t, sampleTranscript), "--no-git"); r.err != nil {
		t.Fatalf("built-in template: %v\n%s", r.err, r.stderr)
	}
	if n := storedSnapshots(t, db); n != 1 {
		t.Fatalf("%d snapshot(s) stored, want 1", n)
	}
}

// TestInvalidCounts: a numeric flag outside its range exits 2 before
// anything runs, on every command that has it; under `hook` the exit is
// 1, since Claude Code reads 2 as "block".
func TestInvalidCounts(t *testing.T) {
	t.Parallel()
	sample := readFile(t, sampleTranscript)
	tests := []struct {
		args []string
		want int
		msg  string
	}{
		{[]string{"--context-window", "-5"}, exitInvalid, "--context-window"},
		{[]string{"--context-window", "0"}, exitInvalid, "--context-window"},
		{[]string{"compile", "--context-window", "-5"}, exitInvalid, "--context-window"},
		{[]string{"compile", "--budget", "0"}, exitInvalid, "--budget"},
		{[]string{"compile", "--budget", "-100"}, exitInvalid, "--budget"},
		{[]string{"pause", "--context-window", "-1"}, exitInvalid, "--context-window"},
		{[]string{"watch", "x.jsonl", "--context-window", "-1"}, exitInvalid, "--context-window"},
		{[]string{"watch", "x.jsonl", "--budget", "0"}, exitInvalid, "--budget"},
		{[]string{"resume", "--budget", "-1"}, exitInvalid, "--budget"},
		{[]string{"show", "--prompt", "--budget", "0"}, exitInvalid, "--budget"},
		{[]string{"list", "-n", "-3"}, exitInvalid, "--limit"},
		{[]string{"decisions", "-n", "-1"}, exitInvalid, "--limit"},
		{[]string{"errors", "--limit", "-1"}, exitInvalid, "--limit"},
		{[]string{"extract", "-j", "0", "x"}, exitInvalid, "--concurrency"},
		{[]string{"hook", "claude", "--context-window", "-5"}, exitInternal, "--context-window"},
		{[]string{"hook", "claude", "--budget", "0"}, exitInternal, "--budget"},
		{[]string{"hook", "claude", "--write"}, exitInternal, "--install"},
		{[]string{"hook", "codex", "--write"}, exitInternal, "--install"},
		{[]string{"hook", "claud"}, exitInternal, `did you mean "claude"?`},
		{[]string{"hook", "gemini"}, exitInternal, "use claude or codex"},
		{[]string{"hook", "claude", "extra"}, exitInternal, "unknown command"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "h.db")
			r := runCLI(t, db, sample, tt.args...)
			if got := exitCode(r.err); got != tt.want {
				t.Errorf("exit %d, want %d: %v\n%s", got, tt.want, r.err, r.stderr)
			}
			if !strings.Contains(r.stderr, tt.msg) {
				t.Errorf("stderr does not name %s:\n%s", tt.msg, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout on failure: %q", r.stdout)
			}
			if _, err := os.Stat(db); err == nil {
				t.Errorf("a rejected command line created the database")
			}
		})
	}
	// The values that mean something still run.
	db := filepath.Join(t.TempDir(), "h.db")
	if r := runCLI(t, db, sample, "--no-git", "--context-window", "50000", "--budget", "500"); r.err != nil {
		t.Fatalf("valid flags: %v\n%s", r.err, r.stderr)
	}
	if r := runCLI(t, db, "", "list", "-n", "0"); r.err != nil {
		t.Fatalf("list -n 0: %v\n%s", r.err, r.stderr)
	}
}

// mountTmpfs mounts a tmpfs of size at dir, or skips the test where
// mounting is not allowed (not root, no mount(8)).
func mountTmpfs(t *testing.T, dir, size string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("mount tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
}

// fill writes zeros into dir until at most leave bytes are free.
func fill(t *testing.T, dir string, leave int64) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	free := int64(st.Bavail) * st.Bsize
	if n := free - leave; n > 0 {
		// Ignore ENOSPC: a full disk is the point.
		_, _ = io.CopyN(f, zeroReader{}, n)
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestDiskFullAtOpen: a database that cannot be created or migrated
// because the disk is full exits 4 (try again once there is room), with
// nothing on stdout, whether the disk is entirely full or has a few
// blocks left.
func TestDiskFullAtOpen(t *testing.T) {
	t.Parallel()
	sample := readFile(t, sampleTranscript)
	for _, leave := range []int64{0, 8 << 10, 24 << 10} {
		dir := t.TempDir()
		mountTmpfs(t, dir, "256k")
		fill(t, dir, leave)
		for _, args := range [][]string{{"--no-git"}, {"pause", "--no-git"}} {
			db := filepath.Join(dir, "h.db")
			r := runCLI(t, db, sample, args...)
			if got := exitCode(r.err); got != exitUnavailable {
				t.Errorf("%d bytes free, %v: exit %d, want %d: %v", leave, args, got, exitUnavailable, r.err)
			}
			if !strings.Contains(r.stderr, "disk is full") {
				t.Errorf("%d bytes free, %v: error does not say the disk is full:\n%s", leave, args, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout on failure: %q", r.stdout)
			}
		}
	}
}

// TestUnreadableTranscript: compile, parse, pause and watch give a
// transcript the process may not read the same exit code, 2, and store
// nothing. As root (where permissions do not apply) the CLI runs in a
// child process as nobody.
func TestUnreadableTranscript(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "secret.jsonl")
	if err := os.WriteFile(path, []byte(readFile(t, sampleTranscript)), 0o000); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "h.db")
	for _, args := range [][]string{
		{"compile", path, "--no-git"},
		{"parse", path},
		{"pause", path, "--no-git"},
		{"watch", path, "--no-git"},
		{path, "--no-git"},
	} {
		code, stderr := runUnprivileged(t, dir, append([]string{"--db", db}, args...))
		if code != exitInvalid {
			t.Errorf("%v: exit %d, want %d\n%s", args, code, exitInvalid, stderr)
		}
		if !strings.Contains(stderr, "permission denied") {
			t.Errorf("%v: stderr does not give the cause:\n%s", args, stderr)
		}
	}
	if n := storedSnapshots(t, db); n != 0 {
		t.Errorf("%d snapshot(s) stored", n)
	}
}

// helperArgsEnv carries the arguments of a CLI run in a child process.
const helperArgsEnv = "HANDOFF_TEST_CLI_ARGS"

// TestHelperCLI is not a test: it is main() for runUnprivileged's child.
func TestHelperCLI(t *testing.T) {
	raw := os.Getenv(helperArgsEnv)
	if raw == "" {
		t.Skip("only runs as a child process")
	}
	var args []string
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		os.Exit(99)
	}
	err := run(context.Background(), args, os.Stdin, io.Discard, os.Stderr)
	os.Exit(exitCode(err))
}

// runUnprivileged runs the CLI with args and returns its exit code and
// stderr: in-process when the test is not root, else in a copy of the test
// binary running as nobody (root reads any file), with dir opened up so
// nobody can reach it.
func runUnprivileged(t *testing.T, dir string, args []string) (int, string) {
	t.Helper()
	if os.Geteuid() != 0 {
		r := runCLI(t, args[1], "", args[2:]...)
		return exitCode(r.err), r.stderr
	}
	bin := filepath.Join(dir, "handoff.test")
	if _, err := os.Stat(bin); err != nil {
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(self)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
		// Open the test's directories (not the system's temp dir) to
		// nobody.
		for d := dir; d != "/" && d != "." && d != filepath.Clean(os.TempDir()); d = filepath.Dir(d) {
			if err := os.Chmod(d, 0o777); err != nil {
				t.Fatal(err)
			}
		}
	}
	raw, _ := json.Marshal(args)
	var stderr strings.Builder
	var err error
	// A parallel test forking while the copy's write descriptor was open
	// leaves it open in that child for a moment: exec then fails with
	// ETXTBSY ("text file busy", go.dev/issue/22315) until the child execs.
	for try := 0; try < 20; try++ {
		cmd := exec.Command(bin, "-test.run=^TestHelperCLI$")
		cmd.Env = append(os.Environ(), helperArgsEnv+"="+string(raw), "HOME="+dir)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		stderr.Reset()
		cmd.Stderr = &stderr
		if err = cmd.Run(); !errors.Is(err, syscall.ETXTBSY) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), stderr.String()
	}
	if err != nil {
		t.Fatalf("run as nobody: %v", err)
	}
	return 0, stderr.String()
}

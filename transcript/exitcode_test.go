package transcript

import (
	"fmt"
	"testing"
)

func TestAgExitCodeMatchesRegexp(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"", "x", "exit", "Exit code: 2", "build\nEXITED WITH CODE -1\n", "next exit code 3", "exiT Code 4 and exit code 5",
		"xx exit code", "texit code 7", "ex", "Process exited with code 1", "exit code: x exit code: 9", "ſexit code 1",
	} {
		want := agExitRe.FindStringSubmatch(s)
		if got := agExitCode(s); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("agExitCode(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestSpecExitCodeMatchesRegexp(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"", "Exit code 1", "Exit code: 2\n", "ok\nProcess exited with code 3  \nmore", "x Exit code 4\nExit code 5",
		"Process exited with code x\nExit code: 6", "Exit code\nExit code 7", "no code here", "a Process exited with code 8",
	} {
		var want *int
		if m := specExitRe.FindStringSubmatch(s); m != nil {
			n := 0
			fmt.Sscan(m[1], &n)
			want = &n
		}
		if got := specExitCode(s); fmt.Sprint(deref(got)) != fmt.Sprint(deref(want)) {
			t.Errorf("specExitCode(%q) = %v, want %v", s, deref(got), deref(want))
		}
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

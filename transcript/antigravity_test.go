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

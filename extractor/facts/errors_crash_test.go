package facts

import (
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestCrashWithoutExitFlag: a crash printed behind a pipe (no exit code,
// no error flag) is a failure.
func TestCrashWithoutExitFlag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, out string
		want      bool
	}{
		{"glibc heap check", "Running tests...\nmalloc(): invalid size (unsorted)\nAborted (core dumped)", true},
		{"segfault", "test 1 ok\nSegmentation fault (core dumped)", true},
		{"bare segfault line", "Segmentation fault", true},
		{"clean output", "All 12 tests passed", false},
		{"prose about a crash", "This fixes the segmentation fault in parse().", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Failed(handoff.ToolResult{Content: tt.out}); got != tt.want {
				t.Errorf("failed = %v, want %v", got, tt.want)
			}
		})
	}
}

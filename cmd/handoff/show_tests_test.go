package main

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// show --tests lists the session's builds and dry runs after its test run,
// and says so when no test ran but a check did.
func TestPrintTestsWithChecks(t *testing.T) {
	t.Parallel()
	checks := []handoff.CheckState{
		{Command: "npm run build", Kind: "build", Status: handoff.TestsFailing, Source: handoff.MessageRef{Index: 41}},
		{Command: "goreleaser check", Kind: "config check", Status: handoff.TestsPassing, Source: handoff.MessageRef{Index: 57}},
	}
	tests := []struct {
		name  string
		state *handoff.TestState
		want  []string
	}{
		{"tests and checks", &handoff.TestState{Command: "go test ./...", Status: handoff.TestsPassing, Source: handoff.MessageRef{Index: 60}},
			[]string{"command: go test ./...", "status: passing", "check\tbuild\tfailing\tnpm run build\tmessage 41", "check\tconfig check\tpassing\tgoreleaser check\tmessage 57"}},
		{"checks only", nil, []string{"no test run recorded", "check\tbuild\tfailing\tnpm run build\tmessage 41"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := printTests(&b, tt.state, checks); err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("missing %q in:\n%s", w, b.String())
				}
			}
		})
	}
}

package nextstep

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestBrokenCheckNextStep(t *testing.T) {
	build := handoff.ErrorRecord{ID: "s1", Type: "build_error", Command: "npm run build\n", Message: "Build error occurred", Resolution: handoff.ResolutionUnresolved, Source: handoff.MessageRef{Index: 5}}
	cases := []struct {
		name string
		errs []handoff.ErrorRecord
		ts   *handoff.TestState
		want string
	}{
		{"open build", []handoff.ErrorRecord{build}, nil, "`npm run build` still fails"},
		{"fixed build", []handoff.ErrorRecord{func() handoff.ErrorRecord { e := build; e.Resolution = handoff.ResolutionFixed; return e }()}, nil, ""},
		{"not a check", []handoff.ErrorRecord{func() handoff.ErrorRecord { e := build; e.Type = "command_failed"; return e }()}, nil, ""},
		{"green tests after", []handoff.ErrorRecord{build}, &handoff.TestState{Status: handoff.TestsPassing, Source: handoff.MessageRef{Index: 9}}, ""},
		{"green tests before", []handoff.ErrorRecord{build}, &handoff.TestState{Status: handoff.TestsPassing, Source: handoff.MessageRef{Index: 2}}, "`npm run build` still fails"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := &handoff.Snapshot{Errors: tc.errs, TestState: tc.ts, LatestRequest: "Update the docs.", Requests: []handoff.Request{{Text: "Update the docs.", Source: handoff.MessageRef{Index: 10}}},
				EndState: &handoff.EndState{LastAssistant: "The docs have been updated for the new layout.", LastSource: handoff.MessageRef{Index: 12}}}
			got := For(s)
			if tc.want == "" && !strings.HasPrefix(got, "The last turn ended") {
				t.Fatalf("NextStep = %q, want the check-with-the-person fallback", got)
			}
			if tc.want == "" && strings.Contains(got, "still fails") || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("NextStep = %q, want %q", got, tc.want)
			}
		})
	}
}

package extractor

import (
	"context"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/decisions"
)

func TestReportedRevert(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Reverted! We're back to the simple check. The first refactoring stays, but the\nLibraryPaths dataclass is gone.", "LibraryPaths dataclass"},
		{"I tried the retry wrapper, reverted it since it hid the real error.", "the retry wrapper"},
		{"Rolled back. The `--fast` flag has been removed.", "`--fast` flag"},
		// A removal that is no revert is ordinary work.
		{"Done: the unused helper is gone.", ""},
		{"Reverted the formatting change.", ""},
	} {
		if got := decisions.ReportedRevert(tc.text); got != tc.want {
			t.Errorf("reportedRevert(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestRevertDecisions(t *testing.T) {
	msg := func(i int, role handoff.Role, text string, results ...string) handoff.Message {
		m := handoff.Message{Index: i, Role: role, Text: text}
		for _, r := range results {
			m.ToolResults = append(m.ToolResults, handoff.ToolResult{Content: r})
		}
		return m
	}
	tests := []struct {
		name     string
		msgs     []handoff.Message
		want     []string
		wantWhys []string
	}{
		{
			name: "git revert asked with a reason before the word",
			msgs: []handoff.Message{
				msg(0, handoff.RoleUser, "nah, this ended up to be more LOC. revert"),
				msg(1, handoff.RoleAssistant, ""),
				msg(2, handoff.RoleTool, "", "[main bcb5223] Revert \"refactor: Consolidate path functions into LibraryPaths dataclass\"\n 2 files changed"),
				// The report of the same revert is not a second decision.
				msg(3, handoff.RoleAssistant, "Reverted! The LibraryPaths dataclass is gone."),
			},
			want:     []string{"Tried and reverted: Consolidate path functions into LibraryPaths dataclass"},
			wantWhys: []string{`the person: "nah, this ended up to be more LOC."`},
		},
		{
			name: "a bare revert ask takes the message before as its reason",
			msgs: []handoff.Message{
				msg(0, handoff.RoleUser, "This was a TDD violation"),
				msg(1, handoff.RoleUser, "Revert."),
				msg(2, handoff.RoleTool, "", "[main 1b07bd5] Revert \"feat: Improve error handling for permission denied cases\""),
			},
			want:     []string{"Tried and reverted: Improve error handling for permission denied cases"},
			wantWhys: []string{`the person: "This was a TDD violation"`},
		},
		{
			name: "the agent's own revert report has no person's why",
			msgs: []handoff.Message{
				msg(0, handoff.RoleUser, "make the build faster"),
				msg(1, handoff.RoleAssistant, "I tried ccache, reverted it because the cache dir is read-only."),
			},
			want:     []string{"Tried and reverted: ccache"},
			wantWhys: []string{""},
		},
		{
			name: "git log lines naming an old revert are no new revert",
			msgs: []handoff.Message{
				msg(0, handoff.RoleTool, "", "771be67 refactor: x\n1b07bd5 Revert \"feat: y\""),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := NewHeuristic(nil).Extract(context.Background(), tt.msgs)
			if err != nil {
				t.Fatal(err)
			}
			var got, whys []string
			for _, d := range res.Decisions {
				if strings.HasPrefix(d.Description, handoff.RevertedPrefix) {
					got = append(got, d.Description)
					whys = append(whys, strings.NewReplacer("“", `"`, "”", `"`).Replace(d.Rationale))
				}
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Fatalf("reverted = %q, want %q", got, tt.want)
			}
			if strings.Join(whys, "|") != strings.Join(tt.wantWhys, "|") {
				t.Errorf("why = %q, want %q", whys, tt.wantWhys)
			}
		})
	}
}

package conversation

import (
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestWithoutRestatedRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []string
		want int
	}{
		{"restated in other words", []string{"Ensure it aligns with AFI Codex and AOS.", "Preserve AFI Codex and AOS alignment."}, 1},
		{"restated with more words", []string{"Keep all existing scaffolding aligned with AFI Codex and AOS", "Preserve AFI Codex and AOS alignment."}, 1},
		{"different rules on one subject", []string{"Don't push to main.", "Always rebase on main before you push."}, 2},
		{"different rules", []string{"Use pnpm, never npm or yarn.", "Never edit an applied migration; add a new one."}, 2},
		{"short rules are never merged", []string{"No mocks.", "No mocks please."}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cons []handoff.Constraint
			for i, s := range tt.in {
				cons = append(cons, handoff.Constraint{Text: s, Source: handoff.MessageRef{Index: i}})
			}
			got := withoutRestatedRules(cons)
			if len(got) != tt.want {
				t.Fatalf("withoutRestatedRules(%q) kept %d, want %d: %+v", tt.in, len(got), tt.want, got)
			}
			if got[0].Text != tt.in[0] {
				t.Errorf("kept %q first, want the first listed (newest) %q", got[0].Text, tt.in[0])
			}
		})
	}
}

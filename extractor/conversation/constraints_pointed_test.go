package conversation

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestPointedRules(t *testing.T) {
	t.Parallel()
	agents := handoff.Message{Index: 0, Role: handoff.RoleUser, Meta: true, Text: "# AGENTS.md instructions for /srv/app\n\n<INSTRUCTIONS>\n## Conventions\n" +
		"- Use pnpm, never npm or yarn.\n- Run the linter.\nMigrations must be append-only, as a paragraph.\n- Always add a new migration; never edit an applied one.\n</INSTRUCTIONS>"}
	tests := []struct {
		name string
		req  string
		want []string
	}{
		{"the person names the file", "Add the column. Remember the rules in AGENTS.md.", []string{"AGENTS.md: Use pnpm, never npm or yarn.", "AGENTS.md: Always add a new migration; never edit an applied one."}},
		{"case of the name does not matter", "follow agents.md", []string{"AGENTS.md: Use pnpm, never npm or yarn.", "AGENTS.md: Always add a new migration; never edit an applied one."}},
		{"another file named", "Read CLAUDE.md first.", nil},
		{"no file named", "Add the column.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := handoff.Request{Text: tt.req, Source: handoff.MessageRef{Index: 1}}
			got := pointedRules([]handoff.Message{agents, {Index: 1, Role: handoff.RoleUser, Text: tt.req}}, []handoff.Request{req})
			var rules []string
			for _, r := range got {
				if r.Source.Index != 0 {
					t.Errorf("rules sourced at message %d, want the instructions message 0", r.Source.Index)
				}
				rules = append(rules, ListedConstraints(r.Text)...)
			}
			if strings.Join(rules, "|") != strings.Join(tt.want, "|") {
				t.Errorf("pointedRules = %q, want %q", rules, tt.want)
			}
		})
	}
}

package nextstep

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

func TestReportedProblems(t *testing.T) {
	pad := " The rest of this report lists what was done today in some detail, for the record and for the person reading it, with enough words to count as a report."
	cases := []struct {
		name   string
		report string
		after  func(c *sessiontest.Convo)
		want   []string // substrings of the problems filed, in order
	}{
		{"defect about a named thing", "Audit done." + pad + "\n- `dist/schemas/index.js` exports only 2 schemas while `index.d.ts` declares 5.\n- The `vsla_gpu_conv_fft()` function is just a TODO placeholder", nil,
			[]string{"exports only 2 schemas", "TODO placeholder"}},
		{"unverified claim", "Pushed the v6 fix." + pad + "\nThe fix in `release.yml` is not yet verified in CI.", nil, []string{"not yet verified"}},
		{"no named thing", "Summary." + pad + "\nSomething is still broken somewhere in the pipeline.", nil, nil},
		{"a product, not a marker", "I've created a complete TODO app with `page.tsx` and hooks." + pad, nil, nil},
		{"a plan, a question, a condition", "Plan." + pad + "\nI'll fix the missing import in `scorer.ts` next.\nShould `index.js` export the missing schemas?\nIf `tzdata` is missing, install it.", nil, nil},
		{"fixed line", "Status." + pad + "\n✅ Fixed the failing `TestParse` case.", nil, nil},
		{"fixed later", "Review." + pad + "\n`library.py` is inconsistent: 5 in the query, 3 in `_row_to_book`.", func(c *sessiontest.Convo) {
			c.Say("I corrected `_row_to_book` so it matches the query.")
		}, nil},
		{"worked on later", "Build." + pad + "\nThe prebuilt binary is missing: `npm ci` skipped the optional musl package.", func(c *sessiontest.Convo) {
			c.Bash("Installing it.", "npm ci --include=optional", "added 3 packages", 0)
		}, nil},
		{"a numbered part said done later", "Status." + pad + "\n- Phase 3: the `/api/plugin/*` routes (not built yet)", func(c *sessiontest.Convo) {
			c.Say("**Phase 3 is done.** The plugin routes are live.")
		}, nil},
		{"another part done, this one still open", "Status." + pad + "\n- Phase 3: the `/api/plugin/*` routes (not built yet)", func(c *sessiontest.Convo) {
			c.Say("Phase 2 is done; Phase 3 is not built yet.")
		}, []string{"not built yet"}},
		{"notes written about it are not work on it", "Status." + pad + "\nThe `vsla_gpu_conv_fft()` function is just a TODO placeholder", func(c *sessiontest.Convo) {
			c.Call("Recording it.", "Write", map[string]string{"file_path": "/r/STATUS.md", "content": "vsla_gpu_conv_fft() is a stub"})
		}, []string{"TODO placeholder"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t).User("Audit the package.").Say(tc.report)
			if tc.after != nil {
				tc.after(c)
			}
			got := conversation.ReportedProblems(c.Msgs)
			if len(got) != len(tc.want) {
				t.Fatalf("problems %+v, want %d: %q", got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i].Message, w) || got[i].Type != facts.ReportedProblem || got[i].Resolution != handoff.ResolutionUnresolved {
					t.Errorf("problem %d = %+v, want %q", i, got[i], w)
				}
			}
		})
	}
}

// TestReportedProblemNotNextStep checks that a problem reported in prose
// never becomes the next step's "fix the open error": it has no command.
func TestReportedProblemNotNextStep(t *testing.T) {
	s := &handoff.Snapshot{Errors: []handoff.ErrorRecord{{Type: facts.ReportedProblem, Message: "`x.go` is a stub", Resolution: handoff.ResolutionUnresolved}}}
	if got := For(s); strings.Contains(got, "open") {
		t.Fatalf("NextStep = %q, want no open-error step", got)
	}
}

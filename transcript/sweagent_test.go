package transcript

import (
	"context"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestSWEAgentSubmissionIsTheSubmitResult: a trajectory that records the
// submitted patch only in info.submission gets it as the submit action's
// result; one whose submit has an observation keeps just that.
func TestSWEAgentSubmissionIsTheSubmitResult(t *testing.T) {
	t.Parallel()
	const patch = "diff --git a/f.py b/f.py\n--- a/f.py\n+++ b/f.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"
	history := `[{"role":"system","content":"You are an agent."},{"role":"user","content":"Fix f.py"},` +
		`{"role":"assistant","content":"Submitting.","action":"submit"}`
	tests := []struct {
		name, doc string
		results   int
	}{
		{"patch only in info", `{"history":` + history + `],"info":{"exit_status":"submitted","submission":` + quoteJSON(patch) + `}}`, 1},
		{"no submission", `{"history":` + history + `],"info":{"exit_status":"submitted"}}`, 0},
		{"observation present", `{"history":` + history + `,{"role":"user","content":"` + strings.ReplaceAll(strings.ReplaceAll(patch, "\n", `\n`), `"`, `\"`) + `"}],"info":{"submission":` + quoteJSON(patch) + `}}`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Parse(context.Background(), strings.NewReader(tt.doc), Options{Format: FormatSWEAgent, Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			var results []handoff.ToolResult
			for _, m := range tr.Messages {
				results = append(results, m.ToolResults...)
			}
			if len(results) != tt.results {
				t.Fatalf("%d tool results, want %d", len(results), tt.results)
			}
			if tt.results == 1 && !strings.Contains(results[0].Content, "+x = 2") {
				t.Errorf("submit result = %q, want the patch", results[0].Content)
			}
			if tr.Session.EndSignal != EndSubmitted {
				t.Errorf("end signal %q", tr.Session.EndSignal)
			}
		})
	}
}

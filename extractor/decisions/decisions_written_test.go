package decisions

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestDecisionEntries(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
		wantWhy    string
		wantAlts   []string
	}{
		{
			name: "decision records with rationale and alternatives",
			text: "# Research\n\n### Decision: Use FastAPI for transport\nRationale: typed\nvalidation.\nAlternatives considered:\n- Flask: rejected, untyped.\n- gRPC: out of scope.\n\n### Decision: Return RESOURCE_NOT_FOUND for unknown tools\n",
			want: []string{"Use FastAPI for transport", "Return RESOURCE_NOT_FOUND for unknown tools"}, wantWhy: "typed validation.", wantAlts: []string{"Flask", "gRPC"},
		},
		{
			name: "a decisions section: sub-headings with their items",
			text: "## Summary\nstuff\n### Key Architectural Decisions\n#### 1. Single Tensor\n- Extended vsla_tensor_t\n- Added validity flags\n#### 2. Backends\n- Function pointer interface\n## Files\n- a.c\n",
			want: []string{"Single Tensor: Extended vsla_tensor_t; Added validity flags", "Backends: Function pointer interface"},
		},
		{
			name: "a decisions section of list items, nested items joined",
			text: "## Design decisions\n- Keep SQLite as the store\n  - one file per user\n- Use `--backend` to pick the backend\n\n## Next\n- write docs\n",
			want: []string{"Keep SQLite as the store: one file per user", "Use `--backend` to pick the backend"},
		},
		{
			name: "D-numbered labels anywhere",
			text: "Notes\nD1: cap cloud results at 500\nD2: no backfill of legacy sessions\n",
			want: []string{"cap cloud results at 500", "no backfill of legacy sessions"},
		},
		{
			name: "a fenced example is not the document's decision",
			text: "## Plan\n```markdown\n# Decision: example title\n## Decision\nuse X\n```\n",
		},
		{
			name: "a heading that names a thing, not a list of choices",
			text: "## Decision Tree\n- if A then B\n## Lessons: Architecture Design\n- small is better\n- decision-ping.ts runs after each answer\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := decisionEntries(tt.text)
			var texts []string
			for _, e := range got {
				texts = append(texts, e.text)
			}
			if !slices.Equal(texts, tt.want) {
				t.Fatalf("entries = %q, want %q", texts, tt.want)
			}
			if tt.wantWhy != "" && got[0].rationale != tt.wantWhy {
				t.Errorf("rationale = %q, want %q", got[0].rationale, tt.wantWhy)
			}
			if tt.wantAlts != nil && !slices.Equal(got[0].alts, tt.wantAlts) {
				t.Errorf("alternatives = %q, want %q", got[0].alts, tt.wantAlts)
			}
		})
	}
}

func TestWrittenDecisionsFromCalls(t *testing.T) {
	doc := "### Decision: Use Python 3.11 + FastAPI\nRationale: matches the constitution.\n"
	call := func(name string, in any) handoff.ToolCall {
		raw, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		return handoff.ToolCall{Name: name, Input: raw}
	}
	tests := []struct {
		name string
		call handoff.ToolCall
		want string
	}{
		{"Write of a markdown file", call("Write", map[string]any{"file_path": "/p/docs/research.md", "content": doc}), "Use Python 3.11 + FastAPI (research.md)"},
		{"shell here-document", call("exec_command", map[string]any{"cmd": "cat > specs/001/research.md <<'EOF'\n" + doc + "EOF\n"}), "Use Python 3.11 + FastAPI (research.md)"},
		{"here-document redirect after the marker", call("Bash", map[string]any{"command": "cat <<EOF > notes/plan.md\n" + doc + "EOF"}), "Use Python 3.11 + FastAPI (plan.md)"},
		{"a code file is not a decision record", call("Write", map[string]any{"file_path": "/p/src/x.ts", "content": doc}), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, e := range writtenDecisions(writtenFiles(tt.call, nil)) {
				got = append(got, e.text)
			}
			if strings.Join(got, "|") != tt.want {
				t.Fatalf("decisions = %q, want %q", got, tt.want)
			}
		})
	}
}

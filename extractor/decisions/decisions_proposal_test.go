package decisions

import (
	"strings"
	"testing"
)

func TestCompactProposal(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"a table: rows as clauses, no header or rule",
			"**Summary of token situation:**\n| Secret | Still Needed? |\n|--------|---------------|\n| `PUBLIC_REPO_TOKEN` | **No** - use built-in `GITHUB_TOKEN` |\n| `POSTHOG_API_KEY` | **Yes** - for analytics |",
			"**Summary of token situation:** `PUBLIC_REPO_TOKEN`: No - use built-in `GITHUB_TOKEN`; `POSTHOG_API_KEY`: Yes - for analytics."},
		{"a config dump: its entries' values as a list",
			"# Remove these (auto-modify files):\n# -   id: trailing-whitespace\n# -   id: end-of-file-fixer\nThis keeps the validation.",
			"Remove these (auto-modify files): trailing-whitespace, end-of-file-fixer. This keeps the validation."},
		{"prose stays as it is",
			"Rename the flag to --dry-run:\n- cmd/root.go\n- README.md",
			"Rename the flag to --dry-run: - cmd/root.go - README.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := compactProposal(strings.Split(tc.in, "\n")); got != tc.want {
				t.Errorf("compactProposal = %q\nwant %q", got, tc.want)
			}
		})
	}
}

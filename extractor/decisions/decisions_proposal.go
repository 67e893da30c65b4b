package decisions

import (
	"strings"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// A proposal the person approved often carries its choice as a table or
// a config dump ("| `PUBLIC_REPO_TOKEN` | **No** - use built-in
// `GITHUB_TOKEN` |", "# -   id: trailing-whitespace"). Joined onto one
// line verbatim that is pipes, dashes and comment marks; compacted it
// reads as what was chosen: "PUBLIC_REPO_TOKEN: No - use built-in
// GITHUB_TOKEN; …", "Remove these: trailing-whitespace, end-of-file-fixer".

var (
	tableRowRe = prose.LazyRE(rulebook.Pattern("decisions.table-row"))
	tableSepRe = prose.LazyRE(rulebook.Pattern("decisions.table-sep"))
	// configItemRe is a config list entry, commented out or not:
	// "-   id: check-yaml", "# - id: end-of-file-fixer", "- run: make".
	configItemRe  = prose.LazyRE(rulebook.Pattern("decisions.config-item"))
	headingMarkRe = prose.LazyRE(rulebook.Pattern("decisions.heading-mark"))
)

// compactProposal joins a proposal's lines into one: table rows become
// "cell: cell" clauses without the header and rule rows, config entries
// their values in a list, heading and comment marks go.
func compactProposal(lines []string) string {
	var parts, rows, vals []string
	flush := func() {
		if len(rows) > 0 {
			parts = append(parts, strings.Join(rows, "; ")+".")
			rows = nil
		}
		if len(vals) > 0 {
			parts = append(parts, strings.Join(vals, ", ")+".")
			vals = nil
		}
	}
	for i, l := range lines {
		l = strings.TrimSpace(l)
		switch {
		case l == "":
		case tableSepRe.MatchString(l) && strings.Contains(l, "-"):
		case tableRowRe.MatchString(l):
			if i+1 < len(lines) && tableSepRe.MatchString(strings.TrimSpace(lines[i+1])) {
				continue // the header row
			}
			var cells []string
			for _, c := range strings.Split(strings.Trim(l, "|"), "|") {
				if c = strings.Trim(strings.TrimSpace(c), "*"); c != "" {
					cells = append(cells, strings.ReplaceAll(c, "**", ""))
				}
			}
			rows = append(rows, strings.Join(cells, ": "))
		case configItemRe.MatchString(l):
			vals = append(vals, strings.TrimSpace(configItemRe.FindStringSubmatch(l)[1]))
		default:
			flush()
			parts = append(parts, headingMarkRe.ReplaceAllString(l, ""))
		}
	}
	flush()
	return strings.Join(parts, " ")
}

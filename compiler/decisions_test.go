package compiler

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestNamesThing(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"Use `GITHUB_TOKEN` for publishing", true},
		{"Keep token buckets in Redis so replicas share one limit", true},
		{"Exclude specs from mypy via pyproject.toml", true},
		{"Run the suite with --backend cpu", true},
		{"Cap the cloud list at 500 rows", true},
		{"Rename the basic functions with a _basic suffix", true},
		{"Remove these hooks: trailing-whitespace, end-of-file-fixer.", true},
		{"Keep the well-known layout", false},
		{"Let's download it to a temporary location instead:", false},
		{"Good instinct — let's see if there's a precedent to follow rather than inventing one.", false},
		{"I'll skip this for now and come back later.", false},
	} {
		if got := namesThing(tc.text); got != tc.want {
			t.Errorf("namesThing(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestDecisionsInForce(t *testing.T) {
	goal := "Port the exporter to Parquet, the format our warehouse loads. Do not modify files under vendor/. Lets keep working until the tests pass."
	s := &handoff.Snapshot{
		Goal:          goal[:60], // as a clipped goal shows it
		LatestRequest: "ok, good start, but use pyarrow instead of fastparquet",
		Requests: []handoff.Request{
			{Text: goal, Source: handoff.MessageRef{Index: 1}},
			{Text: "Never push to main.", Source: handoff.MessageRef{Index: 5}},
			{Text: "ok, good start, but use pyarrow instead of fastparquet", Source: handoff.MessageRef{Index: 9}},
		},
		Constraints: []handoff.Constraint{{Text: "Never push to main.", Source: handoff.MessageRef{Index: 5}}},
		Decisions: []handoff.Decision{
			{ID: "d1", Type: handoff.DecisionClarification, Description: "Lets keep working until the tests pass.", Source: handoff.MessageRef{Index: 1}},
			{ID: "d2", Type: handoff.DecisionClarification, Description: "Do not modify files under vendor/.", Source: handoff.MessageRef{Index: 1}},
			{ID: "d3", Type: handoff.DecisionLibrary, Description: "I'll use `decimal128` columns rather than float64", Source: handoff.MessageRef{Index: 3}},
			{ID: "d4", Type: handoff.DecisionClarification, Description: "Never push to main.", Source: handoff.MessageRef{Index: 5}},
			{ID: "d5", Type: handoff.DecisionApproach, Description: "Let's take a different route instead.", Source: handoff.MessageRef{Index: 7}},
			{ID: "d6", Type: handoff.DecisionClarification, Description: "use pyarrow instead of fastparquet", Source: handoff.MessageRef{Index: 9}},
			{ID: "d8", Type: handoff.DecisionApproach, Description: "The proper fix is to use `pre-commit run --all-files` in CI.", Source: handoff.MessageRef{Index: 13}},
			{ID: "p1", Type: handoff.DecisionApproach, Description: "The proper fix is to use `pre-commit run --all-files` in CI. Want me to do that?", Rationale: "the person approved it", Source: handoff.MessageRef{Index: 13}},
			{ID: "d7", Type: handoff.DecisionWorkaround, Description: "Pin numpy to 1.26 for now", Source: handoff.MessageRef{Index: 11}, SupersededBy: "d8"},
		},
	}
	var got []string
	for _, d := range decisionsInForce(s) {
		got = append(got, d.ID)
	}
	// d1 is the goal's own sentence, d4 a constraint shown, d6 the latest
	// request, d5 names nothing, d7 is superseded, d8 is said whole by the
	// approved proposal p1; d2 is a standing rule of the goal's message,
	// kept; newest first.
	if want := "p1 d3 d2"; strings.Join(got, " ") != want {
		t.Errorf("decisionsInForce = %v, want %s", got, want)
	}
}

func TestDecisionLine(t *testing.T) {
	for _, tc := range []struct {
		d           handoff.Decision
		person      bool
		brief, full string
	}{
		{handoff.Decision{Type: handoff.DecisionLibrary, Description: "Use Redis", Rationale: "replicas share it", Alternatives: []string{"in-process"}}, false,
			"- “Use Redis”", "- “Use Redis” — why: “replicas share it” — rejected: “in-process”"},
		{handoff.Decision{Type: handoff.DecisionWorkaround, Description: "Pin numpy to 1.26"}, false, "- workaround: “Pin numpy to 1.26”", "- workaround: “Pin numpy to 1.26”"},
		{handoff.Decision{Type: handoff.DecisionClarification, Description: "Use the v2 API"}, true, "- the person: “Use the v2 API”", "- the person: “Use the v2 API”"},
		{handoff.Decision{Type: handoff.DecisionClarification, Description: `The person picked "(b)"`}, true, "- “The person picked \"(b)\"”", "- “The person picked \"(b)\"”"},
		{handoff.Decision{Type: handoff.DecisionApproach, Description: "Remove the auto-fixing hooks. Want me to make this change?", Rationale: handoff.ApprovedRationale + "“yes, but keep ruff”"}, false,
			"- approved by the person: “Remove the auto-fixing hooks. Want me to make this change?”",
			"- approved by the person: “Remove the auto-fixing hooks. Want me to make this change?” — their reply: “yes, but keep ruff”"},
		{handoff.Decision{Type: handoff.DecisionApproach, Description: "Tried and reverted: LibraryPaths dataclass", Rationale: "the person: “more LOC”"}, false,
			"- tried and reverted: “LibraryPaths dataclass”", "- tried and reverted: “LibraryPaths dataclass” — why: the person: “more LOC”"},
	} {
		brief, full := decisionLine(tc.d, tc.person)
		if brief != tc.brief || full != tc.full {
			t.Errorf("decisionLine(%q) = %q, %q; want %q, %q", tc.d.Description, brief, full, tc.brief, tc.full)
		}
	}
}

func TestPersonRulesLeftToConstraints(t *testing.T) {
	msg := "YOU DO NOT write final code. YOU DO NOT run builds or tests. Use *Webhook*.cs instead of the exact name."
	s := &handoff.Snapshot{
		Goal: "Find why push-to-talk drops the first word",
		Requests: []handoff.Request{
			{Text: "Find why push-to-talk drops the first word. Do not modify files.", Source: handoff.MessageRef{Index: 1}},
			{Text: msg, Source: handoff.MessageRef{Index: 4}},
		},
		// The constraints owner quoted message 4's first rule only.
		Constraints: []handoff.Constraint{{Text: "YOU DO NOT write final code.", Source: handoff.MessageRef{Index: 4}}},
		Decisions: []handoff.Decision{
			{ID: "d1", Type: handoff.DecisionClarification, Description: "Do not modify files.", Source: handoff.MessageRef{Index: 1}},
			{ID: "d2", Type: handoff.DecisionClarification, Description: "YOU DO NOT run builds or tests.", Source: handoff.MessageRef{Index: 4}},
			{ID: "d3", Type: handoff.DecisionClarification, Description: "Use *Webhook*.cs instead of the exact name.", Source: handoff.MessageRef{Index: 4}},
			{ID: "p1", Type: handoff.DecisionClarification, Description: `The person chose "don't migrate, keep v1"`, Source: handoff.MessageRef{Index: 4}},
		},
	}
	var got []string
	for _, d := range decisionsInForce(s) {
		got = append(got, d.ID)
	}
	// d2 is a rule of a message the constraints list quotes: left to it.
	// d1 is a rule no constraint carries (kept); d3 and p1 are choices.
	if want := "d3 p1 d1"; strings.Join(got, " ") != want {
		t.Errorf("decisionsInForce = %v, want %s", got, want)
	}
}

func TestNewestMessageFirst(t *testing.T) {
	ds := []handoff.Decision{
		{ID: "a", Source: handoff.MessageRef{Index: 3}},
		{ID: "b1", Source: handoff.MessageRef{Index: 8}},
		{ID: "b2", Source: handoff.MessageRef{Index: 8}},
		{ID: "b3", Source: handoff.MessageRef{Index: 8}},
		{ID: "c", Source: handoff.MessageRef{Index: 9}},
	}
	var got []string
	for _, d := range newestMessageFirst(ds) {
		got = append(got, d.ID)
	}
	if want := "c b1 b2 b3 a"; strings.Join(got, " ") != want {
		t.Errorf("newestMessageFirst = %v, want %s", got, want)
	}
}

// TestPickLine: a pick is our words around the session's; only the
// session's are quoted, and text inside cannot close the quote early.
func TestPickLine(t *testing.T) {
	for _, tc := range []struct {
		name, desc, want string
		ok               bool
	}{
		{"an answer with its question",
			handoff.ChosePrefix + "“TypeScript (Bun)”" + handoff.AskedInfix + "“Which language should the CLI use?”",
			"the person chose “TypeScript (Bun)” when asked “Which language should the CLI use?”", true},
		{"options picked from a list", handoff.PickedPrefix + "“(1) init develop; (3) protect main”",
			"the person picked “(1) init develop; (3) protect main”", true},
		{"the session's own words", "Use SQLite for the store", "", false},
		{"an unclosed quote is not read as a pick", handoff.ChosePrefix + "“TypeScript", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := pickLine(tc.desc)
			if ok != tc.ok || got != tc.want {
				t.Errorf("pickLine(%q) = %q, %v; want %q, %v", tc.desc, got, ok, tc.want, tc.ok)
			}
		})
	}
	d := handoff.Decision{Type: handoff.DecisionClarification, Description: handoff.ChosePrefix + "“b”" + handoff.AskedInfix + "“Option a or b?”"}
	brief, _ := decisionLine(d, true)
	if strings.Count(brief, "“") != 2 || !strings.HasPrefix(brief, "- the person chose “b”") {
		t.Errorf("decisionLine of a pick = %q, want our words outside two quotes", brief)
	}
}

// TestUnconfirmedLine: a guess the session never checked says so outside
// the quotes.
func TestUnconfirmedLine(t *testing.T) {
	d := handoff.Decision{Type: handoff.DecisionApproach, Description: handoff.UnconfirmedPrefix + "`state = 3` appears to be the value for synced rows."}
	brief, _ := decisionLine(d, false)
	if want := "- unconfirmed guess: “`state = 3` appears to be the value for synced rows.”"; brief != want {
		t.Errorf("decisionLine = %q, want %q", brief, want)
	}
}

package extractor

import (
	"slices"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

func TestListedConstraints(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"heading with items", "Fix the parser.\n\nConstraints:\n- No new dependencies\n- Batch 3 belongs to another worker\n\nThanks", []string{"No new dependencies", "Batch 3 belongs to another worker"}},
		{"markdown heading, wrapped item", "## Rules\n1. Keep the public API\n   as it is today\n2. Tests first\nThen report.", []string{"Keep the public API as it is today", "Tests first"}},
		{"indented message, next list", "  Constraints:\n  - Do not use e2e.\n\n  For each batch, report:\n  - why they matter", []string{"Do not use e2e."}},
		{"no heading", "Goals:\n- Raise coverage\n- Add tests", nil},
	} {
		if got := conversation.ListedConstraints(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("%s: listedConstraints = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestFormatSpecAndRulesPastTheClip(t *testing.T) {
	c := sessiontest.NewConvo(t)
	task := "Review the crate " + strings.Repeat("and look closely at the unsafe code paths ", 20) +
		".\n\nRequirements:\n- Cite the kernel header for every layout claim\n\nOutput ONLY concrete findings, each as:\n[SEVERITY] file:line — issue — fix.\nAlways be thorough in the review."
	c.User(task)
	c.Say("Reviewing.")
	snap := build(t, c, handoff.SessionInfo{})
	var texts []string
	for _, k := range snap.Constraints {
		texts = append(texts, k.Text)
	}
	for _, want := range []string{
		"Cite the kernel header for every layout claim",
		"Output ONLY concrete findings, each as: [SEVERITY] file:line — issue — fix.",
	} {
		if !slices.Contains(texts, want) {
			t.Errorf("constraints = %q, want %q from past the goal's clip", texts, want)
		}
	}
	if slices.Contains(texts, "Always be thorough in the review.") {
		t.Errorf("a plain sentence past the clip became a constraint: %q", texts)
	}
}

func TestCodeLineIsNoConstraint(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"import { PoIValidator } from './PoIValidator';", true},
		{"const x = require('never-mind');", true},
		{"if (!ensure(x)) {", true},
		{"}", true},
		{"Never import lodash; use the standard library.", false},
		{"Don't use var, always const.", false},
		{"Return early instead of nesting (it reads better).", false},
		{"from now on, never push (ask first)", false},
		{"let me know before you run migrations (they are slow)", false},
	} {
		if got := conversation.CodeLine(tc.text); got != tc.want {
			t.Errorf("codeLine(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
	if conversation.IsConstraint("const keep = ensureAll(items);") {
		t.Error("a line of code with a rule word became a constraint")
	}
}

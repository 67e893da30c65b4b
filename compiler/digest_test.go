package compiler

import (
	"strings"
	"testing"
)

func TestDigest(t *testing.T) {
	t.Parallel()
	findings := strings.Repeat("[HIGH] a.go:1 — the first finding has a long explanation that goes on and on about why it matters. And more.\n\n", 3) +
		"[LOW] z.go:9 — the last finding.\n"
	tests := []struct {
		name, text string
		perItem    int
		total      int
		want       []string // lines the digest must hold
		empty      bool
	}{
		{name: "too few items", text: "One paragraph.\n\nAnother one.", perItem: 50, total: 500, empty: true},
		{name: "every item's head", text: findings, perItem: 40, total: 1000, want: []string{"[HIGH] a.go:1", "[LOW] z.go:9 — the last finding."}},
		{name: "list items", text: "Done:\n- one\n- two\n- three\n```\n- not an item\n```\n- four", perItem: 40, total: 1000, want: []string{"- one", "- four"}},
		{name: "total reached", text: findings, perItem: 40, total: 60, want: []string{"[HIGH] a.go:1", "… (+3 more)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := digest(tc.text, tc.perItem, tc.total)
			if tc.empty != (got == "") {
				t.Fatalf("digest = %q", got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("digest lacks %q:\n%s", w, got)
				}
			}
			if strings.Contains(got, "not an item") {
				t.Errorf("code block content in digest:\n%s", got)
			}
		})
	}
}

package compiler

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
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

// TestLastMessageWhole: a last message longer than the full form is shown
// whole when the budget has room for it, and stays within the budget when
// it has not.
func TestLastMessageWhole(t *testing.T) {
	t.Parallel()
	var msg strings.Builder
	for i := 1; i <= 24; i++ {
		fmt.Fprintf(&msg, "[SEVERITY medium] src/file%d.rs:%d — finding %d explains at length why the bounds check is missing and what it breaks downstream.\n\n", i, i*10, i)
	}
	msg.WriteString("The last one is finding-last.")
	if utf8.RuneCountInString(msg.String()) <= fullText {
		t.Fatalf("message of %d runes is not longer than fullText", utf8.RuneCountInString(msg.String()))
	}
	s := &handoff.Snapshot{
		Goal:     "Review the crate.",
		EndState: &handoff.EndState{LastAssistant: msg.String()},
	}
	c := testCounter(t)
	for _, tc := range []struct {
		budget int
		whole  bool
	}{{500, false}, {4000, true}} {
		res, err := Compile(s, Options{Budget: tc.budget, Counter: c})
		if err != nil {
			t.Fatal(err)
		}
		if res.Tokens > tc.budget {
			t.Errorf("budget %d: %d tokens", tc.budget, res.Tokens)
		}
		if got := strings.Contains(res.Prompt, "finding-last"); got != tc.whole {
			t.Errorf("budget %d: last sentence shown = %v, want %v:\n%s", tc.budget, got, tc.whole, res.Prompt)
		}
	}
}

package decisions

import (
	"github.com/handoff-cli/handoff/extractor/prose"
)
import "testing"

func TestAnswerIsChoice(t *testing.T) {
	q := "Which language should the CLI use? (options: TypeScript (Bun) / Python / Go)"
	for _, tc := range []struct {
		text, answers string
		want          bool
	}{
		{"TypeScript (Bun)", q, true},
		{"Go, but ask me before adding dependencies", q, true},
		{"python? or is go faster here?", q, true}, // names an option
		{"I don't understand your options: does minimal mean less context?", q, false},
		{"The stop hook seems the wrong moment. How do the other hooks work?", "When should the reminder fire?", false},
		{"Validate the whole plan, then phase 1", "The plan has 5 phases.", true},
		{"  ", q, false},
	} {
		if got := answerIsChoice(tc.text, tc.answers); got != tc.want {
			t.Errorf("answerIsChoice(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestBareLetsNot(t *testing.T) {
	for _, tc := range []struct {
		sent string
		want bool
	}{
		{"OK, good start, but let's not rush.", true},
		{"lets not bother!", true},
		{"Let's not use the ORM for the migration.", false},
		{"let's not touch vendor/", false},
	} {
		if got := bareLetsNotRe.MatchString(tc.sent); got != tc.want {
			t.Errorf("bareLetsNotRe(%q) = %v, want %v", tc.sent, got, tc.want)
		}
	}
}

func TestProseDecisions(t *testing.T) {
	p := CompilePatterns()
	for _, tc := range []struct {
		sent string
		want bool
	}{
		{"The simplest solution is to rename the basic API functions with a `_basic` suffix.", true},
		{"Better Solution: Exclude specs from mypy", true},
		{"The unified API should be the primary interface, and we should rename the basic API functions.", true},
		{"Best hypothesis: ZSTATE 3 means the book is synced to iCloud.", true},
		{"`ZSTATE = 3`: This is our strongest candidate for a cloud-synced book.", true},
		{"The lock file turns out to be the real culprit for the stale build.", true},
		{"`ZSTATE = 3` appears to be the correct value for cloud-synced books.", true},
		{"It appears to be working now.", false},
		{"We need a candidate list for the release.", false},
		{"The solution works now.", false},
		{"This is the best way to see it.", false},
	} {
		if got := prose.MatchesAny(p.Assistant, tc.sent); got != tc.want {
			t.Errorf("assistant patterns match %q = %v, want %v", tc.sent, got, tc.want)
		}
	}
}

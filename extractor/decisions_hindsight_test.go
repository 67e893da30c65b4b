package extractor

import "testing"

// TestHindsightIsNoDecision: a choice in the counterfactual past (a
// regret or a lesson) is no decision; a present choice next to one is,
// and so are modal sentences that are not perfect ("should have a test").
func TestHindsightIsNoDecision(t *testing.T) {
	t.Parallel()
	runDecides(t, []decidesCase{
		{"should have used rather than", "But I should have used ripgrep directly rather than the Task tool for this search.", false, false},
		{"should've instead", "I should've gone with `pgx` instead of `lib/pq`.", false, false},
		{"we should have", "We should have picked SQLite over Postgres for the fixtures.", false, false},
		{"shouldn't have", "I shouldn't have switched to `npm` instead of `pnpm`.", false, false},
		{"would have been better", "It would have been better to use `git mv` instead of copying the file.", false, false},
		{"in hindsight", "In hindsight, choosing Redis over memcached was overkill.", false, false},
		{"person regret", "you should have used `rg` instead of grep", true, false},
		{"french", "J'aurais dû utiliser `rg` instead of grep.", false, false},
		{"german", "Ich hätte `rg` instead of grep verwenden sollen.", false, false},
		{"spanish", "Debería haber usado `rg` instead of grep.", false, false},
		{"regret then present choice", "I should have used `rg` from the start, so I'll switch to `rg` instead of grep now.", false, true},
		{"plain choice", "I'll use `rg` instead of grep for the search.", false, true},
		{"should have, not perfect", "Each handler should have a test, so I'll use `httptest` instead of a live server.", false, true},
		{"would have to, present", "We would have to rewrite the parser, so I'll use `goyacc` instead of a hand-written one.", false, true},
	})
}

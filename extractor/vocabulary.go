package extractor

import "github.com/handoff-cli/handoff/extractor/rulebook"

// vocabulary is the word list of the rulebook's rule id as a set, for a
// package-level var built once and only read after.
func vocabulary(id string) map[string]bool {
	words := rulebook.Words(id)
	set := make(map[string]bool, len(words))
	for _, w := range words {
		set[w] = true
	}
	return set
}

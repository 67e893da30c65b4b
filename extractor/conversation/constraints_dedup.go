package conversation

import (
	"strings"
	"unicode"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// People restate their standing rules, most of all across the sessions of
// one long log ("Preserve AFI Codex and AOS alignment." … "Ensure it
// aligns with AFI Codex and AOS."). Each restatement is another line of
// the same rule under a tight budget.

// ruleFrame are the words that frame a rule rather than say what it is
// about: its verbs of keeping and insisting, and function words.
var ruleFrame = rulebook.WordSet("conversation.rule-frame")

// ruleTopic is the set of a rule's topic words, each cut to its first
// five letters, so "aligns", "aligned" and "alignment" are one.
func ruleTopic(text string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '-' && r != '_' && r != '.'
	}) {
		w = strings.Trim(w, "'.-")
		if len([]rune(w)) < 2 || ruleFrame[w] {
			continue
		}
		if r := []rune(w); len(r) > 5 {
			w = string(r[:5])
		}
		set[w] = true
	}
	return set
}

// withoutRestatedRules drops a constraint whose topic words are nearly
// those of one listed before it (the list is newest first within rules
// and preferences, so the newest wording stays): at least three topic
// words each, and a Jaccard similarity of 0.6 or more. Two different
// rules about the same things ("don't push to main" and "always rebase
// on main before you push") share too few words to be one.
func withoutRestatedRules(cons []handoff.Constraint) []handoff.Constraint {
	out := cons[:0:0]
	var kept []map[string]bool
	for _, c := range cons {
		topic := ruleTopic(c.Text)
		restated := false
		for _, k := range kept {
			if len(topic) >= 3 && len(k) >= 3 && prose.Jaccard(topic, k) >= 0.6 {
				restated = true
				break
			}
		}
		if restated {
			continue
		}
		kept = append(kept, topic)
		out = append(out, c)
	}
	return out
}

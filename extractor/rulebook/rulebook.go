// Package rulebook is the catalogue of the extractor's named rules: every
// judgement the extractor makes that is not a plain fact (a pattern, a word
// list, a step of an ordered cascade) is a Rule with an id, what it is for,
// the layer it belongs to, and examples that must fire and counter-examples
// that must not. A rule is switched off by id (Switches), which is how the
// ablation run in eval/ measures what each rule earns.
//
// The model is redact/catalogue.go inside the project and gitleaks'
// rules-as-data outside it. The package imports nothing of the extractor,
// so every layer can consult it.
package rulebook

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Layer names where a rule sits in the extractor. Layers import only
// downward, in this order.
type Layer string

// The extractor's layers, lowest first.
const (
	LayerText         Layer = "text"         // shared text helpers
	LayerFacts        Layer = "facts"        // facts computed from tool calls: files, commands, tests, git, plan
	LayerConversation Layer = "conversation" // requests, constraints, reports, end state
	LayerDecisions    Layer = "decisions"    // decisions and their rationale
	LayerNext         Layer = "next"         // the next step: an ordered cascade
	LayerAssembly     Layer = "assembly"     // the snapshot put together
)

// Kind says how a rule's examples are checked.
type Kind string

const (
	// KindPattern rules are a regular expression: an example is a text it
	// must match, a counter-example one it must not.
	KindPattern Kind = "pattern"
	// KindWords rules are a word list matched case-insensitively as whole
	// words.
	KindWords Kind = "words"
	// KindStep rules are a piece of logic (a step of a cascade, a
	// reconciliation of facts): an example names a case of the owning
	// layer's table test, in which the rule must fire, and a
	// counter-example one in which it must not. TestStepExamples in that
	// layer runs them.
	KindStep Kind = "step"
)

// Rule is one named piece of the extractor's judgement.
type Rule struct {
	// ID is stable and dotted by layer ("next.stale-plan"); Options.Disable
	// and the ablation table use it.
	ID      string
	Layer   Layer
	Kind    Kind
	Purpose string
	// Pattern is the rule's RE2 expression (KindPattern).
	Pattern string
	// Switch says the extractor consults Switches for this rule, so
	// Options.Disable (and the ablation run) turns it off. Most pattern
	// and word rules are consulted through the code that uses them and
	// cannot be switched off alone.
	Switch bool
	// Words is the rule's word list (KindWords).
	Words []string
	// Examples must fire; Counter must not. Every rule has at least one of
	// each.
	Examples []string
	Counter  []string
}

// Catalogue is the ordered list of every rule. It is built anew on each
// call, so nothing can change a rule at run time.
func Catalogue() []Rule {
	return slices.Concat(nextRules(), factRules(), conversationRules(), factPatterns(), factOutputPatterns(), conversationPatterns(), decisionPatterns(), decisionSetPatterns(), vocabularyRules(), shapeRules(), wordShapeRules())
}

// ByID returns the rule with id, false when there is none.
func ByID(id string) (Rule, bool) {
	i, ok := index()[id]
	if !ok {
		return Rule{}, false
	}
	return catalogue()[i], true
}

// catalogue is Catalogue built once, for lookups inside the package.
var catalogue = sync.OnceValue(Catalogue)

// index maps each rule id to its place in catalogue().
var index = sync.OnceValue(func() map[string]int {
	out := make(map[string]int, len(catalogue()))
	for i, r := range catalogue() {
		out[r.ID] = i
	}
	return out
})

// Pattern returns the expression of the pattern rule id, for the
// extractor to compile with prose.LazyRE (on first use, gated behind its
// literals): the one way a layer reaches a catalogue pattern;
// it panics when id is not a pattern rule, a programming error every test
// that builds a snapshot catches.
func Pattern(id string) string {
	r, ok := ByID(id)
	if !ok || r.Kind != KindPattern {
		panic(fmt.Sprintf("rulebook: %q is not a pattern rule", id))
	}
	return r.Pattern
}

// Words returns the word list of the rule id.
func Words(id string) []string {
	r, ok := ByID(id)
	if !ok || r.Kind != KindWords {
		panic(fmt.Sprintf("rulebook: %q is not a word-list rule", id))
	}
	return r.Words
}

// WordSet returns the word list of the rule id as a set, for a
// package-level var built once and only read after.
func WordSet(id string) map[string]bool {
	words := Words(id)
	set := make(map[string]bool, len(words))
	for _, w := range words {
		set[w] = true
	}
	return set
}

// HasWord reports whether text holds one of the rule's words as a whole
// word, case-insensitively.
func HasWord(id, text string) bool {
	lower := strings.ToLower(text)
	for _, w := range Words(id) {
		for i := 0; ; {
			j := strings.Index(lower[i:], w)
			if j < 0 {
				break
			}
			at := i + j
			if wordEdge(lower, at-1) && wordEdge(lower, at+len(w)) {
				return true
			}
			i = at + 1
		}
	}
	return false
}

// wordEdge reports whether the byte at i is outside a word (or outside the
// text).
func wordEdge(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return true
	}
	c := s[i]
	return !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80)
}

// Switches says which rules are off. The zero value has every rule on.
type Switches struct {
	off map[string]bool
}

// Disable returns Switches with the rules ids off. An id the catalogue
// does not know is an error, so a typo never silently measures nothing.
func Disable(ids ...string) (Switches, error) {
	s := Switches{off: map[string]bool{}}
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" {
			continue
		}
		r, ok := ByID(id)
		if !ok {
			return Switches{}, fmt.Errorf("rulebook: no rule %q (go run ./eval/cmd/rules lists them)", id)
		}
		if !r.Switch {
			return Switches{}, fmt.Errorf("rulebook: rule %q cannot be switched off: the extractor does not consult its switch (go run ./eval/cmd/rules lists those it does)", id)
		}
		s.off[id] = true
	}
	return s, nil
}

// On reports whether the rule id is switched on. Asking for a rule that
// is not switchable is a programming error: its switch would never turn
// it off, so the ablation would measure nothing and say it earns nothing.
func (s Switches) On(id string) bool {
	if r, ok := ByID(id); !ok || !r.Switch {
		panic(fmt.Sprintf("rulebook: Switches.On(%q): not a switchable rule (set Switch in its catalogue entry)", id))
	}
	return !s.off[id]
}

// Switchable returns the rules Options.Disable can turn off, in
// catalogue order.
func Switchable() []Rule {
	var out []Rule
	for _, r := range Catalogue() {
		if r.Switch {
			out = append(out, r)
		}
	}
	return out
}

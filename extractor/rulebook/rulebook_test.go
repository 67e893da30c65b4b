package rulebook

import (
	"regexp"
	"strings"
	"testing"
)

// TestCatalogue holds every rule to the catalogue's promises: a unique
// dotted id in its layer, a purpose, at least one example and one
// counter-example, and for pattern and word rules examples that fire and
// counter-examples that do not. Step rules' examples are run by the
// extractor's TestStepExamples.
func TestCatalogue(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Catalogue() {
		t.Run(r.ID, func(t *testing.T) {
			if seen[r.ID] {
				t.Fatalf("duplicate id")
			}
			seen[r.ID] = true
			if prefix, _, ok := strings.Cut(r.ID, "."); !ok || !validPrefix(prefix, r.Layer) {
				t.Errorf("id %q is not dotted by its layer %q", r.ID, r.Layer)
			}
			if r.Purpose == "" {
				t.Error("no purpose")
			}
			if len(r.Examples) == 0 || len(r.Counter) == 0 {
				t.Fatalf("needs at least one example and one counter-example (has %d and %d)", len(r.Examples), len(r.Counter))
			}
			switch r.Kind {
			case KindPattern:
				re, err := regexp.Compile(r.Pattern)
				if err != nil {
					t.Fatalf("pattern: %v", err)
				}
				for _, ex := range r.Examples {
					if !fires(re, ex) {
						t.Errorf("example does not fire: %q", ex)
					}
				}
				for _, ex := range r.Counter {
					if fires(re, ex) {
						t.Errorf("counter-example fires: %q", ex)
					}
				}
			case KindWords:
				if len(r.Words) == 0 {
					t.Fatal("a word rule without words")
				}
				for _, ex := range r.Examples {
					if !HasWord(r.ID, ex) {
						t.Errorf("example does not fire: %q", ex)
					}
				}
				for _, ex := range r.Counter {
					if HasWord(r.ID, ex) {
						t.Errorf("counter-example fires: %q", ex)
					}
				}
			case KindStep:
			default:
				t.Errorf("unknown kind %q", r.Kind)
			}
		})
	}
}

// fires reports whether re matches text. A pattern that matches the empty
// text (an optional tail, "facts.trailing-cut") matches every text, so
// for it a match is one that is not empty.
func fires(re *regexp.Regexp, text string) bool {
	if !re.MatchString("") {
		return re.MatchString(text)
	}
	for _, m := range re.FindAllString(text, -1) {
		if m != "" {
			return true
		}
	}
	return false
}

func validPrefix(prefix string, l Layer) bool {
	return map[string]Layer{"text": LayerText, "facts": LayerFacts, "conversation": LayerConversation,
		"decisions": LayerDecisions, "next": LayerNext, "assembly": LayerAssembly}[prefix] == l
}

func TestDisable(t *testing.T) {
	sw, err := Disable("next.plan-task", " ")
	if err != nil {
		t.Fatal(err)
	}
	if sw.On("next.plan-task") || !sw.On("next.open-error") {
		t.Errorf("switches: plan-task on=%v, open-error on=%v", sw.On("next.plan-task"), sw.On("next.open-error"))
	}
	if _, err := Disable("next.no-such-rule"); err == nil || !strings.Contains(err.Error(), "next.no-such-rule") {
		t.Errorf("an unknown id: err = %v", err)
	}
	var zero Switches
	if !zero.On("next.plan-task") {
		t.Error("the zero Switches has a rule off")
	}
}

// TestSwitches: a switchable rule turns off; a rule no code consults
// cannot be disabled (the ablation would measure nothing), and asking
// for its switch is a programming error.
func TestSwitches(t *testing.T) {
	sw, err := Disable("next.plan-task")
	if err != nil {
		t.Fatal(err)
	}
	if sw.On("next.plan-task") || !sw.On("next.open-error") {
		t.Errorf("Disable(next.plan-task): plan-task on = %v, open-error on = %v", sw.On("next.plan-task"), sw.On("next.open-error"))
	}
	for _, id := range []string{"conversation.list-item", "no.such-rule"} {
		if _, err := Disable(id); err == nil {
			t.Errorf("Disable(%q) = nil error, want one", id)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Switches.On of a rule that is not switchable did not panic")
		}
	}()
	Switches{}.On("conversation.list-item")
}
